import type { ActionFunctionArgs, LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import {
  Links,
  Meta,
  Outlet,
  Scripts,
  ScrollRestoration,
  data,
  isRouteErrorResponse,
  useLoaderData,
  useRouteError,
} from "@remix-run/react";
import { TimeZoneReporter } from "~/components/date-time";
import { UNEXPECTED_ERROR, errorMessage } from "~/components/error-boundary";
import { AppToaster, FlashMessages } from "~/components/flash";
import { SnackbarProvider } from "~/components/snackbar";
import { keepAllowHeader, methodNotAllowedResponse } from "~/lib/api.server";
import { useNonce } from "~/lib/nonce";
import { readFlash } from "~/services/session.server";
import styles from "~/tailwind.css?url";

// A 405 thrown by a page without its own error boundary renders here: keep its Allow header.
export const headers = keepAllowHeader;

/**
 * A write to / without ?index comes here: Remix sends it to the deepest route that adds to the path,
 * which for / is the root, not the dashboard. It is a 405 like any method a page does not take.
 */
export function action({ request }: ActionFunctionArgs): never {
  throw methodNotAllowedResponse(request, ["GET"]);
}

export const links: LinksFunction = () => [{ rel: "stylesheet", href: styles }];

export const meta: MetaFunction = () => [
  { title: "Campaign CRM" },
  { name: "description", content: "Customers, segments and campaigns in one place" },
];

export async function loader({ request }: LoaderFunctionArgs) {
  const { flash, headers } = await readFlash(request);
  return data({ flash }, { headers });
}

export function Layout({ children }: { children: React.ReactNode }) {
  const nonce = useNonce();
  return (
    <html lang="en">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <Meta />
        <Links />
        <TimeZoneReporter nonce={nonce} />
      </head>
      <body className="min-h-screen bg-background font-sans antialiased">
        {children}
        <ScrollRestoration nonce={nonce} />
        <Scripts nonce={nonce} />
      </body>
    </html>
  );
}

export default function App() {
  const { flash } = useLoaderData<typeof loader>();
  return (
    <SnackbarProvider>
      <Outlet />
      <AppToaster />
      <FlashMessages flash={flash} />
    </SnackbarProvider>
  );
}

export function ErrorBoundary() {
  const error = useRouteError();
  const notFound = isRouteErrorResponse(error) && error.status === 404;
  return (
    <main className="mx-auto max-w-lg p-8">
      <div className="card p-6">
        <h1 className="text-xl font-semibold">{notFound ? "Page not found" : "Something went wrong"}</h1>
        <p role="alert" className="mt-2 text-slate-600">
          {errorMessage(error, notFound ? "There is nothing at this address." : UNEXPECTED_ERROR)}
        </p>
        <a href="/" className="btn-primary mt-4">
          Go to the dashboard
        </a>
      </div>
    </main>
  );
}
