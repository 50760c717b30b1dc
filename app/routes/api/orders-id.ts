// GET, PUT and DELETE /api/orders/{id}: one of the caller's orders; another tenant's or a malformed
// id is a 404.
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { allowMethods, notFound, parseOrThrow, readJson } from "~/lib/api.server";
import { isId } from "~/lib/id";
import { invariantResponse } from "~/lib/responses";
import { OrderUpdateSchema } from "~/schemas/order";
import { withApi } from "~/services/auth.server";
import { deleteOrder, getOrder, updateOrder } from "~/services/orders.server";

function orderId(params: { id?: string }): string {
  const id = (params.id ?? "").toLowerCase();
  invariantResponse(isId(id), () => notFound("Order"));
  return id;
}

export async function loader({ request, params }: LoaderFunctionArgs) {
  return withApi(request, async (user) => getOrder(user.id, orderId(params)));
}

export async function action({ request, params }: ActionFunctionArgs) {
  allowMethods(request, "GET", "PUT", "PATCH", "DELETE");
  return withApi(request, async (user) => {
    const id = orderId(params);
    if (request.method === "DELETE") {
      await deleteOrder(user.id, id);
      return { success: true, message: "Order deleted successfully" };
    }
    const input = parseOrThrow(OrderUpdateSchema, await readJson(request));
    return updateOrder(user.id, id, input);
  });
}
