// What a campaign tells its owner as it sends: the notification of a finished campaign with its
// figures, and of one the send paused (the delivery job writes them).
import { deliveryStats, performanceRates } from "~/lib/campaigns";
import type { CampaignRow } from "~/models/campaigns/rows";
import { notify } from "~/services/notifications.server";

/**
 * The CAMPAIGN_PERFORMANCE notification of a finished campaign. Each figure says what it is out of,
 * as the screens do, since its rates have other bases than theirs (docs/rules.md#campaign-figures):
 * 'Campaign "Diwali" finished: sent 320 of 320 (100.0% of the audience); success rate 99.7% of
 * attempted (1 bounced); opened by 12.5% of sent so far.'
 */
export function performanceText(row: CampaignRow): string {
  const stats = deliveryStats(row);
  const n = (count: number) => count.toLocaleString("en-IN");
  const { deliveryRate, openRate } = performanceRates({
    audienceSize: row.audienceSize,
    sent: stats.sent,
    opened: stats.opened,
  });
  const parts = [`sent ${n(stats.sent)} of ${n(row.audienceSize)} (${deliveryRate.toFixed(1)}% of the audience)`];
  if (stats.successRateValue !== null) {
    const lost = [
      stats.bounced > 0 ? `${n(stats.bounced)} bounced` : "",
      stats.failed > 0 ? `${n(stats.failed)} failed` : "",
    ].filter(Boolean);
    parts.push(`success rate ${stats.successRate} of attempted${lost.length ? ` (${lost.join(", ")})` : ""}`);
  }
  // Opens keep arriving for days after the send: the figure at completion is a first reading.
  if (openRate !== null) parts.push(`opened by ${openRate.toFixed(1)}% of sent so far`);
  return `Campaign "${row.name}" finished: ${parts.join("; ")}.`;
}

export async function notifyPerformance(row: CampaignRow): Promise<void> {
  await notify(row.userId, {
    type: "CAMPAIGN_PERFORMANCE",
    title: "Campaign completed",
    details: performanceText(row),
  });
}

/** The notification of a campaign the error cap paused. */
export async function notifyPaused(row: CampaignRow): Promise<void> {
  await notify(row.userId, {
    type: "SYSTEM",
    title: "Campaign paused",
    details: `Campaign "${row.name}": ${row.statusDetail}`,
  });
}
