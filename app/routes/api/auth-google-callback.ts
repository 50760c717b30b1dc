// Google sends the browser back here: remix-auth exchanges the code, the verify callback creates or
// updates the user, and we open our own session and hand the token to /auth/callback in a cookie
// (the browser's address never carries it).
import type { LoaderFunctionArgs } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { getEnv } from "~/env.server";
import { methodNotAllowed } from "~/lib/api.server";
import { logger } from "~/lib/logger.server";
import { googleAuthenticator } from "~/services/auth.server";
import { signInAndHandOff } from "~/services/session.server";
import { SignUpClosed } from "~/services/sign-up.server";
import { GoogleLinkRefused } from "~/services/users.server";

export async function loader({ request }: LoaderFunctionArgs) {
  if (!getEnv().googleEnabled) throw redirect("/login?error=access_denied");
  if (new URL(request.url).searchParams.get("error")) throw redirect("/login?error=access_denied");
  let user;
  try {
    user = await googleAuthenticator().authenticate("google", request);
  } catch (error) {
    if (error instanceof Response) throw error;
    // remix-auth wraps what the verify callback throws; the cause says why.
    const cause = error instanceof Error ? error.cause : undefined;
    if (cause instanceof GoogleLinkRefused) throw redirect("/login?error=email_not_verified");
    if (cause instanceof SignUpClosed) throw redirect("/login?error=sign_up_closed");
    logger().error({ err: error }, "Google sign-in failed");
    throw redirect("/login?error=access_denied");
  }
  return signInAndHandOff(request, user.id);
}

export const action = methodNotAllowed("GET");
