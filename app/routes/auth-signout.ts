// Ends the browser session. POST from the avatar menu without JavaScript; GET with a reason when
// the client detects a broken session (identity mismatch, expiry) and must sign out.
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { LOGIN_ERRORS } from "~/lib/auth-token";
import { getSession, sessionStorage } from "~/services/session.server";

export async function loader({ request }: LoaderFunctionArgs) {
  const reason = new URL(request.url).searchParams.get("error") ?? "";
  const session = await getSession(request);
  const to = reason in LOGIN_ERRORS ? `/login?error=${reason}` : "/login";
  return redirect(to, { headers: { "Set-Cookie": await sessionStorage().destroySession(session) } });
}

export async function action({ request }: ActionFunctionArgs) {
  const session = await getSession(request);
  session.unset("userId");
  session.flash("flash", { kind: "toast", type: "success", message: "Logged out successfully" });
  return redirect("/login", { headers: { "Set-Cookie": await sessionStorage().commitSession(session) } });
}
