// `crm seed --campaigns N`: a tenant's history of finished campaigns, with a delivery row per
// recipient in a final state, as if each had been sent and its receipts had come back: about 90%
// delivered (a little more or less per campaign), the rest failed or bounced, some opened and
// clicked. Rows are written by the launch snapshot itself and finished in bulk SQL, so a history
// of a million rows takes seconds.
import type { AnyConnection } from "~/models/transaction/store.server";
import { newId } from "~/lib/id";
import { parseConditions } from "~/lib/segment-parse";
import { deliveryHistory } from "~/models/deliveries/history/store.server";
import { launches } from "~/models/launch/store.server";
import { segmentAudience } from "~/models/segments/audience/store.server";
import { withSegmentReference } from "~/services/segment-references.server";

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

export async function seedCampaignHistory(
  connection: AnyConnection,
  userId: string,
  count: number,
  options: { now?: number; onProgress?: (done: number) => void } = {},
): Promise<{ campaigns: number; deliveries: number }> {
  const now = options.now ?? Date.now();
  const segments = await deliveryHistory.segmentsForHistory(connection, userId);
  let deliveries = 0;
  for (let i = 0; i < count; i++) {
    // Spread over the last weeks, oldest first, a few days apart.
    const launchedAt = now - (count - i) * 3 * 86_400_000 + (i % 5) * 3_600_000;
    const segment = segments.length ? segments[i % segments.length] : null;
    const parsed = segment ? parseConditions(JSON.parse(segment.conditions)) : null;
    const where =
      parsed && parsed.ok
        ? segmentAudience.audienceWhere(userId, await withSegmentReference(userId, parsed.tree))
        : deliveryHistory.randomShareWhere(userId, 10 + ((i * 13) % 30));
    const id = newId(new Date(launchedAt));
    const name = `${NAMES[i % NAMES.length]}${i >= NAMES.length ? ` ${Math.floor(i / NAMES.length) + 1}` : ""}`;
    const size = await launches.launchCampaign(
      connection,
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
      await deliveryHistory.finishSeededCampaign(connection, id, launchedAt, {
        deliveredBelow,
        failedBelow,
        openedBelow,
      });
      deliveries += size;
    }
    options.onProgress?.(i + 1);
  }
  return { campaigns: count, deliveries };
}
