// The dashboard on PostgreSQL: the same counts and lists as on SQLite, on the process's pool, the
// snapshots job's own pool, or one client of it in a transaction. The windows are the same [from,
// to) in ms the SQLite side takes (days and weeks are cut in India Standard Time by
// app/lib/dashboard.ts, never by the database), given as Date to the timestamptz columns;
// customers are counted by id range as there (ids begin with their creation second).
//
// Two things several instances need that one SQLite process did not: the job's run is held by an
// advisory lock (one instance snapshots at a time; the others skip their run), and a tenant's
// reads and writes share one REPEATABLE READ transaction, so its counts and the rows written from
// them agree as BEGIN IMMEDIATE makes them agree on SQLite.
import pg from "pg";
import { postgresOf } from "~/db/engine.server";
import { postgres, type Queryable, query, transaction } from "~/db/postgres.server";
import type { DashboardConnection, DashboardStore } from "~/models/dashboard/contract";
import {
  type Added,
  type Created,
  dashboardStatements,
  idFloor,
  LAST_DAY,
  readDashboardRows,
  type SnapshotRow,
  SNAPSHOTS_LOCK_KEY,
  snapshotValues,
  UPSERT_SNAPSHOTS_SQL,
  type Window,
} from "~/models/dashboard/rows";

/** The pool or client a dashboard function runs on: the one given, else the process's pool. */
function target(connection?: DashboardConnection): Queryable {
  if (connection === undefined) return postgres().pool;
  if ("engine" in connection && connection.engine === "postgres-transaction") return connection.client;
  return postgresOf(connection).pool;
}

// Each window is one statement of the same counts as SQLite's: customers a range of (userId, id),
// segments and campaigns of (userId, createdAt); launches are found among the tenant's campaigns
// (hundreds), as there.
const CREATED_BETWEEN = `SELECT
    (SELECT count(*) FROM "Customer" WHERE "userId" = $1 AND "id" >= $4 AND "id" < $5) AS "customers",
    (SELECT count(*) FROM "Segment" WHERE "userId" = $1 AND "createdAt" >= $2 AND "createdAt" < $3) AS "segments",
    (SELECT count(*) FROM "Campaign" WHERE "flowId" IS NULL AND "userId" = $1 AND "createdAt" >= $2 AND "createdAt" < $3) AS "campaigns",
    (SELECT count(*) FROM "Campaign" WHERE "flowId" IS NULL AND "userId" = $1 AND "launchedAt" >= $2 AND "launchedAt" < $3) AS "campaignsSent"`;
const ADDED_BETWEEN = `SELECT
    (SELECT count(*) FROM "Customer" WHERE "userId" = $1 AND "id" >= $4 AND "id" < $5) AS "customersAdded",
    (SELECT count(*) FROM "Campaign" WHERE "flowId" IS NULL AND "userId" = $1 AND "launchedAt" >= $2 AND "launchedAt" < $3) AS "campaignsSent"`;

const SQL = dashboardStatements((n) => `$${n}`);

/**
 * Runs the statements at once on a pool; one after another on a client (a transaction's), which
 * runs one statement at a time.
 */
async function all<T>(db: Queryable, work: (() => Promise<T>)[]): Promise<T[]> {
  if (db instanceof pg.Pool) return Promise.all(work.map((w) => w()));
  const results: T[] = [];
  for (const w of work) results.push(await w());
  return results;
}

/** A window's parameters: the tenant, its times for the timestamptz columns, its id range. */
const windowParams = (userId: string, { from, to }: Window) => [
  userId,
  new Date(from),
  new Date(to),
  idFloor(from),
  idFloor(to),
];

