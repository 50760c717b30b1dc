// GET /api/auth/current_user: { isAuthenticated, user }. No credentials is a plain "not signed in";
// a bad or expired token, or a session that expired or was ended by a logout, is a 401.
import type { LoaderFunctionArgs } from "@remix-run/node";
import { apiFailure, authenticateApi } from "~/services/auth.server";
import { readSession } from "~/services/session.server";
import { toPublicUser } from "~/services/users.server";
import { methodNotAllowed } from "~/lib/api.server";

export async function loader({ request }: LoaderFunctionArgs) {
  const hasBearer = request.headers.has("Authorization");
  if (!hasBearer && (await readSession(request)).kind === "none") {
    return Response.json({ isAuthenticated: false, user: null }, { headers: { "Cache-Control": "no-store" } });
  }
  try {
    const user = await authenticateApi(request);
    return Response.json(
      { isAuthenticated: true, user: toPublicUser(user) },
      { headers: { "X-User-Id": user.id, "Cache-Control": "no-store" } },
    );
  } catch (error) {
    return apiFailure(error);
  }
}

export const action = methodNotAllowed("GET");
