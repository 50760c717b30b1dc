// DELETE /api/notifications/{id}: removes one of the caller's notifications; another's is a 404.
import type { ActionFunctionArgs } from "@remix-run/node";
import { allowMethods, methodNotAllowed } from "~/lib/api.server";
import { withApi } from "~/services/auth.server";
import { deleteNotification } from "~/services/notifications.server";

export async function action({ request, params }: ActionFunctionArgs) {
  allowMethods(request, "DELETE");
  return withApi(request, async (user) => {
    await deleteNotification(user.id, params.id ?? "");
    return { success: true };
  });
}

export const loader = methodNotAllowed("DELETE");
