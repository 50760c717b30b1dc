// The client side of the session (docs/rules.md#sign-in-and-sessions): saves a token arriving in the
// URL, re-checks the session every 5 minutes, and signs out (a form POST) on 401, 403 or an
// identity mismatch.
import { useLocation } from "@remix-run/react";
import { useEffect } from "react";
import { toast } from "sonner";
import { AUTH_URL_PARAMS, clearToken, readToken, storeToken } from "~/lib/auth-token";
import { checkSession, AUTH_RECHECK_MS, SIGNOUT_PATH, SIGNOUT_REASON_FIELD } from "~/lib/session-check";

/**
 * Signs this browser out with a form POST to /auth/signout (sign-out is never a GET), which
 * closes the session and goes on to /login, with the reason when there is one.
 */
function submitSignout(reason: string) {
  const form = document.createElement("form");
  form.method = "post";
  form.action = SIGNOUT_PATH;
  form.hidden = true;
  const field = document.createElement("input");
  field.type = "hidden";
  field.name = SIGNOUT_REASON_FIELD;
  field.value = reason;
  form.append(field);
  document.body.append(form);
  form.submit();
}

export function AuthWatcher({ userId }: { userId: string }) {
  const location = useLocation();

  // A token handed over in the address (…?token=…&auth=success) is saved, stripped, and the page reloads.
  useEffect(() => {
    const params = new URLSearchParams(location.search);
    const token = params.get("token");
    if (params.get("auth") === "success" && token) {
      storeToken(token);
      for (const key of AUTH_URL_PARAMS) params.delete(key);
      const search = params.toString();
      // One step: replace the address and reload (a client-side navigate() is asynchronous, so a
      // reload right after it would load the old address again, token and all, forever).
      window.location.replace(`${location.pathname}${search ? `?${search}` : ""}${location.hash}`);
    }
  }, [location.search, location.pathname, location.hash]);

  useEffect(() => {
    // A page that is handing over a token reloads at once: checking now could only race the reload.
    const handover = new URLSearchParams(window.location.search);
    if (handover.get("auth") === "success" && handover.get("token")) return;
    let stopped = false;
    async function run() {
      const token = readToken();
      const outcome = await checkSession(fetch, token, userId);
      if (stopped) return;
      switch (outcome.kind) {
        case "ok":
          return;
        case "network":
          toast.error("Network connection issue. Please check your internet connection.");
          return;
        case "error":
          clearToken();
          toast.error("Authentication error. Please log in again.");
          return;
        case "signout":
          clearToken();
          submitSignout(outcome.reason);
          return;
      }
    }
    void run();
    const timer = setInterval(run, AUTH_RECHECK_MS);
    return () => {
      stopped = true;
      clearInterval(timer);
    };
  }, [userId]);

  return null;
}
