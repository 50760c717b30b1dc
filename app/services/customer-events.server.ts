// Counts new customers per user and emits a NEW_CUSTOMERS notification each time the count
// reaches 15 (docs/rules.md#new-customer-notifications), then starts again. Every path that creates customers (screen, /api,
// CSV import, seed) calls recordNewCustomers with how many it created.
import { NEW_CUSTOMERS_THRESHOLD } from "~/lib/notifications";
import { customers } from "~/models/customers/store.server";
import { notify } from "~/services/notifications.server";

export async function recordNewCustomers(userId: string, created: number) {
  if (created <= 0) return;
  const total = await customers.addToNewCustomerCount(userId, created);
  if (total < NEW_CUSTOMERS_THRESHOLD) return;
  // One notification per crossing, not one per 15 (an import of 10,000 says so once).
  await customers.resetNewCustomerCount(userId);
  await notify(userId, {
    type: "NEW_CUSTOMERS",
    title: "New customers added",
    details: `${total.toLocaleString("en-IN")} new customers have been added to your CRM.`,
  });
}
