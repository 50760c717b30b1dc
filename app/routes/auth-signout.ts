// Ends the browser session. POST from the avatar menu without JavaScript; GET with a reason when
// the client detects a broken session (identity mismatch, expiry) and must sign out.
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { LOGIN_ERRORS } from "~/lib/auth-token";
import { closeSession, getSession, readSession, sessionStorage } from "~/services/session.server";
import { endSessions } from "~/services/users.server";

export async function loader({ request }: LoaderFunctionArgs) {
  const reason = new URL(request.url).searchParams.get("error") ?? "";
  const session = await getSession(request);
  const to = reason in LOGIN_ERRORS ? `/login?error=${reason}` : "/login";
  return redirect(to, { headers: { "Set-Cookie": await sessionStorage().destroySession(session) } });
}

// Only the POST ends the user's other sessions and tokens too: a GET can be triggered by any
// page linking here, which must not be able to sign someone out everywhere.
export async function action({ request }: ActionFunctionArgs) {
  const state = await readSession(request);
  if (state.kind === "user") await endSessions(state.user.id);
  const session = await getSession(request);
  closeSession(session);
  session.flash("flash", { kind: "toast", type: "success", message: "Logged out successfully" });
  return redirect("/login", { headers: { "Set-Cookie": await sessionStorage().commitSession(session) } });
}
