// /auth/callback: store the token, say so, and go to the dashboard after 1 second
// (docs/rules.md#sign-in-and-sessions). A browser's sign-in hands the token over in a one-time
// cookie this loader reads and clears, so the address is /auth/callback?auth=success; a program's
// carries it in the address (?token=…&auth=success), as the specification has it.
import type { HeadersFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data } from "@remix-run/node";
import { Link, useLoaderData, useNavigate, useSearchParams } from "@remix-run/react";
import { useEffect, useState } from "react";
import { methodNotAllowed, keepAllowHeader } from "~/lib/api.server";
import { BRAND } from "~/lib/brand";
import { callbackOutcome, storeToken } from "~/lib/auth-token";
import { takeHandedOffToken } from "~/services/session.server";

/** This address takes GET only: any other method is a 405 that says so. */

// A 405 keeps its Allow header on the rendered page (app/lib/api.server.ts); the handed-off
// token's cookie is cleared, and the page is never cached.
export const headers: HeadersFunction = (args) => {
  const headers = keepAllowHeader(args);
  const clear = args.loaderHeaders.get("Set-Cookie");
  if (clear) headers.set("Set-Cookie", clear);
  headers.set("Cache-Control", "no-store");
  return headers;
};

export const action = methodNotAllowed("GET");

export async function loader({ request }: LoaderFunctionArgs) {
  const { token, clear } = await takeHandedOffToken(request);
  return data(
    { handedOff: token },
    { headers: token ? { "Set-Cookie": clear, "Cache-Control": "no-store" } : { "Cache-Control": "no-store" } },
  );
}

export const meta: MetaFunction = () => [{ title: `Signing in · ${BRAND}` }];

export const LOGIN_REDIRECT_MS = 1000;

type State = { phase: "processing" } | { phase: "success" } | { phase: "failed"; reason: string };

export default function AuthCallback() {
  const [params] = useSearchParams();
  const { handedOff } = useLoaderData<typeof loader>();
  const navigate = useNavigate();
  const [state, setState] = useState<State>({ phase: "processing" });

  useEffect(() => {
    const outcome = callbackOutcome(params, handedOff);
    if (!outcome.ok) {
      setState({ phase: "failed", reason: outcome.reason });
      return;
    }
    if (!storeToken(outcome.token)) {
      setState({ phase: "failed", reason: "No authentication token received" });
      return;
    }
    setState({ phase: "success" });
    const timer = setTimeout(() => navigate("/dashboard", { replace: true }), LOGIN_REDIRECT_MS);
    return () => clearTimeout(timer);
  }, [params, handedOff, navigate]);

  return (
    <main className="flex min-h-screen items-center justify-center p-4">
      <div className="card w-full max-w-sm p-8 text-center">
        {state.phase === "failed" ? (
          <>
            <h1 className="text-xl font-semibold text-red-700">Login failed</h1>
            <p className="mt-2 text-slate-600">Error: {state.reason}</p>
            <Link to="/login" className="btn-primary mt-6">
              Back to sign in
            </Link>
          </>
        ) : (
          <>
            <div
              className="mx-auto mb-4 h-8 w-8 animate-spin rounded-full border-4 border-primary border-t-transparent"
              aria-hidden="true"
            />
            <p className="text-slate-700">
              {state.phase === "success" ? "Login successful! Redirecting..." : "Processing login..."}
            </p>
            <noscript>
              <p className="mt-4 text-sm text-slate-500">
                <a className="text-primary underline" href="/dashboard">
                  Continue to the dashboard
                </a>
              </p>
            </noscript>
          </>
        )}
      </div>
    </main>
  );
}
