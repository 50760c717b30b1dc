// The dashboard's statistics on a real migrated SQLite database: the snapshots (a month boundary,
// a tenant created today, another tenant untouched, the job's worker thread as Bree runs it) and
// every figure of the summary checked against a direct SQL count over the same rows.
import path from "node:path";
import { Worker } from "node:worker_threads";
import { beforeAll, describe, expect, it } from "vitest";
import { createTestUser, useTestDatabase } from "../../../tests/helpers/db";

// eslint-disable-next-line react-hooks/rules-of-hooks -- a test helper named use*, not a React hook
const { file } = useTestDatabase();

import { openSqlite, type Sqlite } from "~/db/sqlite.server";
import { dayOf, dayStartMs, percentChange, weekStarts } from "~/lib/dashboard";
import { newId } from "~/lib/id";
import { dashboardSummary, historicalStats } from "~/services/dashboard/stats.server";
import { snapshotTenant, takeSnapshots } from "~/services/dashboard/snapshots.server";
import { ADD_TO_TALLY_SQL } from "~/models/customers.server";
import { countCustomers } from "~/services/customers.server";

let sqlite: Sqlite;
beforeAll(() => {
  sqlite = openSqlite(file);
  return () => sqlite.close();
});

const at = (iso: string) => new Date(iso);
let serial = 0;

function addCustomer(userId: string, when: Date, name = "Asha Rao") {
  serial += 1;
  const id = newId(when);
  const [first, last] = name.split(" ");
  sqlite
    .prepare(
      `INSERT INTO "Customer" ("id", "userId", "firstName", "lastName", "email", "createdAt", "updatedAt") VALUES (?, ?, ?, ?, ?, ?, ?)`,
    )
    .run(id, userId, first, last ?? "", `c${serial}@example.com`, when.getTime(), when.getTime());
  sqlite.prepare(ADD_TO_TALLY_SQL).run(userId, 1);
  return id;
}

function deleteCustomer(userId: string, id: string) {
  sqlite.prepare(`DELETE FROM "Customer" WHERE "id" = ? AND "userId" = ?`).run(id, userId);
}

function addSegment(userId: string, when: Date, name = "Loyal") {
  const id = newId(when);
  sqlite
    .prepare(
      `INSERT INTO "Segment" ("id", "userId", "name", "description", "conditions", "createdAt", "updatedAt") VALUES (?, ?, ?, ?, '{}', ?, ?)`,
    )
    .run(id, userId, name, `${name} customers`, when.getTime(), when.getTime());
  return id;
}

type Counters = {
  delivered?: number;
  failed?: number;
  bounced?: number;
  opened?: number;
  clicked?: number;
  sent?: number;
};

