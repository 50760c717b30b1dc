// DELETE /api/customers/{id}/tags/{tag}: takes one tag off the customer (URL-encoded, compared
// without case). A tag the customer does not carry, or another tenant's customer, is a 404.
import type { ActionFunctionArgs } from "@remix-run/node";
import { allowMethods, methodNotAllowed } from "~/lib/api.server";
import { withApi } from "~/services/auth.server";
import { removeCustomerTag } from "~/services/tags.server";

export const loader = methodNotAllowed("DELETE");

export async function action({ request, params }: ActionFunctionArgs) {
  allowMethods(request, "DELETE");
  return withApi(request, async (user) => ({
    tags: await removeCustomerTag(user.id, params.id ?? "", params.tag ?? ""),
  }));
}
