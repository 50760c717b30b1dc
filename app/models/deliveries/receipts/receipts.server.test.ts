// Receipts from this server's own feeds on a real database (SQLite, and PostgreSQL in its project): opens and clicks from the pixel
// and the tracked links (people and machines told apart), and bounces, soft bounces and complaints
// reported after the send (a bounce mailbox, SES, SendGrid), each kept as a DeliveryEvent, counted
// on the campaign and, where the rules say so, putting the address on the suppression list.
import { beforeAll, describe, expect, it } from "vitest";
import { createTestUser, useTestConnection, useTestDatabase } from "../../../../tests/helpers/db";

// eslint-disable-next-line react-hooks/rules-of-hooks -- a test helper named use*, not a React hook
useTestDatabase();
// eslint-disable-next-line react-hooks/rules-of-hooks -- a test helper named use*, not a React hook
const connection = useTestConnection();

import { deliveryId, deliveryStats } from "~/lib/campaigns";
import type { CampaignRow } from "~/models/campaigns/rows";
import { DEFAULT_FEEDBACK_POLICY, type Receipt } from "~/models/deliveries/receipts/rows";
import { deliveryReceipts } from "~/models/deliveries/receipts/store.server";
import { seedTenant } from "~/services/seed.server";
import {
  campaignRow,
  expectCountersAddUp as expectAllAddUp,
  launchToEveryone,
} from "../../../../tests/helpers/campaign-send";
import { sqlRow, sqlRows, sqlRun } from "../../../../tests/helpers/sql";

let tenant: { id: string };

const HOUR = 3_600_000;

const campaign = (id: string): Promise<CampaignRow> => campaignRow(connection(), id);

type Row = {
  seq: number;
  email: string;
  status: string;
  details: string;
  openedAt: number | null;
  clickedAt: number | null;
};
function rows(campaignId: string): Promise<Row[]> {
  return sqlRows<Row>(
    connection(),
    `SELECT "seq", "email", "status", "details", "openedAt", "clickedAt" FROM "Delivery" WHERE "campaignId" = ? ORDER BY "seq"`,
    [campaignId],
  );
}

type EventRow = { kind: string; machine: number; link: number | null; source: string; details: string };
function events(campaignId: string, seq: number): Promise<EventRow[]> {
  return sqlRows<EventRow>(
    connection(),
    `SELECT "kind", CASE WHEN "machine" THEN 1 ELSE 0 END AS "machine", "link", "source", "details" FROM "DeliveryEvent"
     WHERE "campaignId" = ? AND "seq" = ? ORDER BY "id"`,
    [campaignId, seq],
  );
}

function suppression(email: string) {
  return sqlRow<{ reason: string; details: string; campaignId: string | null }>(
    connection(),
    `SELECT "reason", "details", "campaignId" FROM "Suppression" WHERE "userId" = ? AND "email" = ?`,
    [tenant.id, email.toLowerCase()],
  );
}

const expectCountersAddUp = (id: string) => expectAllAddUp(connection(), id);

/** A campaign launched to every customer of the tenant an hour before `at`, its rows pending. */
const launched = (at = Date.now()) => launchToEveryone(connection(), tenant.id, {}, at - HOUR);

/** A campaign whose first row the vendor accepted at `handedOver` (sent: no delivery receipt yet). */
async function sentCampaign(handedOver: number) {
  const id = await launched();
  const [a] = await rows(id);
  await sqlRun(connection(), `UPDATE "Delivery" SET "status" = 'sent', "updatedAt" = ? WHERE "seq" = ?`, [
    handedOver,
    a.seq,
  ]);
  await sqlRun(
    connection(),
    `UPDATE "Campaign" SET "pendingCount" = "pendingCount" - 1, "sentCount" = 1 WHERE "id" = ?`,
    [id],
  );
  return { id, key: deliveryId(id, a.seq) };
}

/** A campaign to `size` of the tenant's customers, every row delivered (by the vendor's receipts) at `at`. */
async function deliveredCampaign(size: number, at: number) {
  const id = await launched(at);
  const all = (await rows(id)).slice(0, size);
  await deliveryReceipts.applyReceipts(
    connection(),
    (await rows(id)).map((r) => ({ id: deliveryId(id, r.seq), event: "delivered", at })),
  );
  return { id, rows: all, key: (seq: number) => deliveryId(id, seq) };
}

