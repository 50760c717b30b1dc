// @engines sqlite postgres
// The customer's story on a real database (SQLite, and PostgreSQL in the postgres project):
// campaigns launched to a customer, their rows moved as the send and the receipts move them, opens,
// clicks and complaints as DeliveryEvent rows, the suppression list's events; then the story's
// order, dates, texts and pages, another tenant's customer, a customer with nothing, and a customer
// sent 500 campaigns.
import { beforeAll, describe, expect, it } from "vitest";
import { createTestUser, TEST_ENGINE, useTestConnection, useTestDatabase } from "../../tests/helpers/db";
import { postgresPlan } from "../../tests/helpers/explain";
import { sqlRows, sqlRun, sqlValue } from "../../tests/helpers/sql";

// eslint-disable-next-line react-hooks/rules-of-hooks -- a test helper named use*, not a React hook
useTestDatabase();
// eslint-disable-next-line react-hooks/rules-of-hooks -- a test helper named use*, not a React hook
const connection = useTestConnection();

import { ApiError } from "~/lib/api.server";
import { parseStoryCursor, STORY_PAGE_SIZE, type StoryEntry } from "~/lib/customer-story";
import { newId } from "~/lib/id";
import { deliveryKey } from "~/lib/campaigns";
import { launches } from "~/models/launch/store.server";
import type { Receipt } from "~/models/deliveries/receipts/rows";
import { deliveryReceipts } from "~/models/deliveries/receipts/store.server";
import { suppressions } from "~/models/suppressions/store.server";
import { CustomerApiSchema } from "~/schemas/customer";
import { customerStory } from "~/services/customer-story.server";
import { createCustomer } from "~/services/customers.server";

let tenant: string;
let other: string;

beforeAll(async () => {
  tenant = (await createTestUser("Storyteller")).id;
  other = (await createTestUser("Other tenant")).id;
});

const T0 = Date.parse("2026-11-20T04:30:00.000Z");
const minutes = (n: number) => T0 + n * 60_000;

async function customer(userId: string, first: string) {
  const email = `${first.toLowerCase()}.${newId().slice(-6)}@example.com`;
  return createCustomer(userId, CustomerApiSchema.parse({ firstName: first, lastName: "Rao", email }));
}

/** Launches a campaign to one customer (their delivery row, pending); returns its id and the row's seq. */
async function sendTo(userId: string, customerId: string, name: string, launchedAt: number) {
  const id = newId(new Date(launchedAt));
  await launches.launchCampaign(
    connection(),
    {
      id,
      userId,
      segmentId: null,
      segmentName: "One customer",
      name,
      subject: "Hello {NAME}",
      description: "",
      message: "Hi {NAME}, see https://shop.example/sale and https://shop.example/new",
    },
    // The audience's WHERE as the segment compiler writes it for the engine.
    {
      sql: TEST_ENGINE === "postgres" ? `"userId" = $1 AND "id" = $2` : `"userId" = ? AND "id" = ?`,
      params: [userId, customerId],
    },
    launchedAt,
  );
  const seq = await sqlValue<number>(connection(), `SELECT "seq" FROM "Delivery" WHERE "campaignId" = ?`, [id]);
  if (seq === undefined) throw new Error("The launch wrote no row");
  return { id, seq: Number(seq) };
}

/** The row as the send and the receipts leave it. */
async function setRow(
  seq: number,
  fields: { status: string; updatedAt: number; details?: string; openedAt?: number; clickedAt?: number },
) {
  await sqlRun(
    connection(),
    `UPDATE "Delivery" SET "status" = ?, "updatedAt" = ?, "details" = ?, "openedAt" = ?, "clickedAt" = ? WHERE "seq" = ?`,
    [fields.status, fields.updatedAt, fields.details ?? "", fields.openedAt ?? null, fields.clickedAt ?? null, seq],
  );
}

