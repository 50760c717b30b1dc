// Segment conditions on what customers did (./activity.ts), on both engines (a test under
// app/models runs on PostgreSQL too): every key, every operator and several values, alone and in
// AND/OR groups with the other kinds, must give exactly the customers a plain evaluation of the
// rows gives. The rows are made the way the product makes them: orders through the orders service
// (which keeps the order figures), a campaign launched and its rows delivered, opened and clicked,
// consent recorded through /api's service, addresses suppressed.
import { beforeAll, describe, expect, it } from "vitest";
import { createTestUser, useTestConnection, useTestDatabase } from "../../../../tests/helpers/db";

// eslint-disable-next-line react-hooks/rules-of-hooks -- a test helper named use*, not a React hook
useTestDatabase();
// eslint-disable-next-line react-hooks/rules-of-hooks -- a test helper named use*, not a React hook
const connection = useTestConnection();

import { db } from "~/db/prisma.server";
import { type SegmentNode } from "~/lib/segments";
import { parseConditions } from "~/lib/segment-parse";
import { ACTIVITY_KEYS, type ActivityKey, type ActivityOperator, figureHolds } from "~/lib/segment-activity";
import { segmentAudience } from "~/models/segments/audience/store.server";
import { suppressions } from "~/models/suppressions/store.server";
import { CustomerApiSchema } from "~/schemas/customer";
import { OrderSchema } from "~/schemas/order";
import { createCustomer } from "~/services/customers.server";
import { createOrder } from "~/services/orders.server";
import { launchToEveryone } from "../../../../tests/helpers/campaign-send";
import { sqlRows, sqlRun } from "../../../../tests/helpers/sql";

const DAY = 86_400_000;
const IST = 330 * 60_000;
const NOW = Date.now();
/** Midnight IST that starts the day `k` days before today's (IST). */
const istMidnight = (k: number) => Math.floor((NOW + IST) / DAY) * DAY - IST - k * DAY;
const istDay = (ms: number) => new Date(ms + IST).toISOString().slice(0, 10);

let userId: string;
let otherId: string;

type Facts = {
  id: string;
  email: string;
  orders: { at: number; total: number; cancelled: boolean; items: string[] }[];
  lastOpen: number | null;
  lastClick: number | null;
  delivered: number[];
  consent: "subscribed" | "unsubscribed" | "never_asked";
  suppressed: boolean;
};
const facts: Facts[] = [];

