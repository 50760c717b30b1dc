// GET /orders/customer-options?q=: up to 20 of the signed-in user's customers matching a name or
// e-mail, for the order form's customer picker. It goes through the customer list's search (the
// trigram index), so the picker stays fast at a million customers.
import type { LoaderFunctionArgs } from "@remix-run/node";
import { data } from "@remix-run/node";
import { methodNotAllowed } from "~/lib/api.server";
import { requireUser } from "~/services/auth.server";
import { listCustomers } from "~/services/customers.server";
import { toCustomerContact, type CustomerOption } from "~/services/orders.server";

const PICKER_SIZE = 20;

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const q = new URL(request.url).searchParams.get("q") ?? "";
  const page = await listCustomers(user.id, { q, limit: PICKER_SIZE });
  const customers: CustomerOption[] = page.customers.map(toCustomerContact);
  return data({ customers }, { headers: { "Cache-Control": "no-store" } });
}

/** This address takes GET only: any other method is a 405 that says so. */
export const action = methodNotAllowed("GET");