/** A campaign with its counters and delivery rows that agree with them (opened/clicked among delivered). */
function addCampaign(userId: string, created: Date, launched: Date | null, name: string, c: Counters = {}) {
  const id = newId(created);
  const n = { sent: 0, delivered: 0, failed: 0, bounced: 0, opened: 0, clicked: 0, ...c };
  const audience = n.sent + n.delivered + n.failed + n.bounced;
  sqlite
    .prepare(
      `INSERT INTO "Campaign" ("id", "userId", "name", "message", "status", "audienceSize", "sentCount", "deliveredCount",
        "failedCount", "bouncedCount", "openedCount", "clickedCount", "launchedAt", "createdAt", "updatedAt")
       VALUES (?, ?, ?, 'Hello {NAME}', ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    )
    .run(
      id,
      userId,
      name,
      launched ? "Completed" : "Draft",
      audience,
      n.sent,
      n.delivered,
      n.failed,
      n.bounced,
      n.opened,
      n.clicked,
      launched?.getTime() ?? null,
      created.getTime(),
      created.getTime(),
    );
  const row = sqlite.prepare(
    `INSERT INTO "Delivery" ("campaignId", "userId", "customerId", "status", "openedAt", "clickedAt") VALUES (?, ?, ?, ?, ?, ?)`,
  );
  let k = 0;
  const put = (status: string, count: number, opened = 0, clicked = 0) => {
    for (let i = 0; i < count; i++) {
      k += 1;
      row.run(id, userId, `r${k}`, status, i < opened ? 1 : null, i < clicked ? 1 : null);
    }
  };
  put("delivered", n.delivered, n.opened, n.clicked);
  put("failed", n.failed);
  put("bounced", n.bounced);
  put("sent", n.sent);
  return id;
}

const count = (sql: string, ...params: unknown[]) =>
  Number(
    sqlite
      .prepare(sql)
      .pluck()
      .get(...params),
  );
const snapshots = (userId: string) =>
  sqlite
    .prepare(
      `SELECT "day", "takenAt", "customers", "segments", "campaigns", "customersAdded", "campaignsSent"
       FROM "DashboardSnapshot" WHERE "userId" = ? ORDER BY "day"`,
    )
    .all(userId) as {
    day: string;
    takenAt: number;
    customers: number;
    segments: number;
    campaigns: number;
    customersAdded: number;
    campaignsSent: number;
  }[];

describe("snapshots across a month boundary", () => {
  it("last month's counts are the counts at its end, whether the job ran before or after midnight", async () => {
    const user = await createTestUser("Boundary");
    const other = await createTestUser("Bystander");
    addCustomer(other.id, at("2026-10-10T06:00:00Z"));
    addSegment(other.id, at("2026-10-10T06:00:00Z"));

    // October (IST): 3 customers, 1 segment, 1 campaign launched on the 20th.
    addCustomer(user.id, at("2026-10-02T05:00:00Z"));
    addCustomer(user.id, at("2026-10-15T05:00:00Z"));
    const gone = addCustomer(user.id, at("2026-10-20T05:00:00Z"));
    addSegment(user.id, at("2026-10-05T05:00:00Z"));
    addCampaign(user.id, at("2026-10-20T04:00:00Z"), at("2026-10-20T05:00:00Z"), "Diwali", { delivered: 4, failed: 1 });

    // The job runs on 31 Oct at 20:00 IST (14:30 UTC).
    await takeSnapshots(sqlite, at("2026-10-31T14:30:00Z"));
    const rows = snapshots(user.id);
    // Filled in from the first day with anything (2 Oct IST) to the 31st; days before get no row.
    expect(rows[0]?.day).toBe("2026-10-02");
    expect(rows.at(-1)).toMatchObject({ day: "2026-10-31", customers: 3, segments: 1, campaigns: 1 });
    expect(rows.find((r) => r.day === "2026-10-20")).toMatchObject({ customersAdded: 1, campaignsSent: 1 });
    expect(rows.reduce((s, r) => s + r.customersAdded, 0)).toBe(3);

    // After the snapshot, before midnight IST: 31 Oct 23:00 IST (17:30 UTC); then 1 Nov 00:10 IST.
    addCustomer(user.id, at("2026-10-31T17:30:00Z"));
    addSegment(user.id, at("2026-10-31T17:31:00Z"));
    addCustomer(user.id, at("2026-10-31T18:40:00Z"));
    addCampaign(user.id, at("2026-10-31T18:45:00Z"), null, "Draft for November");

    const now = at("2026-10-31T19:30:00Z"); // 1 Nov, 01:00 IST
    const expected = (userId: string) => ({
      previousCustomers: count(
        `SELECT count(*) FROM "Customer" WHERE "userId" = ? AND "createdAt" < ?`,
        userId,
        dayStartMs("2026-11-01"),
      ),
      previousSegments: count(
        `SELECT count(*) FROM "Segment" WHERE "userId" = ? AND "createdAt" < ?`,
        userId,
        dayStartMs("2026-11-01"),
      ),
      previousCampaigns: count(
        `SELECT count(*) FROM "Campaign" WHERE "userId" = ? AND "createdAt" < ?`,
        userId,
        dayStartMs("2026-11-01"),
      ),
    });
    // Before the job has run again: the 31st's snapshot plus what came after it, up to midnight.
    const before = await historicalStats(user.id, now);
    expect(before).toMatchObject(expected(user.id));
    expect(before).toMatchObject({ previousCustomers: 4, previousSegments: 2, previousCampaigns: 1 });

    // The job after midnight completes the 31st and starts 1 Nov with the exact counts.
    await takeSnapshots(sqlite, now);
    const after = snapshots(user.id);
    expect(after.find((r) => r.day === "2026-10-31")).toMatchObject({
      takenAt: dayStartMs("2026-11-01"),
      customers: 4,
      segments: 2,
      campaigns: 1,
      customersAdded: 1,
    });
    expect(after.at(-1)).toMatchObject({
      day: "2026-11-01",
      customers: 5,
      segments: 2,
      campaigns: 2,
      customersAdded: 1,
    });
    expect(await historicalStats(user.id, now)).toMatchObject(expected(user.id));

    // A deletion this month: today's count is exact; last month's stays what it was.
    deleteCustomer(user.id, gone);
    await takeSnapshots(sqlite, at("2026-10-31T20:30:00Z"));
    expect(snapshots(user.id).at(-1)).toMatchObject({ day: "2026-11-01", customers: 4 });
    const summary = await dashboardSummary(user.id, at("2026-10-31T20:30:00Z"));
    expect(summary.counts).toEqual({
      customers: count(`SELECT count(*) FROM "Customer" WHERE "userId" = ?`, user.id),
      segments: count(`SELECT count(*) FROM "Segment" WHERE "userId" = ?`, user.id),
      campaigns: count(`SELECT count(*) FROM "Campaign" WHERE "userId" = ?`, user.id),
    });
    expect(summary.previous).toEqual({ customers: 4, segments: 2, campaigns: 1 });
    expect(percentChange(summary.counts.customers, summary.previous.customers)).toBe("0.0%");
    expect(percentChange(summary.counts.campaigns, summary.previous.campaigns)).toBe("+100.0%");

    // The other tenant: its own rows only, and none of the first tenant's figures.
    expect(snapshots(other.id).at(-1)).toMatchObject({ customers: 1, segments: 1, campaigns: 0 });
    expect((await historicalStats(other.id, now)).previousCustomers).toBe(1);
  });
});

describe("running the job again", () => {
  it("changes nothing when nothing changed, and counts a new row once", async () => {
    const user = await createTestUser("Again");
    addCustomer(user.id, at("2026-11-10T05:00:00Z"));
    const now = at("2026-11-20T05:00:00Z");
    await takeSnapshots(sqlite, now);
    const once = snapshots(user.id);
    await takeSnapshots(sqlite, now);
    expect(snapshots(user.id)).toEqual(once);
    addCustomer(user.id, at("2026-11-20T06:00:00Z"));
    await takeSnapshots(sqlite, at("2026-11-20T07:00:00Z"));
    await takeSnapshots(sqlite, at("2026-11-20T08:00:00Z"));
    expect(snapshots(user.id).at(-1)).toMatchObject({ day: "2026-11-20", customers: 2, customersAdded: 1 });
    expect(snapshots(user.id).reduce((sum, r) => sum + r.customersAdded, 0)).toBe(2);
  });
});

describe("a tenant created today", () => {
  it("has no history: previous counts are 0 and the change follows the rule for 0", async () => {
    const user = await createTestUser("Newcomer");
    const now = new Date();
    const empty = await dashboardSummary(user.id, now);
    expect(empty.counts).toEqual({ customers: 0, segments: 0, campaigns: 0 });
    expect(empty.previous).toEqual({ customers: 0, segments: 0, campaigns: 0 });
    expect(empty.weekly).toHaveLength(12);
    expect(empty.weekly.every((w) => w.customersAdded === 0 && w.campaignsSent === 0)).toBe(true);
    expect(empty.recentCampaigns).toEqual([]);
    expect(empty.recentActivity).toEqual([]);
    expect(empty.performance).toMatchObject({ deliveryRate: 0, openRate: 0, clickRate: 0 });
    expect(percentChange(empty.counts.customers, empty.previous.customers)).toBe("0%");

    // The job writes one row for today only.
    expect(await snapshotTenant(sqlite, user.id, now)).toBe(1);
    expect(snapshots(user.id)).toEqual([
      expect.objectContaining({ day: dayOf(now), customers: 0, segments: 0, campaigns: 0 }),
    ]);

    addCustomer(user.id, now);
    const one = await dashboardSummary(user.id, now);
    expect(one.counts.customers).toBe(1);
    expect(one.previous.customers).toBe(0);
    expect(percentChange(one.counts.customers, one.previous.customers)).toBe("+100%");
    // Made after the snapshot: counted into this week by the read.
    expect(one.weekly.at(-1)?.customersAdded).toBe(1);
    // The read connection's statements are shared: the customer list's count still reads its row.
    expect(await countCustomers(user.id)).toEqual({ total: 1, capped: false });
  });
});

describe("the summary's figures", () => {
  it("each equals a direct SQL count over the same rows, for this tenant only", async () => {
    const user = await createTestUser("Figures");
    const other = await createTestUser("Other figures");
    const now = at("2026-11-25T06:00:00Z");
    const weeks = weekStarts(now);
    // Customers over the 12 weeks and before, campaigns launched in some weeks, one draft.
    for (let d = 0; d < 100; d++)
      addCustomer(user.id, new Date(now.getTime() - (d * 37 + 5) * 3_600_000), `P${d} Q${d}`);
    for (let d = 0; d < 5; d++) addSegment(user.id, new Date(now.getTime() - (d * 50 + 3) * 3_600_000), `S${d}`);
    const launched = [2, 9, 30, 45, 60, 70].map((days, i) =>
      addCampaign(
        user.id,
        new Date(now.getTime() - days * 86_400_000 - 3_600_000),
        new Date(now.getTime() - days * 86_400_000),
        `C${i}`,
        { delivered: 10 + i * 3, failed: i, bounced: i % 2, opened: 4 + i, clicked: i, sent: 1 },
      ),
    );
    addCampaign(user.id, new Date(now.getTime() - 3_600_000), null, "Draft");
    for (let d = 0; d < 20; d++) addCustomer(other.id, new Date(now.getTime() - d * 86_400_000));
    addCampaign(other.id, at("2026-11-20T06:00:00Z"), at("2026-11-20T07:00:00Z"), "Theirs", {
      delivered: 50,
      failed: 50,
    });

    // Snapshots taken three days ago; what came since is counted by the read.
    await takeSnapshots(sqlite, new Date(now.getTime() - 3 * 86_400_000));
    const summary = await dashboardSummary(user.id, now);

    const weekly = weeks.map((w, i) => {
      const from = dayStartMs(w);
      const to = i + 1 < weeks.length ? dayStartMs(weeks[i + 1]) : now.getTime();
      return {
        weekStart: w,
        customersAdded: count(
          `SELECT count(*) FROM "Customer" WHERE "userId" = ? AND "createdAt" >= ? AND "createdAt" < ?`,
          user.id,
          from,
          to,
        ),
        campaignsSent: count(
          `SELECT count(*) FROM "Campaign" WHERE "userId" = ? AND "launchedAt" >= ? AND "launchedAt" < ?`,
          user.id,
          from,
          to,
        ),
      };
    });
    expect(summary.weekly).toEqual(weekly);
    expect(weekly.reduce((s, w) => s + w.campaignsSent, 0)).toBe(6);

    // Performance from the counters equals the same figures counted over the delivery rows.
    const rows = (status: string, extra = "") =>
      count(`SELECT count(*) FROM "Delivery" WHERE "userId" = ? AND "status" IN (${status}) ${extra}`, user.id);
    const delivered = rows("'delivered'");
    const attempted = rows("'delivered', 'failed', 'bounced'");
    const opened = rows("'delivered'", `AND "openedAt" IS NOT NULL`);
    const clicked = rows("'delivered'", `AND "clickedAt" IS NOT NULL`);
    const pct = (a: number, b: number) => Math.round((a / b) * 1000) / 10;
    expect(summary.performance).toEqual({
      deliveryRate: pct(delivered, attempted),
      openRate: pct(opened, delivered),
      clickRate: pct(clicked, opened),
      attempted,
      delivered,
      opened,
      clicked,
    });

    // Recent campaigns: the 3 newest by launch (or creation), with failed and success rate.
    expect(summary.recentCampaigns.map((c) => c.name)).toEqual(["Draft", "C0", "C1"]);
    const c1 = summary.recentCampaigns[2];
    const c1Delivered = count(
      `SELECT count(*) FROM "Delivery" WHERE "campaignId" = ? AND "status" = 'delivered'`,
      launched[1],
    );
    // The campaign detail's own figures: Failed is what the channel refused; the success rate is
    // delivered out of everything with an outcome (delivered, failed, bounced).
    const c1Failed = count(
      `SELECT count(*) FROM "Delivery" WHERE "campaignId" = ? AND "status" = 'failed'`,
      launched[1],
    );
    const c1Attempted = count(
      `SELECT count(*) FROM "Delivery" WHERE "campaignId" = ? AND "status" IN ('delivered', 'failed', 'bounced')`,
      launched[1],
    );
    expect(c1).toEqual({
      id: launched[1],
      name: "C1",
      failed: c1Failed,
      successRate: pct(c1Delivered, c1Attempted),
      date: new Date(now.getTime() - 9 * 86_400_000).toISOString(),
    });

    // The funnel: launched campaigns only, from their rows.
    expect(summary.funnel.map((f) => f.name)).toEqual(["C0", "C1", "C2", "C3", "C4"]);
    expect(summary.funnel[0]).toEqual({
      id: launched[0],
      name: "C0",
      sent: count(
        `SELECT count(*) FROM "Delivery" WHERE "campaignId" = ? AND "status" IN ('sent', 'delivered', 'bounced')`,
        launched[0],
      ),
      delivered: 10,
      opened: 4,
      clicked: 0,
    });

    // Recent activity: the newest 5 of each kind merged, 10 kept, newest first, this tenant's only.
    const activity = summary.recentActivity;
    expect(activity).toHaveLength(10);
    expect([...activity].sort((a, b) => (a.date < b.date ? 1 : -1))).toEqual(activity);
    expect(activity.slice(0, 3).map((a) => a.title)).toEqual(["Draft", "S0", "P0 Q0"]);
    expect(activity.map((a) => a.title)).not.toContain("Theirs");
    const newestCustomers = sqlite
      .prepare(`SELECT "id" FROM "Customer" WHERE "userId" = ? ORDER BY "createdAt" DESC LIMIT 5`)
      .pluck()
      .all(user.id);
    const shownCustomers = activity.filter((a) => a.type === "customer").map((a) => a.id);
    expect(newestCustomers.slice(0, shownCustomers.length)).toEqual(shownCustomers);

    expect(summary.counts.customers).toBe(count(`SELECT count(*) FROM "Customer" WHERE "userId" = ?`, user.id));
  });
});

describe("the snapshots job", () => {
  it("runs in a worker thread as Bree starts it and writes today's row for every tenant", async () => {
    const user = await createTestUser("Job");
    addCustomer(user.id, new Date(Date.now() - 2 * 86_400_000));
    const worker = new Worker(path.resolve(import.meta.dirname, "../../../jobs/snapshots.mjs"));
    const messages: unknown[] = [];
    worker.on("message", (m) => messages.push(m));
    const code = await new Promise<number>((resolve, reject) => {
      worker.on("exit", resolve);
      worker.on("error", reject);
    });
    expect(code).toBe(0);
    expect(messages).toEqual(["done"]);
    expect(snapshots(user.id).at(-1)).toMatchObject({ day: dayOf(new Date()), customers: 1 });
  }, 30_000);
});

describe("the complaint rate", () => {
  it("is spam reports out of the messages that reached a mailbox, over every campaign, warning above 0.1%", async () => {
    const user = await createTestUser("Complaints");
    const other = await createTestUser("Someone else");
    const now = at("2026-11-26T06:00:00Z");
    expect((await dashboardSummary(user.id, now)).complaints).toEqual({
      complaints: 0,
      reached: 0,
      rate: null,
      limit: 0.1,
      over: false,
    });
    const complain = (id: string, n: number) =>
      sqlite.prepare(`UPDATE "Campaign" SET "complainedCount" = ? WHERE "id" = ?`).run(n, id);
    const a = addCampaign(user.id, at("2026-11-01T06:00:00Z"), at("2026-11-01T07:00:00Z"), "A", {
      delivered: 995,
      sent: 4,
      bounced: 30,
    });
    const b = addCampaign(user.id, at("2026-11-10T06:00:00Z"), at("2026-11-10T07:00:00Z"), "B", { delivered: 1000 });
    complain(a, 1);
    complain(b, 1);
    complain(
      addCampaign(other.id, at("2026-11-10T06:00:00Z"), at("2026-11-10T07:00:00Z"), "Theirs", { delivered: 10 }),
      9,
    );
    // 2 of 2,001 (bounced messages never reached a mailbox): 0.0999…%, shown as 0.10%, not above the limit.
    expect((await dashboardSummary(user.id, now)).complaints).toEqual({
      complaints: 2,
      reached: 2_001,
      rate: 0.1,
      limit: 0.1,
      over: false,
    });
    complain(b, 2);
    expect((await dashboardSummary(user.id, now)).complaints).toMatchObject({
      complaints: 3,
      reached: 2_002,
      rate: 0.15,
      over: true,
    });
  });
});

describe("Campaign Performance with spam reports", () => {
  it("counts a message reported as spam as delivered, as the campaign's success rate does", async () => {
    const user = await createTestUser("Performance with complaints");
    const id = addCampaign(user.id, at("2026-11-02T06:00:00Z"), at("2026-11-02T07:00:00Z"), "C", {
      delivered: 9,
      failed: 1,
      opened: 9,
      clicked: 3,
    });
    // One of the ten opened it and reported it as spam: its row moved from delivered to complained.
    sqlite
      .prepare(`UPDATE "Campaign" SET "complainedCount" = 1, "openedCount" = 10, "audienceSize" = 11 WHERE "id" = ?`)
      .run(id);
    const { performance } = await dashboardSummary(user.id, at("2026-11-26T06:00:00Z"));
    // 10 of 11 attempted reached a mailbox (the campaign's success rate, 90.9%); 10 opened of those 10.
    expect(performance).toMatchObject({
      attempted: 11,
      delivered: 10,
      opened: 10,
      deliveryRate: 90.9,
      openRate: 100,
      clickRate: 30,
    });
  });
});
