// @engines sqlite postgres
// The dashboard's statistics on a real migrated database (SQLite; PostgreSQL in the postgres
// project): the snapshots (a month boundary, a tenant created today, another tenant untouched, the
// job's worker thread as Bree runs it, one run at a time across instances) and every figure of the
// summary checked against a direct count over the same rows.
import path from "node:path";
import { Worker } from "node:worker_threads";
import { describe, expect, it } from "vitest";
import { createTestUser, TEST_ENGINE, useTestConnection, useTestDatabase } from "../../../tests/helpers/db";

// eslint-disable-next-line react-hooks/rules-of-hooks -- a test helper named use*, not a React hook
useTestDatabase();
// eslint-disable-next-line react-hooks/rules-of-hooks -- a test helper named use*, not a React hook
const connection = useTestConnection();

import { db } from "~/db/prisma.server";
import { dayOf, dayStartMs, percentChange, weekStarts } from "~/lib/dashboard";
import { newId } from "~/lib/id";
import { dashboardSummary, historicalStats } from "~/services/dashboard/stats.server";
import { snapshotTenant, takeSnapshots } from "~/services/dashboard/snapshots.server";
import { dashboard } from "~/models/dashboard/store.server";
import { customers } from "~/models/customers/store.server";
import { countCustomers } from "~/services/customers.server";

const at = (iso: string) => new Date(iso);
let serial = 0;

async function addCustomer(userId: string, when: Date, name = "Asha Rao") {
  serial += 1;
  const id = newId(when);
  const [first, last] = name.split(" ");
  await db().customer.create({
    data: {
      id,
      userId,
      firstName: first,
      lastName: last ?? "",
      email: `c${serial}@example.com`,
      createdAt: when,
      updatedAt: when,
    },
  });
  await customers.addToCustomerTally(userId, 1);
  return id;
}

/** Deletes a customer; the tally follows by the database's own delete trigger. */
async function deleteCustomer(userId: string, id: string) {
  await db().customer.deleteMany({ where: { id, userId } });
}