/** A DeliveryEvent row as applyReceipts writes it. */
async function event(
  userId: string,
  campaignId: string,
  seq: number,
  customerId: string,
  kind: string,
  at: number,
  extra: { machine?: boolean; link?: number; details?: string } = {},
) {
  // A boolean is 0/1 on SQLite and true/false on PostgreSQL.
  const machine = TEST_ENGINE === "postgres" ? extra.machine === true : extra.machine ? 1 : 0;
  await sqlRun(
    connection(),
    `INSERT INTO "DeliveryEvent" ("userId", "campaignId", "seq", "customerId", "email", "kind", "machine", "link", "source", "details", "at")
     VALUES (?, ?, ?, ?, '', ?, ?, ?, 'pixel', ?, ?)`,
    [userId, campaignId, seq, customerId, kind, machine, extra.link ?? null, extra.details ?? "", at],
  );
}

async function everything(userId: string, customerId: string, limit = STORY_PAGE_SIZE): Promise<StoryEntry[]> {
  const all: StoryEntry[] = [];
  let cursor: string | null = null;
  for (let pages = 0; pages < 1000; pages++) {
    const page = await customerStory(userId, customerId, { cursor, limit });
    all.push(...page.entries);
    cursor = page.nextCursor;
    if (!cursor) break;
  }
  return all;
}

