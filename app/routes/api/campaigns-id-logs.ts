// GET /api/campaigns/{id}/logs?status=&limit=&cursor=: a page of the campaign's delivery log in
// send order, optionally one status (pending, sent, delivered, failed, bounced); the next page's
// cursor is in X-Next-Cursor, the number of rows (of that status) in X-Total-Count.
import type { LoaderFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { jsonResponse, methodNotAllowed, parseOrThrow } from "~/lib/api.server";
import { DELIVERY_STATUSES } from "~/lib/campaigns";
import { withApi } from "~/services/auth.server";
import { deliveryLogs } from "~/services/campaigns.server";

const QuerySchema = z.object({
  status: z
    .string()
    .trim()
    .toLowerCase()
    .pipe(z.enum(DELIVERY_STATUSES, { message: `status must be one of ${DELIVERY_STATUSES.join(", ")}` }))
    .optional(),
  limit: z.coerce
    .number({ message: "limit must be a number" })
    .int("limit must be a whole number")
    .min(1, "limit must be at least 1")
    .max(1000, "limit must be at most 1000")
    .default(50),
  cursor: z.string().max(40, "cursor is not one this endpoint gave").optional(),
});

export async function loader({ request, params }: LoaderFunctionArgs) {
  return withApi(request, async (user) => {
    const query = parseOrThrow(QuerySchema, Object.fromEntries(new URL(request.url).searchParams));
    const page = await deliveryLogs(user.id, params.id ?? "", query);
    const headers = new Headers({
      "X-Total-Count": String(page.total),
      "Access-Control-Expose-Headers": "X-Total-Count, X-Next-Cursor, X-User-Id",
    });
    if (page.nextCursor) headers.set("X-Next-Cursor", page.nextCursor);
    return jsonResponse(page.logs, { headers });
  });
}

export const action = methodNotAllowed("GET");
