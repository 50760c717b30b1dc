// GET /api/customers/{id}: the customer with segments and recent orders (docs/rules.md#payloads).
// PUT /api/customers/{id}: replaces the fields (same body as POST). DELETE: removes the customer
// and their orders in one transaction. Another tenant's id, or a malformed one, is a 404.
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { allowMethods, parseOrThrow, readJson } from "~/lib/api.server";
import { CustomerApiSchema } from "~/schemas/customer";
import { withApi } from "~/services/auth.server";
import { customerDetail, deleteCustomer, updateCustomer } from "~/services/customers.server";

export async function loader({ request, params }: LoaderFunctionArgs) {
  return withApi(request, (user) => customerDetail(user.id, params.id ?? ""));
}

export async function action({ request, params }: ActionFunctionArgs) {
  allowMethods(request, "GET", "PUT", "PATCH", "DELETE");
  return withApi(request, async (user) => {
    const id = params.id ?? "";
    if (request.method === "DELETE") {
      const { ordersDeleted } = await deleteCustomer(user.id, id);
      return { success: true, message: "Customer deleted successfully", ordersDeleted };
    }
    const input = parseOrThrow(CustomerApiSchema, await readJson(request));
    return updateCustomer(user.id, id, input);
  });
}
