// GET /api/notifications?type=: the caller's notifications (newest first, at most 50) and unread count.
import type { LoaderFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { parseOrThrow, methodNotAllowed } from "~/lib/api.server";
import { NOTIFICATION_FILTERS, NOTIFICATION_TYPES } from "~/lib/notifications";
import { withApi } from "~/services/auth.server";
import { listNotifications } from "~/services/notifications.server";

const QuerySchema = z.object({
  type: z
    .string()
    .transform((t) => NOTIFICATION_FILTERS.find((f) => f.key === t)?.type ?? t)
    .pipe(z.enum(NOTIFICATION_TYPES, { message: `type must be one of ${NOTIFICATION_TYPES.join(", ")}` }))
    .optional(),
  limit: z.coerce.number().int().min(1).max(50).optional(),
});

export async function loader({ request }: LoaderFunctionArgs) {
  return withApi(request, async (user) => {
    const url = new URL(request.url);
    const query = parseOrThrow(QuerySchema, Object.fromEntries(url.searchParams));
    return listNotifications(user.id, { type: query.type, take: query.limit });
  });
}

export const action = methodNotAllowed("GET");
