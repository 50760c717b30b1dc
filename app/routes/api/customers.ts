// GET /api/customers?q=&sort=&order=&limit=&cursor=: a page of the caller's customers as an array,
// newest added first unless `sort` (name, totalSpend, visits, lastActive, createdAt) and `order`
// (asc, desc; by default asc for name, else desc) say otherwise; a search is sorted the same way.
// X-Total-Count says how many match (exact without q; with q, counted up to 1000, and
// X-Total-Count-Capped: true beyond), X-Next-Cursor the cursor of the next page (absent on the
// last page; it belongs to its sort). POST /api/customers: creates one (201); a duplicate e-mail
// is a 409.
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { allowMethods, jsonResponse, parseOrThrow, readJson } from "~/lib/api.server";
import { CustomerListQuerySchema } from "~/schemas/api-inputs.server";
import { CustomerApiSchema } from "~/schemas/customer";
import { withApi } from "~/services/auth.server";
import { createCustomer, listCustomers } from "~/services/customers.server";

export async function loader({ request }: LoaderFunctionArgs) {
  return withApi(request, async (user) => {
    const query = parseOrThrow(CustomerListQuerySchema, Object.fromEntries(new URL(request.url).searchParams));
    const page = await listCustomers(user.id, query);
    const headers = new Headers({
      "X-Total-Count": String(page.total),
      "Access-Control-Expose-Headers": "X-Total-Count, X-Total-Count-Capped, X-Next-Cursor, X-User-Id",
    });
    if (page.totalCapped) headers.set("X-Total-Count-Capped", "true");
    if (page.nextCursor) headers.set("X-Next-Cursor", page.nextCursor);
    return jsonResponse(page.customers, { headers });
  });
}

export async function action({ request }: ActionFunctionArgs) {
  allowMethods(request, "GET", "POST");
  return withApi(request, async (user) => {
    const input = parseOrThrow(CustomerApiSchema, await readJson(request));
    const customer = await createCustomer(user.id, input);
    return jsonResponse(customer, { status: 201, headers: { Location: `/api/customers/${customer.id}` } });
  });
}
