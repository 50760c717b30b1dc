// The dashboard's data-failure view: what failed, and the two ways on. It also says the failure in
// the error snackbar ('Error fetching dashboard data: {message}').
import { Link, isRouteErrorResponse, useLocation } from "@remix-run/react";
import { LogIn, RefreshCw, TriangleAlert } from "lucide-react";
import { useEffect } from "react";
import { useSnackbar } from "~/components/snackbar";

/** What a failed load says: a thrown response's text or status, or the error's own message. */
export function dashboardErrorMessage(error: unknown): string {
  if (isRouteErrorResponse(error)) {
    if (typeof error.data === "string" && error.data) return error.data;
    return `${error.status} ${error.statusText}`.trim();
  }
  // A server fault reaches the browser as Remix's "Unexpected Server Error" (details stay in the
  // server log); a network failure as the browser's own message.
  if (error instanceof Error && error.message) return error.message;
  return "Unknown error";
}

export function DashboardDataIssue({ error }: { error: unknown }) {
  const showSnackbar = useSnackbar();
  const { pathname } = useLocation();
  const message = dashboardErrorMessage(error);
  useEffect(() => {
    showSnackbar(`Error fetching dashboard data: ${message}`, "error");
  }, [message, showSnackbar]);
  return (
    <div className="mx-auto max-w-xl">
      <div className="card p-8 text-center" data-testid="dashboard-data-issue">
        <TriangleAlert className="mx-auto h-10 w-10 text-amber-500" aria-hidden="true" />
        <h2 className="mt-3 text-xl font-semibold text-slate-900">Dashboard Data Issue</h2>
        <p className="mt-2 text-slate-600">
          The dashboard could not load its data. Reload the page; if it happens again, sign in again.
        </p>
        <div className="mt-5 flex flex-wrap justify-center gap-3">
          {/* A document load, not a client navigation: it also works before JavaScript has loaded. */}
          <Link to={pathname} reloadDocument className="btn-primary">
            <RefreshCw className="h-4 w-4" aria-hidden="true" /> Reload Page
          </Link>
          <Link to="/login" className="btn-secondary">
            <LogIn className="h-4 w-4" aria-hidden="true" /> Return to Login
          </Link>
        </div>
      </div>
    </div>
  );
}
