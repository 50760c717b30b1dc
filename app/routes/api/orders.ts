// GET /api/orders?q=&limit=&cursor=: the caller's orders, newest first, a page at a time (the total in
// X-Total-Count, the next page's cursor in X-Next-Cursor). POST /api/orders: creates an order.
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { allowMethods, jsonResponse, parseOrThrow, readJson } from "~/lib/api.server";
import { OrderSchema } from "~/schemas/order";
import { OrderListQuerySchema } from "~/schemas/order-api";
import { withApi } from "~/services/auth.server";
import { createOrder, listOrders } from "~/services/orders.server";

export async function loader({ request }: LoaderFunctionArgs) {
  return withApi(request, async (user) => {
    const query = parseOrThrow(OrderListQuerySchema, Object.fromEntries(new URL(request.url).searchParams));
    const page = await listOrders(user.id, query);
    const headers = new Headers({ "X-Total-Count": String(page.total) });
    if (page.nextCursor) headers.set("X-Next-Cursor", page.nextCursor);
    return jsonResponse(page.orders, { headers });
  });
}

export async function action({ request }: ActionFunctionArgs) {
  allowMethods(request, "GET", "POST");
  return withApi(request, async (user) => {
    const input = parseOrThrow(OrderSchema, await readJson(request));
    const order = await createOrder(user.id, input);
    return jsonResponse(order, { status: 201, headers: { Location: `/api/orders/${order._id}` } });
  });
}
