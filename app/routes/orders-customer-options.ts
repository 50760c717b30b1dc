// GET /orders/customer-options?q=: up to 20 of the signed-in user's customers matching a name or
// e-mail, for the order form's customer picker (a picker that scales to a million customers).
import type { LoaderFunctionArgs } from "@remix-run/node";
import { data } from "@remix-run/node";
import { requireUser } from "~/services/auth.server";
import { findCustomerOptions } from "~/services/orders.server";

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const q = (new URL(request.url).searchParams.get("q") ?? "").slice(0, 200);
  const customers = await findCustomerOptions(user.id, q, 20);
  return data({ customers }, { headers: { "Cache-Control": "no-store" } });
}