beforeAll(async () => {
  tenant = await createTestUser("Feedback");
  await seedTenant(tenant.id, { customers: 12, orders: 0, seed: 11 });
});

describe("opens and clicks from the pixel and the links", () => {
  it("counts each person once and every event in total, machines apart", async () => {
    const delivered = Date.now() - HOUR;
    const {
      id,
      rows: [a, b, c],
      key,
    } = await deliveredCampaign(3, delivered);
    const open = (seq: number, at: number, machine = false): Receipt => ({
      id: key(seq),
      event: "opened",
      at,
      source: "pixel",
      machine,
    });
    const click = (seq: number, at: number, link: number, machine = false): Receipt => ({
      id: key(seq),
      event: "clicked",
      at,
      link,
      source: "link",
      machine,
    });
    const t = delivered + 60_000;
    expect(
      await deliveryReceipts.applyReceipts(connection(), [
        // A privacy proxy fetches a's pixel at delivery; a opens twice as a person.
        open(a.seq, delivered + 1_000, true),
        open(a.seq, t),
        open(a.seq, t + 5_000),
        // b's link is clicked by a scanner 3 s after delivery (no machine flag: the window tells),
        // then by b a minute later on another link, which also counts as b's open.
        click(b.seq, delivered + 3_000, 0),
        click(b.seq, t, 1),
        // c is opened only by a machine.
        open(c.seq, t, true),
      ]),
    ).toEqual({ applied: 6, ignored: 0 });

    expect(await campaign(id)).toMatchObject({
      openedCount: 2,
      clickedCount: 1,
      opensTotal: 3,
      clicksTotal: 1,
      machineOpenCount: 2,
      machineClickCount: 1,
    });
    const [ra, rb, rc] = await rows(id);
    expect(ra.openedAt).toBe(t);
    expect(rb).toMatchObject({ openedAt: t, clickedAt: t });
    expect(rc.openedAt).toBeNull();
    expect(await events(id, a.seq)).toEqual([
      { kind: "opened", machine: 1, link: null, source: "pixel", details: "" },
      { kind: "opened", machine: 0, link: null, source: "pixel", details: "" },
      { kind: "opened", machine: 0, link: null, source: "pixel", details: "" },
    ]);
    expect(await events(id, b.seq)).toEqual([
      { kind: "clicked", machine: 1, link: 0, source: "link", details: "" },
      { kind: "clicked", machine: 0, link: 1, source: "link", details: "" },
    ]);
    await expectCountersAddUp(id);
    // Each person's last open and click is kept for segments in the same transaction; a machine's is not.
    const activity = await sqlRows<{ seq: number; lastOpenAt: number | null; lastClickAt: number | null }>(
      connection(),
      `SELECT d."seq", a."lastOpenAt", a."lastClickAt" FROM "Delivery" d
       LEFT JOIN "CustomerActivity" a ON a."customerId" = d."customerId" WHERE d."campaignId" = ? ORDER BY d."seq"`,
      [id],
    );
    expect(
      activity
        .slice(0, 3)
        .map((r) => [
          r.lastOpenAt === null ? null : Number(r.lastOpenAt),
          r.lastClickAt === null ? null : Number(r.lastClickAt),
        ]),
    ).toEqual([
      [t, null],
      [t, t],
      [null, null],
    ]);
  });

  it("times the scanner window from the handover when the click is the first word of a sent row", async () => {
    // A vendor-sent row (sent, no delivery receipt yet) whose link is clicked a minute after the
    // handover: a person, although the click is what delivers the row.
    const handedOver = Date.now() - 120_000;
    const { id, key } = await sentCampaign(handedOver);
    await deliveryReceipts.applyReceipts(connection(), [
      { id: key, event: "clicked", at: handedOver + 60_000, link: 0, source: "link" },
    ]);
    expect(await campaign(id)).toMatchObject({
      clickedCount: 1,
      machineClickCount: 0,
      deliveredCount: 1,
      sentCount: 0,
    });
  });

  it("counts a person who opens and then clicks 5 s later (a sent row: no delivery receipt yet)", async () => {
    const handedOver = Date.now() - 120_000;
    const { id, key } = await sentCampaign(handedOver);
    await deliveryReceipts.applyReceipts(connection(), [
      { id: key, event: "opened", at: handedOver + 60_000, source: "pixel" },
    ]);
    await deliveryReceipts.applyReceipts(connection(), [
      { id: key, event: "clicked", at: handedOver + 65_000, link: 0, source: "link" },
    ]);
    expect(await campaign(id)).toMatchObject({ openedCount: 1, clickedCount: 1, machineClickCount: 0 });
  });

  it("turns the scanner rule off with a window of 0", async () => {
    const delivered = Date.now() - HOUR;
    const {
      id,
      rows: [a],
      key,
    } = await deliveredCampaign(1, delivered);
    const policy = { ...DEFAULT_FEEDBACK_POLICY, scannerWindowMs: 0 };
    await deliveryReceipts.applyReceipts(
      connection(),
      [{ id: key(a.seq), event: "clicked", at: delivered + 1_000, link: 0, source: "link" }],
      policy,
    );
    expect(await campaign(id)).toMatchObject({ clickedCount: 1, clicksTotal: 1, machineClickCount: 0, openedCount: 1 });
  });

  it("keeps the vendor's receipts as they were: each recipient's first open once, repeats change nothing", async () => {
    const {
      id,
      rows: [a],
      key,
    } = await deliveredCampaign(1, Date.now() - HOUR);
    const opened: Receipt = { id: key(a.seq), event: "opened", at: Date.now() };
    expect(await deliveryReceipts.applyReceipts(connection(), [opened, opened])).toEqual({ applied: 1, ignored: 1 });
    expect(await campaign(id)).toMatchObject({ openedCount: 1, opensTotal: 1, machineOpenCount: 0 });
    expect(await events(id, a.seq)).toEqual([]);
  });
});

