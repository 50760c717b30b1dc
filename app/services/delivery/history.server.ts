// `crm seed --campaigns N`: a tenant's history of finished campaigns, with a delivery row per
// recipient in a final state, as if each had been sent and its receipts had come back: about 90%
// delivered (a little more or less per campaign), the rest failed or bounced, some opened and
// clicked. Rows are written by the launch snapshot itself and finished in bulk SQL, so a history
// of a million rows takes seconds.
import type { Sqlite } from "~/db/sqlite.server";
import { newId } from "~/lib/id";
import { parseConditions } from "~/lib/segments";
import { launchCampaign, recountCampaign } from "~/services/delivery/store.server";
import { compileSegmentWhere } from "~/services/segment-sql.server";

const NAMES = [
  "Diwali Dhamaka",
  "Monsoon Sale",
  "New Year Offer",
  "Holi Colours",
  "Independence Day Deals",
  "Summer Clearance",
  "Festive Bonanza",
  "Loyalty Rewards",
  "Win-back",
  "Weekend Flash Sale",
];

export function seedCampaignHistory(
  sqlite: Sqlite,
  userId: string,
  count: number,
  options: { now?: number; onProgress?: (done: number) => void } = {},
): { campaigns: number; deliveries: number } {
  const now = options.now ?? Date.now();
  const segments = sqlite
    .prepare(`SELECT "id", "name", "conditions" FROM "Segment" WHERE "userId" = ? ORDER BY "createdAt"`)
    .all(userId) as {
    id: string;
    name: string;
    conditions: string;
  }[];
  let deliveries = 0;
  for (let i = 0; i < count; i++) {
    // Spread over the last weeks, oldest first, a few days apart.
    const launchedAt = now - (count - i) * 3 * 86_400_000 + (i % 5) * 3_600_000;
    const segment = segments.length ? segments[i % segments.length] : null;
    const parsed = segment ? parseConditions(JSON.parse(segment.conditions)) : null;
    const where =
      parsed && parsed.ok
        ? compileSegmentWhere(userId, parsed.tree)
        : { sql: `"userId" = ? AND (abs(random()) % 100) < ?`, params: [userId, 10 + ((i * 13) % 30)] };
    const id = newId(new Date(launchedAt));
    const name = `${NAMES[i % NAMES.length]}${i >= NAMES.length ? ` ${Math.floor(i / NAMES.length) + 1}` : ""}`;
    const size = launchCampaign(
      sqlite,
      {
        id,
        userId,
        segmentId: segment?.id ?? null,
        segmentName: segment?.name ?? "Seeded audience",
        name,
        subject: `${name}: just for you, {NAME}`,
        description: "",
        message: `Hi {NAME}, ${name} is on! Up to 15% off with free shipping.`,
      },
      where,
      launchedAt,
    );
    if (size > 0) {
      // Outcomes from a hash of the row, with each campaign's delivery share a little different.
      const deliveredBelow = 82 + ((i * 7) % 15);
      const failedBelow = deliveredBelow + Math.ceil((100 - deliveredBelow) / 2);
      const openedBelow = 15 + ((i * 11) % 25);
      sqlite
        .prepare(
          `UPDATE "Delivery" SET
             "status" = CASE WHEN ("seq" * 2654435761) % 100 < ? THEN 'delivered' WHEN ("seq" * 2654435761) % 100 < ? THEN 'failed' ELSE 'bounced' END,
             "attempts" = 1, "nextAttemptAt" = 0, "updatedAt" = ? + ("seq" % 3600) * 1000
           WHERE "campaignId" = ?`,
        )
        .run(deliveredBelow, failedBelow, launchedAt, id);
      sqlite
        .prepare(
          `UPDATE "Delivery" SET "details" = CASE "status" WHEN 'failed' THEN '452 4.2.2 Mailbox full' WHEN 'bounced' THEN '550 5.1.1 The e-mail account does not exist' ELSE '' END,
             "openedAt" = CASE WHEN "status" = 'delivered' AND ("seq" * 40503) % 100 < ? THEN "updatedAt" + 3600000 END
           WHERE "campaignId" = ?`,
        )
        .run(openedBelow, id);
      sqlite
        .prepare(
          `UPDATE "Delivery" SET "clickedAt" = "openedAt" + 600000 WHERE "campaignId" = ? AND "openedAt" IS NOT NULL AND ("seq" * 69069) % 100 < 25`,
        )
        .run(id);
      recountCampaign(sqlite, id);
      sqlite
        .prepare(`UPDATE "Campaign" SET "status" = 'Completed', "completedAt" = ?, "updatedAt" = ? WHERE "id" = ?`)
        .run(launchedAt + 3_600_000, launchedAt + 3_600_000, id);
      deliveries += size;
    }
    options.onProgress?.(i + 1);
  }
  return { campaigns: count, deliveries };
}
