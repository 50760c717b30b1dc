// The one error view of a screen: whatever a loader or action threw on purpose (a response with a
// message: invariantResponse() or orRespond() in app/lib/responses.ts) is shown with a Back button; anything
// else shows a general message. Never a stack trace: the server log has the details.
import { Link, isRouteErrorResponse, useRouteError } from "@remix-run/react";
import { ArrowLeft } from "lucide-react";

export const UNEXPECTED_ERROR = "Something went wrong. Reload the page; if it happens again, check the server log.";

/** The message a thrown response carries, when it carries one as text. */
export function errorMessage(error: unknown, fallback: string): string {
  if (isRouteErrorResponse(error) && typeof error.data === "string" && error.data) return error.data;
  return fallback;
}

/** A detail or edit screen that could not load its record: the message and a Back button. */
export function LoadFailed({
  message,
  backTo,
  backLabel = "Back",
}: {
  message: string;
  backTo: string;
  backLabel?: string;
}) {
  return (
    <div className="mx-auto max-w-xl">
      <div className="card p-8 text-center">
        <p role="alert" className="font-medium text-red-700">
          {message}
        </p>
        <Link to={backTo} className="btn-secondary mt-4">
          <ArrowLeft className="h-4 w-4" aria-hidden="true" /> {backLabel}
        </Link>
      </div>
    </div>
  );
}

/**
 * A route's ErrorBoundary: `export function ErrorBoundary() { return <RouteErrorBoundary backTo="/orders" fallback="Failed to load order data. Please try again." /> }`.
 * `fallback` is shown for errors that carry no message of their own.
 */
export function RouteErrorBoundary({
  backTo,
  backLabel,
  fallback = UNEXPECTED_ERROR,
}: {
  backTo: string;
  backLabel?: string;
  fallback?: string;
}) {
  const error = useRouteError();
  return <LoadFailed message={errorMessage(error, fallback)} backTo={backTo} backLabel={backLabel} />;
}

/**
 * The app's 404 page inside the shell ("Page not found", as the root's boundary says it), for a
 * path a screen's route matched that names nothing, with a way back to the dashboard.
 */
export function PageNotFound() {
  return (
    <div className="mx-auto max-w-lg">
      <div className="card p-6">
        <h2 className="text-xl font-semibold text-slate-900">Page not found</h2>
        <p role="alert" className="mt-2 text-slate-600">
          There is nothing at this address.
        </p>
        <Link to="/" className="btn-primary mt-4">
          Go to the dashboard
        </Link>
      </div>
    </div>
  );
}