async function addSegment(userId: string, when: Date, name = "Loyal") {
  const id = newId(when);
  await db().segment.create({
    data: {
      id,
      userId,
      name,
      description: `${name} customers`,
      conditions: "{}",
      createdAt: when,
      updatedAt: when,
    },
  });
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

let deliverySeq = 0;

/** A campaign with its counters and delivery rows that agree with them (opened/clicked among delivered). */
async function addCampaign(userId: string, created: Date, launched: Date | null, name: string, c: Counters = {}) {
  const id = newId(created);
  const n = { sent: 0, delivered: 0, failed: 0, bounced: 0, opened: 0, clicked: 0, ...c };
  const audience = n.sent + n.delivered + n.failed + n.bounced;
  await db().campaign.create({
    data: {
      id,
      userId,
      name,
      message: "Hello {NAME}",
      status: launched ? "Completed" : "Draft",
      audienceSize: audience,
      sentCount: n.sent,
      deliveredCount: n.delivered,
      failedCount: n.failed,
      bouncedCount: n.bounced,
      openedCount: n.opened,
      clickedCount: n.clicked,
      launchedAt: launched,
      createdAt: created,
      updatedAt: created,
    },
  });
  const rows: {
    seq: number;
    campaignId: string;
    userId: string;
    customerId: string;
    status: string;
    openedAt: number | null;
    clickedAt: number | null;
  }[] = [];
  let k = 0;
  const put = (status: string, count: number, opened = 0, clicked = 0) => {
    for (let i = 0; i < count; i++) {
      k += 1;
      deliverySeq += 1;
      rows.push({
        seq: deliverySeq,
        campaignId: id,
        userId,
        customerId: `r${k}`,
        status,
        openedAt: i < opened ? 1 : null,
        clickedAt: i < clicked ? 1 : null,
      });
    }
  };
  put("delivered", n.delivered, n.opened, n.clicked);
  put("failed", n.failed);
  put("bounced", n.bounced);
  put("sent", n.sent);
  await db().delivery.createMany({ data: rows });
  return id;
}

/** The tenant's snapshot rows, oldest first (numbers, as the model reads them). */
const snapshots = (userId: string) => dashboard.snapshotsSince(userId, "");

describe("snapshots across a month boundary", () => {
  it("last month's counts are the counts at its end, whether the job ran before or after midnight", async () => {
    const user = await createTestUser("Boundary");
    const other = await createTestUser("Bystander");
    await addCustomer(other.id, at("2026-10-10T06:00:00Z"));
    await addSegment(other.id, at("2026-10-10T06:00:00Z"));

    // October (IST): 3 customers, 1 segment, 1 campaign launched on the 20th.
    await addCustomer(user.id, at("2026-10-02T05:00:00Z"));
    await addCustomer(user.id, at("2026-10-15T05:00:00Z"));
    const gone = await addCustomer(user.id, at("2026-10-20T05:00:00Z"));
    await addSegment(user.id, at("2026-10-05T05:00:00Z"));
    await addCampaign(user.id, at("2026-10-20T04:00:00Z"), at("2026-10-20T05:00:00Z"), "Diwali", {
      delivered: 4,
      failed: 1,
    });

    // The job runs on 31 Oct at 20:00 IST (14:30 UTC).
    await takeSnapshots(connection(), at("2026-10-31T14:30:00Z"));
    const rows = await snapshots(user.id);
    // Filled in from the first day with anything (2 Oct IST) to the 31st; days before get no row.
    expect(rows[0]?.day).toBe("2026-10-02");
    expect(rows.at(-1)).toMatchObject({ day: "2026-10-31", customers: 3, segments: 1, campaigns: 1 });
    expect(rows.find((r) => r.day === "2026-10-20")).toMatchObject({ customersAdded: 1, campaignsSent: 1 });
    expect(rows.reduce((s, r) => s + r.customersAdded, 0)).toBe(3);

    // After the snapshot, before midnight IST: 31 Oct 23:00 IST (17:30 UTC); then 1 Nov 00:10 IST.
    await addCustomer(user.id, at("2026-10-31T17:30:00Z"));
    await addSegment(user.id, at("2026-10-31T17:31:00Z"));
    await addCustomer(user.id, at("2026-10-31T18:40:00Z"));
    await addCampaign(user.id, at("2026-10-31T18:45:00Z"), null, "Draft for November");

    const now = at("2026-10-31T19:30:00Z"); // 1 Nov, 01:00 IST
    const november = new Date(dayStartMs("2026-11-01"));
    const expected = async (userId: string) => ({
      previousCustomers: await db().customer.count({ where: { userId, createdAt: { lt: november } } }),
      previousSegments: await db().segment.count({ where: { userId, createdAt: { lt: november } } }),
      previousCampaigns: await db().campaign.count({ where: { userId, createdAt: { lt: november } } }),
    });
    // Before the job has run again: the 31st's snapshot plus what came after it, up to midnight.
    const before = await historicalStats(user.id, now);
    expect(before).toMatchObject(await expected(user.id));
    expect(before).toMatchObject({ previousCustomers: 4, previousSegments: 2, previousCampaigns: 1 });

    // The job after midnight completes the 31st and starts 1 Nov with the exact counts.
    await takeSnapshots(connection(), now);
    const after = await snapshots(user.id);
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
    expect(await historicalStats(user.id, now)).toMatchObject(await expected(user.id));

    // A deletion this month: today's count is exact; last month's stays what it was.
    await deleteCustomer(user.id, gone);
    await takeSnapshots(connection(), at("2026-10-31T20:30:00Z"));
    expect((await snapshots(user.id)).at(-1)).toMatchObject({ day: "2026-11-01", customers: 4 });
    const summary = await dashboardSummary(user.id, at("2026-10-31T20:30:00Z"));
    expect(summary.counts).toEqual({
      customers: await db().customer.count({ where: { userId: user.id } }),
      segments: await db().segment.count({ where: { userId: user.id } }),
      campaigns: await db().campaign.count({ where: { userId: user.id } }),
    });
    expect(summary.previous).toEqual({ customers: 4, segments: 2, campaigns: 1 });
    expect(percentChange(summary.counts.customers, summary.previous.customers)).toBe("0.0%");
    expect(percentChange(summary.counts.campaigns, summary.previous.campaigns)).toBe("+100.0%");

    // The other tenant: its own rows only, and none of the first tenant's figures.
    expect((await snapshots(other.id)).at(-1)).toMatchObject({ customers: 1, segments: 1, campaigns: 0 });
    expect((await historicalStats(other.id, now)).previousCustomers).toBe(1);
  });
});

describe("running the job again", () => {
  it("changes nothing when nothing changed, and counts a new row once", async () => {
    const user = await createTestUser("Again");
    await addCustomer(user.id, at("2026-11-10T05:00:00Z"));
    const now = at("2026-11-20T05:00:00Z");
    await takeSnapshots(connection(), now);
    const once = await snapshots(user.id);
    await takeSnapshots(connection(), now);
    expect(await snapshots(user.id)).toEqual(once);
    await addCustomer(user.id, at("2026-11-20T06:00:00Z"));
    await takeSnapshots(connection(), at("2026-11-20T07:00:00Z"));
    await takeSnapshots(connection(), at("2026-11-20T08:00:00Z"));
    expect((await snapshots(user.id)).at(-1)).toMatchObject({ day: "2026-11-20", customers: 2, customersAdded: 1 });
    expect((await snapshots(user.id)).reduce((sum, r) => sum + r.customersAdded, 0)).toBe(2);
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
    expect(await snapshotTenant(connection(), user.id, now)).toBe(1);
    expect(await snapshots(user.id)).toEqual([
      expect.objectContaining({ day: dayOf(now), customers: 0, segments: 0, campaigns: 0 }),
    ]);

    await addCustomer(user.id, now);
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
      await addCustomer(user.id, new Date(now.getTime() - (d * 37 + 5) * 3_600_000), `P${d} Q${d}`);
    for (let d = 0; d < 5; d++) await addSegment(user.id, new Date(now.getTime() - (d * 50 + 3) * 3_600_000), `S${d}`);
    const launched: string[] = [];
    for (const [i, days] of [2, 9, 30, 45, 60, 70].entries())
      launched.push(
        await addCampaign(
          user.id,
          new Date(now.getTime() - days * 86_400_000 - 3_600_000),
          new Date(now.getTime() - days * 86_400_000),
          `C${i}`,
          { delivered: 10 + i * 3, failed: i, bounced: i % 2, opened: 4 + i, clicked: i, sent: 1 },
        ),
      );
    await addCampaign(user.id, new Date(now.getTime() - 3_600_000), null, "Draft");
    for (let d = 0; d < 20; d++) await addCustomer(other.id, new Date(now.getTime() - d * 86_400_000));
    await addCampaign(other.id, at("2026-11-20T06:00:00Z"), at("2026-11-20T07:00:00Z"), "Theirs", {
      delivered: 50,
      failed: 50,
    });

    // Snapshots taken three days ago; what came since is counted by the read.
    await takeSnapshots(connection(), new Date(now.getTime() - 3 * 86_400_000));
    const summary = await dashboardSummary(user.id, now);

    const weekly = await Promise.all(
      weeks.map(async (w, i) => {
        const between = {
          gte: new Date(dayStartMs(w)),
          lt: new Date(i + 1 < weeks.length ? dayStartMs(weeks[i + 1]) : now.getTime()),
        };
        return {
          weekStart: w,
          customersAdded: await db().customer.count({ where: { userId: user.id, createdAt: between } }),
          campaignsSent: await db().campaign.count({ where: { userId: user.id, launchedAt: between } }),
        };
      }),
    );
    expect(summary.weekly).toEqual(weekly);
    expect(weekly.reduce((s, w) => s + w.campaignsSent, 0)).toBe(6);

    // Performance from the counters equals the same figures counted over the delivery rows.
    const rows = (status: string[], extra: { openedAt?: { not: null }; clickedAt?: { not: null } } = {}) =>
      db().delivery.count({ where: { userId: user.id, status: { in: status }, ...extra } });
    const delivered = await rows(["delivered"]);
    const attempted = await rows(["delivered", "failed", "bounced"]);
    const opened = await rows(["delivered"], { openedAt: { not: null } });
    const clicked = await rows(["delivered"], { clickedAt: { not: null } });
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
    const c1Delivered = await db().delivery.count({ where: { campaignId: launched[1], status: "delivered" } });
    // The campaign detail's own figures: Failed is what the channel refused; the success rate is
    // delivered out of everything with an outcome (delivered, failed, bounced).
    const c1Failed = await db().delivery.count({ where: { campaignId: launched[1], status: "failed" } });
    const c1Attempted = await db().delivery.count({
      where: { campaignId: launched[1], status: { in: ["delivered", "failed", "bounced"] } },
    });
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
      sent: await db().delivery.count({
        where: { campaignId: launched[0], status: { in: ["sent", "delivered", "bounced"] } },
      }),
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
    const newestCustomers = (
      await db().customer.findMany({ where: { userId: user.id }, orderBy: { createdAt: "desc" }, take: 5 })
    ).map((c) => c.id);
    const shownCustomers = activity.filter((a) => a.type === "customer").map((a) => a.id);
    expect(newestCustomers.slice(0, shownCustomers.length)).toEqual(shownCustomers);

    expect(summary.counts.customers).toBe(await db().customer.count({ where: { userId: user.id } }));
  });
});

describe("the snapshots job", () => {
  it("runs in a worker thread as Bree starts it and writes today's row for every tenant", async () => {
    const user = await createTestUser("Job");
    await addCustomer(user.id, new Date(Date.now() - 2 * 86_400_000));
    const worker = new Worker(path.resolve(import.meta.dirname, "../../../jobs/snapshots.mjs"));
    const messages: unknown[] = [];
    worker.on("message", (m) => messages.push(m));
    const code = await new Promise<number>((resolve, reject) => {
      worker.on("exit", resolve);
      worker.on("error", reject);
    });
    expect(code).toBe(0);
    expect(messages).toEqual(["done"]);
    expect((await snapshots(user.id)).at(-1)).toMatchObject({ day: dayOf(new Date()), customers: 1 });
  }, 30_000);
});

describe("one run at a time", () => {
  it("a run while another instance's run holds the job's lock does nothing on PostgreSQL", async () => {
    const user = await createTestUser("Locked out");
    await addCustomer(user.id, at("2026-11-24T05:00:00Z"));
    const now = at("2026-11-25T05:00:00Z");
    // The outer run holds the lock on one connection of the pool; the inner one asks on another,
    // as a second instance would. SQLite has one writer process: its run goes ahead.
    const inner = await dashboard.withSnapshotsLock(connection(), () => takeSnapshots(connection(), now));
    if (TEST_ENGINE === "postgres") {
      expect(inner).toEqual({ tenants: 0, rows: 0, failed: [], skipped: true });
      expect(await snapshots(user.id)).toEqual([]);
    } else {
      expect(inner).toMatchObject({ skipped: false });
      expect((await snapshots(user.id)).at(-1)).toMatchObject({ day: "2026-11-25", customers: 1 });
    }
    // Once the lock is free the run goes ahead.
    expect(await takeSnapshots(connection(), now)).toMatchObject({ skipped: false, failed: [] });
    expect((await snapshots(user.id)).at(-1)).toMatchObject({ day: "2026-11-25", customers: 1 });
  });
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
    const complain = (id: string, n: number) => db().campaign.update({ where: { id }, data: { complainedCount: n } });
    const a = await addCampaign(user.id, at("2026-11-01T06:00:00Z"), at("2026-11-01T07:00:00Z"), "A", {
      delivered: 995,
      sent: 4,
      bounced: 30,
    });
    const b = await addCampaign(user.id, at("2026-11-10T06:00:00Z"), at("2026-11-10T07:00:00Z"), "B", {
      delivered: 1000,
    });
    await complain(a, 1);
    await complain(b, 1);
    await complain(
      await addCampaign(other.id, at("2026-11-10T06:00:00Z"), at("2026-11-10T07:00:00Z"), "Theirs", { delivered: 10 }),
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
    await complain(b, 2);
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
    const id = await addCampaign(user.id, at("2026-11-02T06:00:00Z"), at("2026-11-02T07:00:00Z"), "C", {
      delivered: 9,
      failed: 1,
      opened: 9,
      clicked: 3,
    });
    // One of the ten opened it and reported it as spam: its row moved from delivered to complained.
    await db().campaign.update({ where: { id }, data: { complainedCount: 1, openedCount: 10, audienceSize: 11 } });
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