describe("bounces and complaints reported later", () => {
  it("takes back a delivery for a late hard bounce, suppresses the address, and ignores a replay", async () => {
    const {
      id,
      rows: [a],
      key,
    } = await deliveredCampaign(1, Date.now() - HOUR);
    const bounce: Receipt = {
      id: key(a.seq),
      event: "bounced",
      at: Date.now(),
      source: "imap",
      eventId: `<dsn-${id}@mx.example.net>`,
      details: "550 5.1.1 user unknown (bounce mailbox)",
    };
    const before = deliveryStats(await campaign(id));
    expect(await deliveryReceipts.applyReceipts(connection(), [bounce])).toEqual({ applied: 1, ignored: 0 });
    const after = deliveryStats(await campaign(id));
    // Sent never counts down: the message went out and came back.
    expect(after.sent).toBe(before.sent);
    expect(after.delivered).toBe(before.delivered - 1);
    expect(after.bounced).toBe(before.bounced + 1);
    expect((await rows(id))[0]).toMatchObject({
      status: "bounced",
      details: "550 5.1.1 user unknown (bounce mailbox)",
    });
    expect(await suppression(a.email)).toMatchObject({ reason: "hard-bounced", campaignId: id });
    expect(await events(id, a.seq)).toEqual([
      { kind: "bounced", machine: 0, link: null, source: "imap", details: "550 5.1.1 user unknown (bounce mailbox)" },
    ]);
    // A report naming another address than the row's (a forged one) changes nothing.
    const {
      id: other,
      rows: [o],
      key: otherKey,
    } = await deliveredCampaign(1, Date.now() - HOUR);
    expect(
      await deliveryReceipts.applyReceipts(connection(), [
        {
          id: otherKey(o.seq),
          event: "complained",
          at: Date.now(),
          source: "imap",
          eventId: "forged",
          email: "someone@else.example",
        },
      ]),
    ).toEqual({ applied: 0, ignored: 1 });
    expect((await campaign(other)).complainedCount).toBe(0);
    // The same report read again, in another batch and twice in one: nothing changes.
    expect(await deliveryReceipts.applyReceipts(connection(), [bounce, bounce])).toEqual({ applied: 0, ignored: 2 });
    expect(await events(id, a.seq)).toHaveLength(1);
    await expectCountersAddUp(id);
  });

  it("marks a complaint, counts it as sent and reached, and suppresses the address", async () => {
    const {
      id,
      rows: [a, b],
      key,
    } = await deliveredCampaign(2, Date.now() - HOUR);
    const complaint: Receipt = {
      id: key(a.seq),
      event: "complained",
      at: Date.now(),
      source: "ses",
      eventId: "sns-message-1",
      details: "Reported as spam (abuse)",
    };
    expect(
      await deliveryReceipts.applyReceipts(connection(), [complaint, { ...complaint, eventId: "sns-message-2" }]),
    ).toEqual({
      applied: 1,
      ignored: 1,
    });
    const c = await campaign(id);
    expect(c.complainedCount).toBe(1);
    const stats = deliveryStats(c);
    expect(stats).toMatchObject({ complained: 1 });
    expect((await rows(id)).find((r) => r.seq === a.seq)).toMatchObject({ status: "complained" });
    expect((await rows(id)).find((r) => r.seq === b.seq)).toMatchObject({ status: "delivered" });
    expect(await suppression(a.email)).toMatchObject({ reason: "complained", campaignId: id });
    // A later bounce of a complained message changes nothing.
    expect(
      await deliveryReceipts.applyReceipts(connection(), [
        { id: key(a.seq), event: "bounced", at: Date.now(), source: "sendgrid", eventId: "x" },
      ]),
    ).toEqual({ applied: 0, ignored: 1 });
    await expectCountersAddUp(id);
  });

  it("counts soft bounces, and suppresses an address at the policy's limit within its window", async () => {
    const now = Date.now();
    const policy = { ...DEFAULT_FEEDBACK_POLICY, softBounceLimit: 3, softBounceWindowMs: 30 * 24 * HOUR };
    const first = await deliveredCampaign(2, now - 40 * 24 * HOUR);
    const second = await deliveredCampaign(2, now - 10 * 24 * HOUR);
    const third = await deliveredCampaign(2, now - 2 * HOUR);
    const [x, y] = first.rows;
    const soft = (c: typeof first, seq: number, at: number, n: number): Receipt => ({
      id: c.key(seq),
      event: "soft-bounced",
      at,
      source: "sendgrid",
      eventId: `soft-${c.id}-${seq}-${n}`,
      details: "452 4.2.2 Mailbox full",
    });
    // x: one soft bounce 40 days ago (outside the window), then two within it: not suppressed.
    // y: three within the window: suppressed, with the campaign of the last one.
    await deliveryReceipts.applyReceipts(
      connection(),
      [soft(first, x.seq, now - 39 * 24 * HOUR, 1), soft(first, y.seq, now - 20 * 24 * HOUR, 1)],
      policy,
    );
    const [x2, y2] = second.rows;
    await deliveryReceipts.applyReceipts(
      connection(),
      [soft(second, x2.seq, now - 9 * 24 * HOUR, 2), soft(second, y2.seq, now - 9 * 24 * HOUR, 2)],
      policy,
    );
    const [x3, y3] = third.rows;
    await deliveryReceipts.applyReceipts(
      connection(),
      [soft(third, x3.seq, now - HOUR, 3), soft(third, y3.seq, now - HOUR, 3)],
      policy,
    );

    expect(x.email).toBe(x3.email);
    expect(await suppression(x.email)).toBeUndefined();
    expect(await suppression(y.email)).toMatchObject({
      reason: "soft-bounced",
      campaignId: third.id,
      details: "3 soft bounces within 30 days; the last: 452 4.2.2 Mailbox full",
    });
    // A soft bounce leaves the row as it was and counts on its campaign.
    expect(await campaign(third.id)).toMatchObject({ softBounceCount: 2 });
    expect((await rows(third.id)).find((r) => r.seq === x3.seq)).toMatchObject({ status: "delivered" });
    for (const c of [first, second, third]) await expectCountersAddUp(c.id);
  });
});
