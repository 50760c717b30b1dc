// GET /api/campaigns/{id}/logs?status=&limit=&cursor=: a page of the campaign's delivery log in
// send order, optionally one status (pending, deferred, sent, delivered, failed, bounced, cancelled,
// suppressed; deferred: pending rows waiting for a retry after a temporary answer); the next page's
// cursor is in X-Next-Cursor, the number of rows (of that status) in X-Total-Count.
import type { LoaderFunctionArgs } from "@remix-run/node";
import { jsonResponse, methodNotAllowed, parseOrThrow } from "~/lib/api.server";
import { DeliveryLogQuerySchema } from "~/schemas/api-inputs.server";
import { withApi } from "~/services/auth.server";
import { deliveryLogs } from "~/services/campaigns/delivery-log.server";

export async function loader({ request, params }: LoaderFunctionArgs) {
  return withApi(request, async (user) => {
    const query = parseOrThrow(DeliveryLogQuerySchema, Object.fromEntries(new URL(request.url).searchParams));
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
