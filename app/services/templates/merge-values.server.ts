// The values a template's merge tags read (~/lib/merge-tags): one of the tenant's customers with
// their fields and last order, or sample values, and the shop (the sender's name and postal
// address). The links are the preview's examples here; a sent message gets its own signed ones.
import type { MergeValues } from "~/lib/merge-tags";
import { getEnv } from "~/env.server";
import { senderOf } from "~/services/email/sender.server";
import { getCustomer } from "~/services/customers.server";
import { recentOrdersForCustomer } from "~/services/orders.server";
import { fullName, recipientValues } from "./recipient-values.server";

type Customer = MergeValues["customer"];

/** The shop as the tags read it: the sender's name and postal address. */
export async function shopOf(userId: string): Promise<MergeValues["shop"]> {
  const sender = await senderOf(userId);
  return { name: sender.name, address: sender.postalAddress ?? "" };
}

/** The preview's links: examples on PUBLIC_URL that look like a recipient's and lead nowhere harmful. */
export function exampleLinks() {
  const base = getEnv().publicUrl;
  return { unsubscribe_url: `${base}/u/example`, view_in_browser_url: `${base}/v/example` };
}

/** The values of one of the tenant's customers (404 when it is not theirs). */
export async function customerMergeValues(userId: string, customerId: string): Promise<MergeValues> {
  const [customer, orders, shop] = await Promise.all([
    getCustomer(userId, customerId),
    recentOrdersForCustomer(userId, customerId, 1),
    shopOf(userId),
  ]);
  const last = orders[0];
  return {
    ...recipientValues({
      ...customer,
      lastOrder: last
        ? { createdAt: Date.parse(last.date), amount: last.amount, total: last.total, status: last.status }
        : null,
    }),
    shop,
    ...exampleLinks(),
  };
}

/** Sample values (a customer with empty fields when none are given). */
export async function sampleMergeValues(
  userId: string,
  sample: { customer: Customer; last_order: MergeValues["last_order"] },
): Promise<MergeValues> {
  const customer = { ...sample.customer };
  if (customer.name === undefined) {
    customer.name = fullName(String(customer.first_name ?? ""), String(customer.last_name ?? ""));
  }
  return { customer, last_order: sample.last_order, shop: await shopOf(userId), ...exampleLinks() };
}
