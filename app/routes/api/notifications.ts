// GET /api/notifications?type=: the caller's notifications (newest first, at most 50) and unread count.
import type { LoaderFunctionArgs } from "@remix-run/node";
import { parseOrThrow, methodNotAllowed } from "~/lib/api.server";
import { NotificationListQuerySchema } from "~/schemas/api-inputs.server";
import { withApi } from "~/services/auth.server";
import { listNotifications } from "~/services/notifications.server";

export async function loader({ request }: LoaderFunctionArgs) {
  return withApi(request, async (user) => {
    const url = new URL(request.url);
    const query = parseOrThrow(NotificationListQuerySchema, Object.fromEntries(url.searchParams));
    return listNotifications(user.id, { type: query.type, take: query.limit });
  });
}

export const action = methodNotAllowed("GET");