export const postgresDashboard: DashboardStore = {
  async createdInWindows(userId, windows, connection) {
    const db = target(connection);
    return all(
      db,
      windows.map((w) => async () => {
        if (w.to <= w.from) return { customers: 0, segments: 0, campaigns: 0, campaignsSent: 0 };
        const [row] = await query<Created>(db, CREATED_BETWEEN, windowParams(userId, w));
        return row ?? { customers: 0, segments: 0, campaigns: 0, campaignsSent: 0 };
      }),
    );
  },

  async addedInWindows(userId, windows, connection) {
    const db = target(connection);
    return all(
      db,
      windows.map((w) => async () => {
        if (w.to <= w.from) return { customersAdded: 0, campaignsSent: 0 };
        const [row] = await query<Added>(db, ADDED_BETWEEN, windowParams(userId, w));
        return row ?? { customersAdded: 0, campaignsSent: 0 };
      }),
    );
  },

  async currentCounts(userId, connection) {
    const db = target(connection);
    const [row] = await query<{ tally: number | null; segments: number; campaigns: number }>(
      db,
      `SELECT (SELECT "customers" FROM "CustomerTally" WHERE "userId" = $1) AS "tally",
              (SELECT count(*) FROM "Segment" WHERE "userId" = $1) AS "segments",
              (SELECT count(*) FROM "Campaign" WHERE "flowId" IS NULL AND "userId" = $1) AS "campaigns"`,
      [userId],
    );
    // The tally is counted once when the tenant has none yet, as on SQLite.
    const customers =
      row?.tally === null || row?.tally === undefined
        ? Number(
            (await query<{ n: number }>(db, `SELECT count(*) AS n FROM "Customer" WHERE "userId" = $1`, [userId]))[0]
              ?.n ?? 0,
          )
        : Math.max(0, row.tally);
    return { customers, segments: row?.segments ?? 0, campaigns: row?.campaigns ?? 0 };
  },

  async dashboardRows(userId, limits) {
    const db = target();
    return readDashboardRows((sql, params) => query(db, sql, params), SQL, userId, limits);
  },

  async latestSnapshot(userId, day = LAST_DAY, connection) {
    const [row] = await query<SnapshotRow>(target(connection), SQL.latestSnapshot, [userId, day]);
    return row;
  },

  async snapshotsSince(userId, fromDay, connection) {
    return query<SnapshotRow>(target(connection), SQL.snapshotsSince, [userId, fromDay]);
  },

  async upsertSnapshots(userId, rows, connection) {
    if (!rows.length) return;
    // One statement for all the days (a backfill writes up to a hundred).
    const values: unknown[] = [];
    const tuples = rows.map((r) => {
      const at = values.length;
      values.push(...snapshotValues(userId, r));
      return `(${Array.from({ length: 8 }, (_, i) => `$${at + i + 1}`).join(", ")})`;
    });
    await query(target(connection), UPSERT_SNAPSHOTS_SQL(tuples.join(", ")), values);
  },

  async tenantIds(connection) {
    // Binary order, as SQLite lists them (ids are hex, but say it rather than rely on the collation).
    return (await query<{ id: string }>(target(connection), `SELECT "id" FROM "User" ORDER BY "id" COLLATE "C"`)).map(
      (u) => u.id,
    );
  },

  // One REPEATABLE READ transaction on one client (run again from the start after a retryable failure).
  async inSnapshotTransaction(connection, work) {
    return transaction(postgresOf(connection), async (client) => {
      await client.query("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ");
      return work({ engine: "postgres-transaction", client });
    });
  },

  // The lock is the session's, on a client kept for the run; `work` runs on other clients of the
  // same pool, so the pool needs two connections at least.
  async withSnapshotsLock(connection, work) {
    const client = await postgresOf(connection).pool.connect();
    let broken = false;
    try {
      const [row] = (
        await client.query<{ locked: boolean }>("SELECT pg_try_advisory_lock($1) AS locked", [
          SNAPSHOTS_LOCK_KEY.toString(),
        ])
      ).rows;
      if (!row?.locked) return null;
      try {
        return await work();
      } finally {
        try {
          await client.query("SELECT pg_advisory_unlock($1)", [SNAPSHOTS_LOCK_KEY.toString()]);
        } catch {
          // The session is gone, and its lock with it; the pool must not hand the client out again.
          broken = true;
        }
      }
    } finally {
      client.release(broken);
    }
  },
};
