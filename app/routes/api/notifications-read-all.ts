// PUT (or POST) /api/notifications/read-all: marks every notification of the caller read.
import type { ActionFunctionArgs } from "@remix-run/node";
import { withApi } from "~/services/auth.server";
import { markAllRead } from "~/services/notifications.server";
import { allowMethods, methodNotAllowed } from "~/lib/api.server";

export async function action({ request }: ActionFunctionArgs) {
  allowMethods(request, "PUT", "POST");
  return withApi(request, async (user) => ({ success: true, updated: await markAllRead(user.id) }));
}

export const loader = methodNotAllowed("PUT", "POST");