describe("the story of one customer", () => {
  it("tells what they received, opened, clicked, and what bounced, newest first, with the campaigns", async () => {
    const asha = await customer(tenant, "Asha");
    const diwali = await sendTo(tenant, asha.id, "Diwali Dhamaka", minutes(0));
    await setRow(diwali.seq, {
      status: "delivered",
      updatedAt: minutes(1),
      openedAt: minutes(30),
      clickedAt: minutes(31),
    });
    // Apple's proxy fetched the pixel first (a machine), then Asha opened and clicked the second
    // link twice and the first once; a scanner's click is a machine's.
    await event(tenant, diwali.id, diwali.seq, asha.id, "opened", minutes(2), { machine: true });
    await event(tenant, diwali.id, diwali.seq, asha.id, "opened", minutes(30));
    await event(tenant, diwali.id, diwali.seq, asha.id, "clicked", minutes(1), { machine: true, link: 0 });
    await event(tenant, diwali.id, diwali.seq, asha.id, "clicked", minutes(31), { link: 1 });
    await event(tenant, diwali.id, diwali.seq, asha.id, "clicked", minutes(40), { link: 1 });
    await event(tenant, diwali.id, diwali.seq, asha.id, "clicked", minutes(35), { link: 0 });

    const monsoon = await sendTo(tenant, asha.id, "Monsoon Sale", minutes(60));
    await setRow(monsoon.seq, { status: "delivered", updatedAt: minutes(61) });
    await event(tenant, monsoon.id, monsoon.seq, asha.id, "opened", minutes(62), { machine: true });
    await event(tenant, monsoon.id, monsoon.seq, asha.id, "opened", minutes(63), { machine: true });

    const winback = await sendTo(tenant, asha.id, "Win-back", minutes(120));
    await setRow(winback.seq, {
      status: "bounced",
      updatedAt: minutes(122),
      details: "550 5.1.1 The e-mail account does not exist",
    });
    await suppressions.addSuppressions(
      tenant,
      [{ email: asha.email, reason: "hard-bounced", campaignId: winback.id, campaignName: "Win-back" }],
      {
        connection: connection(),
        now: minutes(122),
      },
    );
    await suppressions.removeSuppression(tenant, asha.email, { connection: connection(), now: minutes(180) });

    const { entries, nextCursor } = await customerStory(tenant, asha.id);
    expect(nextCursor).toBeNull();
    expect(entries.map((e) => [e.at, e.kind, e.text, e.details])).toEqual([
      [new Date(minutes(180)).toISOString(), "resubscribed", "Resubscribed", ""],
      // The list's event sorts above the bounce of the same millisecond that caused it.
      [
        new Date(minutes(122)).toISOString(),
        "suppressed",
        "Put on the suppression list after the hard bounce of Win-back",
        "",
      ],
      [
        new Date(minutes(122)).toISOString(),
        "bounced",
        "Win-back bounced",
        "550 5.1.1 The e-mail account does not exist",
      ],
      [
        new Date(minutes(62)).toISOString(),
        "machine-opened",
        "Monsoon Sale was loaded automatically, not by the customer",
        "",
      ],
      [new Date(minutes(61)).toISOString(), "received", "Received Monsoon Sale", ""],
      [new Date(minutes(35)).toISOString(), "clicked", "Clicked a link in Diwali Dhamaka", ""],
      [new Date(minutes(31)).toISOString(), "clicked", "Clicked a link in Diwali Dhamaka", ""],
      [new Date(minutes(30)).toISOString(), "opened", "Opened Diwali Dhamaka", ""],
      [new Date(minutes(1)).toISOString(), "received", "Received Diwali Dhamaka", ""],
    ]);
    // Each click names its link (the first click of each), and every entry links its campaign.
    expect(entries.filter((e) => e.kind === "clicked").map((e) => e.link)).toEqual([
      { number: 1, url: "https://shop.example/sale" },
      { number: 2, url: "https://shop.example/new" },
    ]);
    expect(entries.find((e) => e.kind === "bounced")?.campaignId).toBe(winback.id);
    expect(entries.find((e) => e.kind === "suppressed")).toMatchObject({
      campaignId: winback.id,
      reason: "hard-bounced",
    });
  });

  it("says plainly what was not sent, is waiting, was delayed, and what a complaint did", async () => {
    const ravi = await customer(tenant, "Ravi");
    const failed = await sendTo(tenant, ravi.id, "Holi Colours", minutes(0));
    await setRow(failed.seq, { status: "failed", updatedAt: minutes(1), details: "554 5.7.1 Relay access denied" });
    const suppressed = await sendTo(tenant, ravi.id, "Festive Bonanza", minutes(10));
    await setRow(suppressed.seq, {
      status: "suppressed",
      updatedAt: minutes(11),
      details: "Not sent: the address was unsubscribed on 20 Nov 2026",
    });
    const cancelled = await sendTo(tenant, ravi.id, "Loyalty Rewards", minutes(20));
    await setRow(cancelled.seq, { status: "cancelled", updatedAt: minutes(21) });
    const deferred = await sendTo(tenant, ravi.id, "Summer Clearance", minutes(30));
    await setRow(deferred.seq, { status: "pending", updatedAt: minutes(31), details: "451 4.7.1 Try again later" });
    // Never tried yet: dated by the launch.
    await sendTo(tenant, ravi.id, "Weekend Flash Sale", minutes(40));
    const spam = await sendTo(tenant, ravi.id, "New Year Offer", minutes(50));
    await setRow(spam.seq, { status: "complained", updatedAt: minutes(90), openedAt: minutes(55) });
    await event(tenant, spam.id, spam.seq, ravi.id, "complained", minutes(90), { details: "abuse" });

    const { entries } = await customerStory(tenant, ravi.id);
    expect(entries.map((e) => [e.at, e.text, e.details])).toEqual([
      [new Date(minutes(90)).toISOString(), "Marked New Year Offer as spam", "abuse"],
      // A complained message was received: dated by the first sign of it, its open.
      [new Date(minutes(55)).toISOString(), "Opened New Year Offer", ""],
      [new Date(minutes(55)).toISOString(), "Received New Year Offer", ""],
      [new Date(minutes(40)).toISOString(), "Weekend Flash Sale is waiting to be sent", ""],
      [
        new Date(minutes(31)).toISOString(),
        "Summer Clearance is delayed and will be tried again",
        "451 4.7.1 Try again later",
      ],
      [
        new Date(minutes(21)).toISOString(),
        "Loyalty Rewards was not sent",
        "The campaign was cancelled before it reached this customer",
      ],
      [
        new Date(minutes(11)).toISOString(),
        "Festive Bonanza was not sent",
        "Not sent: the address was unsubscribed on 20 Nov 2026",
      ],
      [new Date(minutes(1)).toISOString(), "Holi Colours could not be sent", "554 5.7.1 Relay access denied"],
    ]);
  });

  it("reads what the receipts wrote: the pixel, the links, a scanner, a complaint", async () => {
    const kiran = await customer(tenant, "Kiran");
    const sale = await sendTo(tenant, kiran.id, "Weekend Flash Sale", minutes(0));
    // The vendor accepted it two minutes after the launch (a second before the proxy's fetch).
    await setRow(sale.seq, { status: "sent", updatedAt: minutes(2) - 1_000 });
    const id = deliveryKey(sale.id, sale.seq, 0);
    const receipts: Receipt[] = [
      // Apple's privacy proxy fetches the pixel as the message arrives: a machine's open.
      { id, event: "opened", at: minutes(2), machine: true, source: "pixel" },
      // A link scanner clicks within seconds of the handover.
      { id, event: "clicked", at: minutes(2) + 3_000, link: 0, source: "link" },
      { id, event: "opened", at: minutes(30), source: "pixel" },
      { id, event: "clicked", at: minutes(31), link: 1, source: "link" },
      { id, event: "clicked", at: minutes(32), link: 1, source: "link" },
      { id, event: "complained", at: minutes(90), source: "imap", eventId: "<arf-1@isp.example>" },
    ];
    await deliveryReceipts.applyReceipts(connection(), receipts);
    const { entries } = await customerStory(tenant, kiran.id);
    expect(entries.map((e) => [e.kind, e.text, e.link?.url ?? ""])).toEqual([
      ["suppressed", "Put on the suppression list after the spam complaint about Weekend Flash Sale", ""],
      ["complained", "Marked Weekend Flash Sale as spam", ""],
      ["clicked", "Clicked a link in Weekend Flash Sale", "https://shop.example/new"],
      ["opened", "Opened Weekend Flash Sale", ""],
      // Received: dated by the first sign that it arrived, the proxy's fetch.
      ["received", "Received Weekend Flash Sale", ""],
    ]);
    expect(entries.at(-1)?.at).toBe(new Date(minutes(2)).toISOString());
    expect(entries.find((e) => e.kind === "opened")?.at).toBe(new Date(minutes(30)).toISOString());
  });

  it("keeps a deleted campaign's name on the list's events, without a link", async () => {
    const meera = await customer(tenant, "Meera");
    const gone = await sendTo(tenant, meera.id, "Independence Day Deals", minutes(0));
    await suppressions.addSuppressions(
      tenant,
      [{ email: meera.email, reason: "unsubscribed", campaignId: gone.id, campaignName: "Independence Day Deals" }],
      { connection: connection(), now: minutes(5) },
    );
    await sqlRun(connection(), `DELETE FROM "Campaign" WHERE "id" = ?`, [gone.id]);
    const { entries } = await customerStory(tenant, meera.id);
    expect(entries).toEqual([
      expect.objectContaining({
        kind: "unsubscribed",
        text: "Unsubscribed from Independence Day Deals",
        campaignId: null,
        campaignName: "Independence Day Deals",
      }),
    ]);
  });

  it("is empty for a customer who was never sent anything", async () => {
    const nobody = await customer(tenant, "Nobody");
    expect(await customerStory(tenant, nobody.id)).toEqual({ entries: [], nextCursor: null });
  });

  it("is not found for another tenant's customer, an unknown id and a malformed one", async () => {
    const theirs = await customer(other, "Theirs");
    const campaign = await sendTo(other, theirs.id, "Their campaign", minutes(0));
    await setRow(campaign.seq, { status: "delivered", updatedAt: minutes(1) });
    for (const id of [theirs.id, newId(), "not-an-id"]) {
      const error = await customerStory(tenant, id).then(
        () => null,
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(ApiError);
      expect((error as ApiError).status).toBe(404);
    }
    // Their own story has it.
    expect((await customerStory(other, theirs.id)).entries.map((e) => e.text)).toEqual(["Received Their campaign"]);
  });

  it("never shows another tenant's events of the same address", async () => {
    const mine = await customer(tenant, "Shared");
    const theirs = await createCustomer(
      other,
      CustomerApiSchema.parse({ firstName: "Shared", lastName: "Rao", email: mine.email }),
    );
    await suppressions.addSuppressions(other, [{ email: mine.email, reason: "manual" }], {
      connection: connection(),
      now: minutes(1),
    });
    expect((await customerStory(tenant, mine.id)).entries).toEqual([]);
    expect((await customerStory(other, theirs.id)).entries.map((e) => e.text)).toEqual(["Suppressed by hand"]);
  });
});

describe("pages", () => {
  let priya: { id: string };
  beforeAll(async () => {
    priya = await customer(tenant, "Priya");
    // 40 campaigns, each received and every other one opened: 60 entries, several in the same
    // millisecond (the received row and its open).
    for (let i = 0; i < 40; i++) {
      const c = await sendTo(tenant, priya.id, `Campaign ${i + 1}`, minutes(i * 10));
      await setRow(c.seq, {
        status: "delivered",
        updatedAt: minutes(i * 10 + 1),
        openedAt: i % 2 ? minutes(i * 10 + 1) : undefined,
      });
    }
  });

  it("walks the whole story, newest first, each entry once, whatever the page size", async () => {
    const whole = (await customerStory(tenant, priya.id, { limit: 1000 })).entries;
    expect(whole).toHaveLength(60);
    const times = whole.map((e) => Date.parse(e.at));
    expect([...times].sort((a, b) => b - a)).toEqual(times);
    // The open above the receipt of the same millisecond.
    expect(whole.slice(0, 2).map((e) => e.text)).toEqual(["Opened Campaign 40", "Received Campaign 40"]);
    for (const limit of [1, 7, STORY_PAGE_SIZE, 59, 60])
      expect(await everything(tenant, priya.id, limit)).toEqual(whole);
  });

  it("gives a cursor only when there is more, and reads a page after it", async () => {
    const first = await customerStory(tenant, priya.id);
    expect(first.entries).toHaveLength(STORY_PAGE_SIZE);
    expect(parseStoryCursor(first.nextCursor)).not.toBeNull();
    const second = await customerStory(tenant, priya.id, { cursor: first.nextCursor });
    expect(Date.parse(second.entries[0].at)).toBeLessThanOrEqual(Date.parse(first.entries.at(-1)!.at));
    const last = await customerStory(tenant, priya.id, { cursor: second.nextCursor });
    expect(last.entries).toHaveLength(60 - 2 * STORY_PAGE_SIZE);
    expect(last.nextCursor).toBeNull();
    // A cursor that is not one the story gave reads from the newest.
    expect(await customerStory(tenant, priya.id, { cursor: "yesterday" })).toEqual(first);
  });

  it("stays fast for a customer sent 500 campaigns", async () => {
    const busy = await customer(tenant, "Busy");
    const launched: { id: string; seq: number }[] = [];
    for (let i = 0; i < 500; i++) launched.push(await sendTo(tenant, busy.id, `Weekly ${i + 1}`, minutes(i * 60)));
    for (const [i, c] of launched.entries()) {
      await setRow(c.seq, {
        status: "delivered",
        updatedAt: minutes(i * 60 + 1),
        openedAt: minutes(i * 60 + 5),
        clickedAt: minutes(i * 60 + 6),
      });
      await event(tenant, c.id, c.seq, busy.id, "opened", minutes(i * 60 + 5));
      await event(tenant, c.id, c.seq, busy.id, "clicked", minutes(i * 60 + 6), { link: 0 });
    }
    let started = performance.now();
    let page = await customerStory(tenant, busy.id);
    const firstMs = performance.now() - started;
    started = performance.now();
    for (let i = 0; i < 10; i++) page = await customerStory(tenant, busy.id, { cursor: page.nextCursor });
    const tenMs = performance.now() - started;
    expect(page.entries[0].text).toMatch(/^(Received|Opened|Clicked a link in) Weekly \d+$/);
    expect((await everything(tenant, busy.id, 1000)).length).toBe(1500);
    // Figures for the report (not asserted: speed is the bench's).
    console.info(
      `customer story, 500 campaigns, 1,500 entries: first page ${firstMs.toFixed(1)} ms, then ${(tenMs / 10).toFixed(1)} ms a page`,
    );
    const plan =
      TEST_ENGINE === "postgres"
        ? (
            await postgresPlan(connection(), `SELECT "seq" FROM "Delivery" WHERE "customerId" = $1 AND "userId" = $2`, [
              busy.id,
              tenant,
            ])
          ).join("; ")
        : (
            await sqlRows<{ detail: string }>(
              connection(),
              `EXPLAIN QUERY PLAN SELECT "seq" FROM "Delivery" WHERE "customerId" = ? AND "userId" = ?`,
              [busy.id, tenant],
            )
          )
            .map((r) => r.detail)
            .join("; ");
    expect(plan).toContain("Delivery_customerId_idx");
  });
});
