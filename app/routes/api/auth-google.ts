// Starts Google sign-in: remix-auth redirects the browser to Google's consent screen.
import type { LoaderFunctionArgs } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { getEnv } from "~/env.server";
import { allowMethods } from "~/lib/api.server";
import { googleAuthenticator } from "~/services/auth.server";
import { TOO_MANY_SIGN_INS, checkSignInRate, clientAddress } from "~/services/rate-limit.server";

export async function loader({ request, context }: LoaderFunctionArgs) {
  // Any of the methods the contract names starts a sign-in; anything else (OPTIONS) is a 405.
  allowMethods(request, "GET", "POST", "PUT", "PATCH", "DELETE");
  if (!getEnv().googleEnabled) throw redirect("/login?error=access_denied");
  if (await checkSignInRate(clientAddress(context))) throw new Response(TOO_MANY_SIGN_INS, { status: 429 });
  return googleAuthenticator().authenticate("google", request);
}

export const action = loader;
