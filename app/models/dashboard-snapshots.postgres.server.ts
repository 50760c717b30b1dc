// The table DashboardSnapshot on PostgreSQL: the twins of ./dashboard-snapshots.server.ts, and the
// two things several instances need that one SQLite process did not: the job's run is held by an
// advisory lock (one instance snapshots at a time; the others skip their run), and a tenant's
// reads and writes share one REPEATABLE READ transaction, so its counts and the rows written from
// them agree as BEGIN IMMEDIATE makes them agree on SQLite.
import { type Postgres, type Queryable, query, transaction } from "~/db/postgres.server";
import type { SnapshotRow } from "~/models/dashboard-snapshots.server";
import type { PostgresTransaction } from "~/models/dashboard-statements.server";

const SNAPSHOT_COLUMNS = `"day", "takenAt", "customers", "segments", "campaigns", "customersAdded", "campaignsSent"`;

/** The advisory lock of the snapshots job, one key for every instance (0012: the decision's number). */
export const SNAPSHOTS_LOCK_KEY = 7_261_126_000_012n;

export async function latestSnapshotPg(db: Queryable, userId: string, day: string): Promise<SnapshotRow | undefined> {
  const [row] = await query<SnapshotRow>(
    db,
    `SELECT ${SNAPSHOT_COLUMNS} FROM "DashboardSnapshot" WHERE "userId" = $1 AND "day" <= $2 ORDER BY "day" DESC LIMIT 1`,
    [userId, day],
  );
  return row;
}

export async function snapshotsSincePg(db: Queryable, userId: string, fromDay: string): Promise<SnapshotRow[]> {
  return query<SnapshotRow>(
    db,
    `SELECT ${SNAPSHOT_COLUMNS} FROM "DashboardSnapshot" WHERE "userId" = $1 AND "day" >= $2 ORDER BY "day"`,
    [userId, fromDay],
  );
}

export async function upsertSnapshotsPg(db: Queryable, userId: string, rows: SnapshotRow[]): Promise<void> {
  if (!rows.length) return;
  // One statement for all the days (a backfill writes up to a hundred).
  const values: unknown[] = [];
  const tuples = rows.map((r) => {
    const at = values.length;
    values.push(r.day, r.takenAt, r.customers, r.segments, r.campaigns, r.customersAdded, r.campaignsSent, userId);
    return `(${Array.from({ length: 8 }, (_, i) => `$${at + i + 1}`).join(", ")})`;
  });
  await query(
    db,
    `INSERT INTO "DashboardSnapshot" (${SNAPSHOT_COLUMNS}, "userId") VALUES ${tuples.join(", ")}
     ON CONFLICT ("userId", "day") DO UPDATE SET "takenAt" = excluded."takenAt", "customers" = excluded."customers",
     "segments" = excluded."segments", "campaigns" = excluded."campaigns", "customersAdded" = excluded."customersAdded",
     "campaignsSent" = excluded."campaignsSent"`,
    values,
  );
}

export async function tenantIdsPg(db: Queryable): Promise<string[]> {
  // Binary order, as SQLite lists them (ids are hex, but say it rather than rely on the collation).
  return (await query<{ id: string }>(db, `SELECT "id" FROM "User" ORDER BY "id" COLLATE "C"`)).map((u) => u.id);
}

/** `work` in one REPEATABLE READ transaction on one client (run again from the start after a retryable failure). */
export async function inSnapshotTransactionPg<T>(
  db: Postgres,
  work: (tx: PostgresTransaction) => Promise<T>,
): Promise<T> {
  return transaction(db, async (client) => {
    await client.query("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ");
    return work({ engine: "postgres-transaction", client });
  });
}

/**
 * Runs `work` holding the snapshots job's advisory lock, or does nothing (returns null) while
 * another instance holds it. The lock is the session's, on a client kept for the run; `work`
 * runs on other clients of the same pool, so the pool needs two connections at least.
 */
export async function withSnapshotsLockPg<T>(db: Postgres, work: () => Promise<T>): Promise<T | null> {
  const client = await db.pool.connect();
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
}
