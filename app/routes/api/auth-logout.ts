// POST /api/auth/logout: ends the caller's sessions. The user's session version moves on, so this
// cookie, any copy of it and every bearer token issued before stop working at once, on every device.
// POST only: a GET can be made by any page (a link, an image, a redirect), which must not be able
// to sign anyone out; a cookie-carried POST must come from our own pages (checkOrigin()).
import type { ActionFunctionArgs } from "@remix-run/node";
import { ApiError, allowMethods, jsonResponse, methodNotAllowed } from "~/lib/api.server";
import { apiFailure, authenticateApi } from "~/services/auth.server";
import { destroySessionHeader } from "~/services/session.server";
import { endSessions } from "~/services/users.server";

export const loader = methodNotAllowed("POST");

export async function action({ request }: ActionFunctionArgs) {
  allowMethods(request, "POST");
  let user;
  try {
    user = await authenticateApi(request);
  } catch (error) {
    // Logging out an ended session (or none) still clears the cookie and answers success; a write
    // from another site's page (403) is refused like any other.
    if (!(error instanceof ApiError && error.code === "unauthorized")) return apiFailure(error);
    user = null;
  }
  if (user) await endSessions(user.id);
  const response = jsonResponse({ success: true, message: "Logged out" });
  response.headers.set("Set-Cookie", await destroySessionHeader(request));
  if (user) response.headers.set("X-User-Id", user.id);
  return response;
}
