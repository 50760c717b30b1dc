// GET /api/auth/logout: ends the cookie session. Bearer tokens expire on their own.
import type { LoaderFunctionArgs } from "@remix-run/node";
import { destroySessionHeader } from "~/services/session.server";

export async function loader({ request }: LoaderFunctionArgs) {
  return Response.json(
    { success: true, message: "Logged out" },
    { headers: { "Set-Cookie": await destroySessionHeader(request), "Cache-Control": "no-store" } },
  );
}

export const action = loader;
