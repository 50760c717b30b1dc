// Counts new customers per user and emits a NEW_CUSTOMERS notification each time the count
// reaches 15 (docs/rules.md#new-customer-notifications), then starts again. Every path that creates customers (screen, /api,
// CSV import, seed) calls recordNewCustomers with how many it created.
import { db } from "~/db.server";
import { NEW_CUSTOMERS_THRESHOLD } from "~/lib/notifications";
import { notify } from "~/services/notifications.server";

export async function recordNewCustomers(userId: string, created: number) {
  if (created <= 0) return;
  const user = await db().user.update({
    where: { id: userId },
    data: { newCustomersSinceNotice: { increment: created } },
    select: { newCustomersSinceNotice: true },
  });
  const total = user.newCustomersSinceNotice;
  if (total < NEW_CUSTOMERS_THRESHOLD) return;
  // One notification per crossing, not one per 15 (an import of 10,000 says so once).
  await db().user.update({ where: { id: userId }, data: { newCustomersSinceNotice: 0 } });
  await notify(userId, {
    type: "NEW_CUSTOMERS",
    title: "New customers added",
    details: `${total.toLocaleString("en-IN")} new customers have been added to your CRM.`,
  });
}
