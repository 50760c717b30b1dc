// GET /api/auth/logout: ends the caller's sessions. The user's session version moves on, so this
// cookie, any copy of it and every bearer token issued before stop working at once, on every device.
import type { LoaderFunctionArgs } from "@remix-run/node";
import { authenticateApi } from "~/services/auth.server";
import { destroySessionHeader } from "~/services/session.server";
import { endSessions } from "~/services/users.server";

export async function loader({ request }: LoaderFunctionArgs) {
  // Logging out an ended session (or none) still clears the cookie and answers success.
  const user = await authenticateApi(request).catch(() => null);
  if (user) await endSessions(user.id);
  return Response.json(
    { success: true, message: "Logged out" },
    { headers: { "Set-Cookie": await destroySessionHeader(request), "Cache-Control": "no-store" } },
  );
}

export const action = loader;
