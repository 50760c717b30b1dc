// PUT (or POST) /api/notifications/{id}/read: marks one of the caller's notifications read.
import type { ActionFunctionArgs } from "@remix-run/node";
import { withApi } from "~/services/auth.server";
import { markRead } from "~/services/notifications.server";
import { allowMethods, methodNotAllowed } from "~/lib/api.server";

export async function action({ request, params }: ActionFunctionArgs) {
  allowMethods(request, "PUT", "POST");
  return withApi(request, async (user) => {
    await markRead(user.id, params.id ?? "");
    return { success: true };
  });
}

export const loader = methodNotAllowed("PUT", "POST");