/** A small deterministic generator, so every run writes the same rows. */
function rng(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = Math.imul(a ^ (a >>> 15), a | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const PRODUCTS = ["Silk Saree", "Kurta", "Bangles", "Juttis"];

beforeAll(async () => {
  userId = (await createTestUser("Activity segments")).id;
  otherId = (await createTestUser("Activity other")).id;
  const next = rng(7);
  const pick = <T>(list: readonly T[]) => list[Math.floor(next() * list.length)];
  for (let i = 0; i < 36; i++) {
    const email = `doer${i}@example.com`;
    const consent = pick(["subscribed", "unsubscribed", "never_asked", "never_asked"] as const);
    const c = await createCustomer(
      userId,
      CustomerApiSchema.parse({
        firstName: `Doer${i}`,
        lastName: "K",
        email,
        ...(consent === "never_asked" ? {} : { consent: { status: consent, at: istDay(istMidnight(200)) } }),
      }),
    );
    const f: Facts = {
      id: c.id,
      email,
      orders: [],
      lastOpen: null,
      lastClick: null,
      delivered: [],
      consent,
      suppressed: consent === "unsubscribed",
    };
    const orders = Math.floor(next() * 4);
    for (let o = 0; o < orders; o++) {
      const items = [pick(PRODUCTS), ...(next() < 0.4 ? [pick(PRODUCTS)] : [])];
      const cancelled = next() < 0.2;
      const order = await createOrder(
        userId,
        OrderSchema.parse({
          customerId: c.id,
          items: items.map((name, k) => ({
            name: k === 0 && next() < 0.3 ? name.toUpperCase() : name,
            quantity: 1,
            price: 100 + o * 250,
          })),
          tax: 0,
          ...(cancelled ? { status: "Cancelled" } : {}),
        }),
      );
      // Spread over the last 120 days (the service stamps now; the figures are recomputed after).
      const at = istMidnight(Math.floor(next() * 120)) + Math.floor(next() * DAY);
      await db().order.update({ where: { id: order.id }, data: { createdAt: new Date(at) } });
      f.orders.push({ at, total: (100 + o * 250) * items.length * 100, cancelled, items });
    }
    facts.push(f);
  }
  // The figures after the dates moved: each customer's recomputed as an order write would.
  const { customerActivity } = await import("~/models/customer-activity/store.server");
  for (const f of facts) {
    if (f.orders.length > 0) await db().$transaction((tx) => customerActivity.refreshOrderFigures(userId, f.id, tx));
  }
  // A campaign reached everyone; some got it, some of those opened and clicked.
  const campaignId = await launchToEveryone(connection(), userId, {}, istMidnight(100));
  const rows = await sqlRows<{ seq: number; customerId: string }>(
    connection(),
    `SELECT "seq", "customerId" FROM "Delivery" WHERE "campaignId" = ?`,
    [campaignId],
  );
  for (const row of rows) {
    const f = facts.find((x) => x.id === row.customerId);
    if (!f || next() < 0.3) continue;
    const at = istMidnight(Math.floor(next() * 90)) + 3_600_000;
    const opened = next() < 0.6 ? at + 60_000 : null;
    const clicked = opened !== null && next() < 0.5 ? opened + 60_000 : null;
    await sqlRun(
      connection(),
      `UPDATE "Delivery" SET "status" = 'delivered', "updatedAt" = ?, "openedAt" = ?, "clickedAt" = ? WHERE "seq" = ?`,
      [at, opened, clicked, row.seq],
    );
    f.delivered.push(at);
    if (opened !== null) {
      f.lastOpen = opened;
      f.lastClick = clicked;
      await db().customerActivity.upsert({
        where: { customerId: f.id },
        create: {
          customerId: f.id,
          userId,
          lastOpenAt: BigInt(opened),
          lastClickAt: clicked === null ? null : BigInt(clicked),
        },
        update: { lastOpenAt: BigInt(opened), lastClickAt: clicked === null ? null : BigInt(clicked) },
      });
    }
  }
  // A bounce suppresses without touching consent; a complaint withdraws it.
  const bounced = facts.find((f) => f.consent === "subscribed");
  const complained = facts.filter((f) => f.consent === "subscribed")[1];
  if (bounced) {
    await suppressions.addSuppressions(userId, [{ email: bounced.email, reason: "hard-bounced" }]);
    bounced.suppressed = true;
  }
  if (complained) {
    await suppressions.addSuppressions(userId, [{ email: complained.email, reason: "complained" }]);
    complained.suppressed = true;
    complained.consent = "unsubscribed";
  }
  // Another tenant's customer who did everything: never in an audience of this tenant's.
  const theirs = await createCustomer(
    otherId,
    CustomerApiSchema.parse({ firstName: "T", lastName: "O", email: "doer0@example.com" }),
  );
  await createOrder(
    otherId,
    OrderSchema.parse({ customerId: theirs.id, items: [{ name: "Kurta", quantity: 1, price: 5 }], tax: 0 }),
  );
});

/** A date condition's test on an instant, as lastActive's dates mean: a calendar day in IST. */
function dateHolds(at: number | null, op: string, day: string): boolean {
  if (at === null) return false;
  const start = Date.parse(`${day}T00:00:00+05:30`);
  if (op === "$gt") return at >= start + DAY;
  if (op === "$gte") return at >= start;
  if (op === "$lt") return at < start;
  return at < start + DAY;
}

function plain(f: Facts, key: ActivityKey, op: ActivityOperator, value: unknown, withinDays?: number): boolean {
  const counting = f.orders.filter((o) => !o.cancelled);
  const since = withinDays === undefined ? -Infinity : istMidnight(withinDays);
  const day = (v: unknown) =>
    typeof v === "object" && v !== null && "$daysAgo" in v
      ? istDay(istMidnight((v as { $daysAgo: number }).$daysAgo))
      : String(v);
  switch (key) {
    case "orderCount":
      return figureHolds(counting.filter((o) => o.at >= since).length, op, Number(value));
    case "spendWithinDays":
      return figureHolds(
        counting.filter((o) => o.at >= since).reduce((n, o) => n + o.total, 0),
        op,
        Number(value) * 100,
      );
    case "averageOrderValue": {
      const spend = counting.reduce((n, o) => n + o.total, 0);
      return figureHolds(counting.length ? Math.round(spend / counting.length) : 0, op, Number(value) * 100);
    }
    case "firstOrderDate":
      return dateHolds(counting.length ? Math.min(...counting.map((o) => o.at)) : null, op, day(value));
    case "lastOrderDate":
      return dateHolds(counting.length ? Math.max(...counting.map((o) => o.at)) : null, op, day(value));
    case "lastOpenDate":
      return dateHolds(f.lastOpen, op, day(value));
    case "lastClickDate":
      return dateHolds(f.lastClick, op, day(value));
    case "messagesReceived":
      return figureHolds(f.delivered.filter((at) => at >= since).length, op, Number(value));
    case "boughtProduct": {
      const bought = counting.some((o) => o.items.some((i) => i.toLowerCase() === String(value).toLowerCase()));
      return op === "$eq" ? bought : !bought;
    }
    case "consent":
      return op === "$eq" ? f.consent === value : f.consent !== value;
    case "suppressed":
      return f.suppressed === value;
  }
}

/** Every key with each of its operators and a few values (and windows where it takes one). */
function cases(): { key: ActivityKey; op: ActivityOperator; value: unknown; withinDays?: number }[] {
  const list: { key: ActivityKey; op: ActivityOperator; value: unknown; withinDays?: number }[] = [];
  const numbers: Record<string, number[]> = {
    orderCount: [0, 1, 2],
    messagesReceived: [0, 1],
    averageOrderValue: [0, 100, 350, 700],
    spendWithinDays: [0, 100, 600],
  };
  for (const key of Object.keys(ACTIVITY_KEYS) as ActivityKey[]) {
    const spec = ACTIVITY_KEYS[key];
    const windows = spec.window === "none" ? [undefined] : spec.window === "optional" ? [undefined, 30, 90] : [30, 90];
    const ops: ActivityOperator[] =
      spec.kind === "date"
        ? ["$gt", "$gte", "$lt", "$lte"]
        : spec.kind === "boolean"
          ? ["$eq"]
          : spec.kind === "count" || spec.kind === "rupees"
            ? ["$gt", "$gte", "$lt", "$lte", "$eq", "$ne"]
            : ["$eq", "$ne"];
    const values: unknown[] =
      spec.kind === "date"
        ? [{ $daysAgo: 30 }, { $daysAgo: 90 }, istDay(istMidnight(45))]
        : spec.kind === "product"
          ? ["silk saree", "Bangles", "Nothing sold"]
          : spec.kind === "consent"
            ? ["subscribed", "unsubscribed", "never_asked"]
            : spec.kind === "boolean"
              ? [true, false]
              : numbers[key];
    for (const withinDays of windows)
      for (const op of ops) for (const value of values) list.push({ key, op, value, withinDays });
  }
  return list;
}

async function audienceIds(tree: SegmentNode): Promise<string[]> {
  const rows = await segmentAudience.sqlAudiencePage(userId, tree, 1000);
  return rows.map((r) => r.id).sort();
}

describe("activity conditions", () => {
  it("each key, operator and value gives exactly the customers a plain evaluation gives", async () => {
    const wrong: string[] = [];
    for (const c of cases()) {
      const mapping = { [c.key]: { [c.op]: c.value, ...(c.withinDays ? { withinDays: c.withinDays } : {}) } };
      const parsed = parseConditions(mapping);
      if (!parsed.ok) throw new Error(`${JSON.stringify(mapping)}: ${parsed.message}`);
      const expected = facts
        .filter((f) => plain(f, c.key, c.op, c.value, c.withinDays))
        .map((f) => f.id)
        .sort();
      const got = await audienceIds(parsed.tree);
      const count = await segmentAudience.sqlAudienceCount(userId, parsed.tree);
      if (JSON.stringify(got) !== JSON.stringify(expected) || count !== expected.length) {
        wrong.push(`${JSON.stringify(mapping)}: expected ${expected.length}, got ${got.length} (count ${count})`);
      }
    }
    expect(wrong).toEqual([]);
  });

  it("composes in AND/OR groups, and each customer's own segments agree", async () => {
    const mapping = {
      $or: [
        { boughtProduct: { $eq: "Kurta" }, lastOpenDate: { $gte: { $daysAgo: 60 } } },
        { orderCount: { $lt: 1 }, consent: { $ne: "unsubscribed" } },
      ],
    };
    const parsed = parseConditions(mapping);
    if (!parsed.ok) throw new Error(parsed.message);
    const expected = facts
      .filter(
        (f) =>
          (plain(f, "boughtProduct", "$eq", "Kurta") && plain(f, "lastOpenDate", "$gte", { $daysAgo: 60 })) ||
          (plain(f, "orderCount", "$lt", 1) && plain(f, "consent", "$ne", "unsubscribed")),
      )
      .map((f) => f.id)
      .sort();
    expect(expected.length).toBeGreaterThan(0);
    expect(await audienceIds(parsed.tree)).toEqual(expected);
    for (const f of facts.slice(0, 8)) {
      const [match] = await segmentAudience.sqlMatchesForCustomer(userId, f.id, [parsed.tree]);
      expect(match, f.email).toBe(expected.includes(f.id));
    }
  });

  it("refuses a window where none is taken, a missing one, and values of the wrong kind", () => {
    for (const [mapping, message] of [
      [
        { lastOpenDate: { $gte: { $daysAgo: 3 }, withinDays: 3 } },
        "conditions.lastOpenDate: lastOpenDate takes no withinDays",
      ],
      [{ spendWithinDays: { $gte: 100 } }, "needs withinDays"],
      [{ orderCount: { $gte: 1.5 } }, "whole number"],
      [{ consent: { $eq: "maybe" } }, "consent is one of subscribed, unsubscribed, never_asked"],
      [{ suppressed: { $eq: "yes" } }, "true or false"],
      [{ boughtProduct: { $gt: "Kurta" } }, 'unknown operator "$gt" for boughtProduct'],
    ] as const) {
      const parsed = parseConditions(mapping);
      expect(parsed.ok, JSON.stringify(mapping)).toBe(false);
      if (!parsed.ok) expect(parsed.message).toContain(message);
    }
  });
});
