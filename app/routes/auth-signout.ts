// Ends the browser session, by POST only (a form, so it works without JavaScript): a GET can be
// made by any page linking here, which must not be able to sign anyone out, so a GET is a 405.
//
// - Without `error`: Logout. Ends every session and token of the user (their session version moves
//   on) and shows 'Logged out successfully' on /login.
// - With `error` (the session check in app/components/auth-watcher.tsx, after a 401, a 403 or an
//   identity mismatch): closes this browser's session only and goes to /login?error=<reason> when
//   the reason is one /login explains (LOGIN_ERRORS), else to /login.
import type { ActionFunctionArgs } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { allowMethods } from "~/lib/api.server";
import { LOGIN_ERRORS } from "~/lib/auth-token";
import { SIGNOUT_REASON_FIELD } from "~/lib/session-check";
import { checkPageOrigin } from "~/services/auth.server";
import { closeSession, getSession, readSession, sessionStorage } from "~/services/session.server";
import { endSessions } from "~/services/users.server";

export function loader() {
  return new Response("Sign out with a form that posts to /auth/signout.", {
    status: 405,
    headers: { Allow: "POST", "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" },
  });
}

export async function action({ request }: ActionFunctionArgs) {
  allowMethods(request, "POST");
  checkPageOrigin(request);
  const form = await request.formData().catch(() => new FormData());
  const session = await getSession(request);
  const reason = form.get(SIGNOUT_REASON_FIELD);
  if (typeof reason === "string") {
    const to = Object.hasOwn(LOGIN_ERRORS, reason) ? `/login?error=${reason}` : "/login";
    return redirect(to, { headers: { "Set-Cookie": await sessionStorage().destroySession(session) } });
  }
  const state = await readSession(request);
  if (state.kind === "user") await endSessions(state.user.id);
  closeSession(session);
  session.flash("flash", { kind: "toast", type: "success", message: "Logged out successfully" });
  return redirect("/login", { headers: { "Set-Cookie": await sessionStorage().commitSession(session) } });
}
