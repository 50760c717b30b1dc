// A campaign launched to everyone of a tenant, and one launched and sent by the delivery engine through the SMTP
// channel to a real SMTP server (tests/helpers/smtp.ts), as the feeds' and tracking tests need one;
// and its Campaign and Delivery rows as those tests read them, and the check that its counters add
// up. Import it after the test database is set up (tests/helpers/db.ts), as the app modules it loads.
// Each takes the test's connection (useTestConnection()), on either engine.
import { expect } from "vitest";
import type { AnyConnection } from "~/db/connection.server";
import { deliveryStats } from "~/lib/campaigns";
import { newId } from "~/lib/id";
import { parseConditions } from "~/lib/segment-parse";
import { type CampaignRow, campaigns, type NewCampaign } from "~/models/campaigns/store.server";
import { launches } from "~/models/launch/store.server";
import { segmentAudience } from "~/models/segments/audience/store.server";
import type { DeliveryChannel } from "~/services/sending/channel.server";
import { createDeliveryEngine } from "~/services/sending/engine.server";
import type { EngineSettings } from "~/services/sending/engine-settings.server";
import { smtpChannel } from "~/services/sending/smtp-channel.server";
import { sqlRow, sqlRows } from "./sql";

/** The campaign's row as stored now. */
export async function campaignRow(_connection: AnyConnection, id: string): Promise<CampaignRow> {
  const row = await campaigns.findCampaignRowById(id);
  if (!row) throw new Error(`No campaign ${id}`);
  return row;
}

/**
 * The kept counters are the rows by state (each row counted once, complained included), they add up
 * to the audience size (docs/rules.md#campaign-figures), and opened and clicked are the rows with a
 * first open and click.
 */
export async function expectCountersAddUp(sqlite: AnyConnection, id: string): Promise<void> {
  const c = await campaignRow(sqlite, id);
  const byStatus = new Map(
    (
      await sqlRows<{ status: string; n: number }>(
        sqlite,
        `SELECT "status", count(*) AS "n" FROM "Delivery" WHERE "campaignId" = ? GROUP BY "status"`,
        [id],
      )
    ).map((r) => [r.status, Number(r.n)]),
  );
  const rows = (status: string) => byStatus.get(status) ?? 0;
  expect({
    pending: c.pendingCount,
    sent: c.sentCount,
    delivered: c.deliveredCount,
    failed: c.failedCount,
    bounced: c.bouncedCount,
    complained: c.complainedCount,
    cancelled: c.cancelledCount,
    suppressed: c.suppressedCount,
  }).toEqual({
    pending: rows("pending"),
    sent: rows("sent"),
    delivered: rows("delivered"),
    failed: rows("failed"),
    bounced: rows("bounced"),
    complained: rows("complained"),
    cancelled: rows("cancelled"),
    suppressed: rows("suppressed"),
  });
  const stats = deliveryStats(c);
  expect(stats.sent + stats.failed + stats.cancelled + stats.suppressed + stats.pending).toBe(c.audienceSize);
  const engaged = await sqlRow<{ opened: number; clicked: number }>(
    sqlite,
    `SELECT count("openedAt") AS "opened", count("clickedAt") AS "clicked" FROM "Delivery" WHERE "campaignId" = ?`,
    [id],
  );
  expect({ opened: c.openedCount, clicked: c.clickedCount }).toEqual({
    opened: Number(engaged?.opened),
    clicked: Number(engaged?.clicked),
  });
}

export type SentRow = { seq: number; retries: number; email: string; status: string; details: string };

/** The campaign's delivery rows in order. */
export const sentRows = (sqlite: AnyConnection, id: string) =>
  sqlRows<SentRow>(
    sqlite,
    `SELECT "seq", "retries", "email", "status", "details" FROM "Delivery" WHERE "campaignId" = ? ORDER BY "seq"`,
    [id],
  );

/**
 * Launches a campaign to every customer of `userId` and runs the delivery engine with the SMTP
 * channel to `smtpPort` until it is Completed (30 s at most); fails the test on any engine error.
 */
/**
 * A campaign launched to every customer of the tenant (its rows pending), at `at` (default now):
 * what the receipts and sending tests start from. Its id.
 */
export async function launchToEveryone(
  sqlite: AnyConnection,
  userId: string,
  campaign: Partial<Pick<NewCampaign, "name" | "subject" | "message" | "trackingEnabled">> = {},
  at = Date.now(),
): Promise<string> {
  const parsed = parseConditions({ totalSpend: { $gte: 0 } });
  if (!parsed.ok) throw new Error(parsed.message);
  const id = newId();
  await launches.launchCampaign(
    sqlite,
    {
      id,
      userId,
      segmentId: null,
      segmentName: "Everyone",
      name: `Campaign ${id.slice(-4)}`,
      subject: "Hello",
      description: "",
      message: "Hi {NAME}",
      ...campaign,
    },
    segmentAudience.audienceWhere(userId, parsed.tree),
    at,
  );
  return id;
}

export async function sendCampaignOverSmtp(
  sqlite: AnyConnection,
  options: { userId: string; smtpPort: number } & Pick<NewCampaign, "name" | "message"> &
    Partial<Pick<NewCampaign, "trackingEnabled">>,
): Promise<string> {
  const id = await launchToEveryone(sqlite, options.userId, {
    name: options.name,
    subject: "Hello {NAME}",
    message: options.message,
    ...(options.trackingEnabled === undefined ? {} : { trackingEnabled: options.trackingEnabled }),
  });
  const channel = smtpChannel({ url: `smtp://127.0.0.1:${options.smtpPort}`, maxConnections: 2 });
  const errors: string[] = [];
  const engine = createDeliveryEngine({
    connection: sqlite,
    channel,
    settings: { batchSize: 100, concurrency: 2, idleMs: 10 },
    onEvent: (e) => {
      if (e.type === "error") errors.push(e.message);
    },
  });
  const running = engine.run();
  const deadline = Date.now() + 30_000;
  while ((await campaignRow(sqlite, id)).status === "Active" && Date.now() < deadline)
    await new Promise((r) => setTimeout(r, 25));
  await engine.stop();
  await running;
  await channel.close();
  expect(errors).toEqual([]);
  expect((await campaignRow(sqlite, id)).status).toBe("Completed");
  return id;
}

/**
 * Runs the delivery engine with `channel` until the campaign is Completed (10 s at most; other
 * active campaigns send too), then stops it. The test checks the status it ended in.
 */
export async function sendThrough(
  connection: AnyConnection,
  id: string,
  channel: DeliveryChannel,
  settings: Partial<EngineSettings>,
): Promise<void> {
  const engine = createDeliveryEngine({ connection, channel, settings });
  const running = engine.run();
  for (let i = 0; i < 400 && (await campaignRow(connection, id)).status !== "Completed"; i++)
    await new Promise((r) => setTimeout(r, 25));
  await engine.stop();
  await running;
}
