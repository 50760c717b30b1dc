// The campaign the vendor feedback tests (app/services/feedback/sendgrid.server.test.ts and
// ses.server.test.ts) receive bounces and complaints for: a seeded tenant, a campaign launched to
// all its customers and every message delivered (the relay took them; the vendor reports later),
// and a delivery row as the campaign's delivery log shows it.
import { expect } from "vitest";
import type { AnyConnection } from "~/db/connection.server";
import { deliveryReceipts } from "~/models/deliveries/receipts/store.server";
import { CampaignContentSchema } from "~/schemas/campaign";
import { deliveryLogs } from "~/services/campaigns/delivery-log.server";
import { launch } from "~/services/campaigns/launch.server";
import { seedTenant } from "~/services/seed.server";
import { createSegment } from "~/services/segments.server";
import { createTestUser, segmentTree } from "./db";

/** The Message-ID our mail carries for a delivery key, as vendors echo it. */
export const messageId = (key: string) => `<${key}@shop.example>`;

export type DeliveredCampaign = {
  userId: string;
  campaignId: string;
  /** The campaign's rows (six or more): their delivery key and address. */
  rows: { id: string; email: string }[];
};

/** A user `sender` with 8 customers (seeded with `seed`), campaign `name` sent to all of them and delivered. */
export async function launchDeliveredCampaign(
  connection: AnyConnection,
  { sender, seed, name }: { sender: string; seed: number; name: string },
): Promise<DeliveredCampaign> {
  const user = await createTestUser(sender);
  await seedTenant(user.id, { customers: 8, orders: 0, seed });
  const segment = await createSegment(user.id, {
    name: "All",
    description: "",
    tree: segmentTree({ visits: { $gte: 0 } }),
  });
  const content = CampaignContentSchema.parse({ name, subject: "Hi", message: "Hello", segmentId: segment.id });
  const campaignId = (await launch(user.id, content)).id;
  const { logs } = await deliveryLogs(user.id, campaignId, { limit: 50 });
  const rows = logs.map((l) => ({ id: l.id, email: l.customer.email }));
  expect(rows.length).toBeGreaterThanOrEqual(6);
  await deliveryReceipts.applyReceipts(
    connection,
    rows.map((r) => ({ id: r.id, event: "delivered" as const, at: Date.now() })),
  );
  return { userId: user.id, campaignId, rows };
}

/** One of the campaign's rows as its delivery log shows it. */
export async function deliveryLogRow(userId: string, campaignId: string, id: string) {
  const { logs } = await deliveryLogs(userId, campaignId, { limit: 50 });
  const found = logs.find((l) => l.id === id);
  if (!found) throw new Error(`no row ${id}`);
  return found;
}
