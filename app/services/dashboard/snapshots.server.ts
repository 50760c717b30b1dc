// The dashboard's daily snapshots (table DashboardSnapshot, docs/decisions/0012-dashboard-snapshots.md):
// per tenant per day (India Standard Time) the counts of customers, segments and campaigns as of
// takenAt, and the customers added and campaigns launched that day up to takenAt. The snapshots
// job (jobs/snapshots.ts) writes them at start and every hour on its own connection; the dashboard
// reads them and counts only what was created since the latest one. The queries are in
// app/models/dashboard/. Several instances on one PostgreSQL database: one run at a time
// (withSnapshotsLock), the others skip.
import { addDays, dayOf, dayStartMs, monthStart, weekStarts } from "~/lib/dashboard";
import {
  dashboard,
  type SnapshotConnection,
  type SnapshotJobConnection,
  type SnapshotRow,
  type Window,
} from "~/models/dashboard/store.server";

const wholeSecond = (ms: number) => Math.floor(ms / 1000) * 1000;

/**
 * The first day a tenant without snapshots is filled in from: early enough for the weekly series
 * and for the end of last month.
 */
function backfillStart(now: Date): string {
  const firstWeek = weekStarts(now)[0];
  const lastMonthEnd = addDays(monthStart(dayOf(now)), -1);
  return firstWeek < lastMonthEnd ? firstWeek : lastMonthEnd;
}

/**
 * Brings one tenant's snapshots up to `now`: the latest day's row is completed to its end (or to
 * now), each day since gets a row, and today's row holds the exact counts. A tenant without any is
 * filled in from backfillStart by creation times (rows deleted since are not known then); days
 * before the tenant had anything get no row. Returns the rows written.
 */
export async function snapshotTenant(
  connection: SnapshotConnection,
  userId: string,
  now: Date = new Date(),
): Promise<number> {
  const today = dayOf(now);
  const nowMs = wholeSecond(now.getTime());
  const last = await dashboard.latestSnapshot(userId, undefined, connection);
  if (last && last.day > today) return 0; // the clock went back: leave the rows as they are
  const firstDay = last ? last.day : backfillStart(now);
  const firstFrom = last ? last.takenAt : dayStartMs(firstDay);

  // The days from the latest snapshot's (or the backfill's first) to today, and what each adds:
  // the first from where its row stopped, the others whole, today's up to now.
  const days: { day: string; window: Window }[] = [];
  for (let day = firstDay, from = firstFrom; ; day = addDays(day, 1), from = dayStartMs(day)) {
    days.push({ day, window: { from, to: day === today ? nowMs : dayStartMs(addDays(day, 1)) } });
    if (day === today) break;
  }
  // Without a snapshot, the first row starts from everything created before its day.
  const windows = [...(last ? [] : [{ from: 0, to: firstFrom }]), ...days.map((d) => d.window)];
  // One after the other: on PostgreSQL `connection` is one client of a transaction.
  const created = await dashboard.createdInWindows(userId, windows, connection);
  const exact = await dashboard.currentCounts(userId, connection);
  let row: SnapshotRow;
  if (last) row = { ...last };
  else {
    const before = created.shift() ?? { customers: 0, segments: 0, campaigns: 0 };
    row = { day: firstDay, takenAt: firstFrom, ...before, customersAdded: 0, campaignsSent: 0 };
  }
  const rows: SnapshotRow[] = [];
  days.forEach(({ day, window }, i) => {
    const c = created[i];
    row = {
      day,
      takenAt: Math.max(window.to, window.from),
      customers: row.customers + c.customers,
      segments: row.segments + c.segments,
      campaigns: row.campaigns + c.campaigns,
      customersAdded: (i === 0 ? row.customersAdded : 0) + c.customers,
      campaignsSent: (i === 0 ? row.campaignsSent : 0) + c.campaignsSent,
    };
    // Today's totals are exact (deletions included); past days carry forward what was created.
    if (day === today) row = { ...row, ...exact };
    const empty = row.customers + row.segments + row.campaigns === 0;
    if (last || !empty || day === today) rows.push(row);
  });
  await dashboard.upsertSnapshots(userId, rows, connection);
  return rows.length;
}

/**
 * Snapshots every tenant, each in its own transaction; a tenant that fails (deleted meanwhile) does
 * not stop the others. Returns how many tenants and rows, and the failures; `skipped` when another
 * instance's run was under way (PostgreSQL), which then does the work.
 */
export async function takeSnapshots(
  connection: SnapshotJobConnection,
  now: Date = new Date(),
): Promise<{ tenants: number; rows: number; failed: { userId: string; error: string }[]; skipped: boolean }> {
  const run = await dashboard.withSnapshotsLock(connection, async () => {
    const users = await dashboard.tenantIds(connection);
    let rows = 0;
    const failed: { userId: string; error: string }[] = [];
    for (const userId of users) {
      try {
        rows += await dashboard.inSnapshotTransaction(connection, (tx) => snapshotTenant(tx, userId, now));
      } catch (error) {
        failed.push({ userId, error: error instanceof Error ? error.message : String(error) });
      }
    }
    return { tenants: users.length, rows, failed, skipped: false };
  });
  return run ?? { tenants: 0, rows: 0, failed: [], skipped: true };
}
