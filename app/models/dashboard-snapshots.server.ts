// The table DashboardSnapshot (docs/decisions/0012-dashboard-snapshots.md): per tenant per day
// (India Standard Time) the counts as of takenAt and what was added that day up to takenAt. The
// dashboard reads it on the read connection; the snapshots job writes it on its own connection.
// On PostgreSQL the twins in ./dashboard-snapshots.postgres.server.ts answer.
import { type AnyConnection, isPostgres } from "~/db/connection.server";
import {
  inSnapshotTransactionPg,
  latestSnapshotPg,
  snapshotsSincePg,
  tenantIdsPg,
  upsertSnapshotsPg,
  withSnapshotsLockPg,
} from "~/models/dashboard-snapshots.postgres.server";
import { type DashboardConnection, postgresTarget, statementsOf } from "~/models/dashboard-statements.server";

/** The connection the snapshots job opened for itself (either engine). */
export type SnapshotJobConnection = AnyConnection;

/**
 * What the snapshots service hands the model functions: the job's connection, or inside
 * inSnapshotTransaction() the transaction it was given.
 */
export type SnapshotConnection = DashboardConnection;

export type SnapshotRow = {
  day: string;
  takenAt: number;
  customers: number;
  segments: number;
  campaigns: number;
  customersAdded: number;
  campaignsSent: number;
};

const SNAPSHOT_COLUMNS = `"day", "takenAt", "customers", "segments", "campaigns", "customersAdded", "campaignsSent"`;

const LATEST_SQL = `SELECT ${SNAPSHOT_COLUMNS} FROM "DashboardSnapshot" WHERE "userId" = ? AND "day" <= ? ORDER BY "day" DESC LIMIT 1`;
const SINCE_SQL = `SELECT ${SNAPSHOT_COLUMNS} FROM "DashboardSnapshot" WHERE "userId" = ? AND "day" >= ? ORDER BY "day"`;
const UPSERT_SQL = `INSERT INTO "DashboardSnapshot" (${SNAPSHOT_COLUMNS}, "userId") VALUES (?, ?, ?, ?, ?, ?, ?, ?)
  ON CONFLICT ("userId", "day") DO UPDATE SET "takenAt" = excluded."takenAt", "customers" = excluded."customers",
  "segments" = excluded."segments", "campaigns" = excluded."campaigns", "customersAdded" = excluded."customersAdded",
  "campaignsSent" = excluded."campaignsSent"`;

/** The columns as SQLite gives them back (integers may come as bigint), read as numbers. */
function toRow(r: Record<keyof SnapshotRow, unknown>): SnapshotRow {
  return {
    day: String(r.day),
    takenAt: Number(r.takenAt),
    customers: Number(r.customers),
    segments: Number(r.segments),
    campaigns: Number(r.campaigns),
    customersAdded: Number(r.customersAdded),
    campaignsSent: Number(r.campaignsSent),
  };
}

/** The tenant's latest snapshot on or before `day` (all of them when omitted). */
export async function latestSnapshot(
  userId: string,
  day = "9999-12-31",
  conn?: SnapshotConnection,
): Promise<SnapshotRow | undefined> {
  const target = postgresTarget(conn);
  if (target) return latestSnapshotPg(target, userId, day);
  const row = statementsOf(conn)<Record<keyof SnapshotRow, unknown>>(LATEST_SQL).get(userId, day);
  return row ? toRow(row) : undefined;
}

/** The tenant's snapshots from `fromDay` on, oldest first. */
export async function snapshotsSince(
  userId: string,
  fromDay: string,
  conn?: SnapshotConnection,
): Promise<SnapshotRow[]> {
  const target = postgresTarget(conn);
  if (target) return snapshotsSincePg(target, userId, fromDay);
  return statementsOf(conn)<Record<keyof SnapshotRow, unknown>>(SINCE_SQL).all(userId, fromDay).map(toRow);
}

/** Writes the tenant's rows, each replacing the row of its day. */
export async function upsertSnapshots(userId: string, rows: SnapshotRow[], conn: SnapshotConnection): Promise<void> {
  const target = postgresTarget(conn);
  if (target) return upsertSnapshotsPg(target, userId, rows);
  const upsert = statementsOf(conn)(UPSERT_SQL);
  for (const r of rows) {
    upsert.run(r.day, r.takenAt, r.customers, r.segments, r.campaigns, r.customersAdded, r.campaignsSent, userId);
  }
}

/** Every tenant's id, in order. */
export async function tenantIds(conn: SnapshotConnection): Promise<string[]> {
  const target = postgresTarget(conn);
  if (target) return tenantIdsPg(target);
  return statementsOf(conn)<{ id: string }>(`SELECT "id" FROM "User" ORDER BY "id"`)
    .all()
    .map((u) => u.id);
}

/**
 * Runs `work` in one write transaction of the job's connection, taken before its first read
 * (BEGIN IMMEDIATE on SQLite, REPEATABLE READ on PostgreSQL), so a tenant's counts and the rows
 * written from them agree; `work` runs its queries on the transaction it is given. On SQLite that
 * is the connection itself, the job's alone: nothing else runs statements on it while `work`
 * awaits. On PostgreSQL `work` may run again from the start after a retryable failure.
 */
export async function inSnapshotTransaction<T>(
  conn: SnapshotJobConnection,
  work: (tx: SnapshotConnection) => Promise<T>,
): Promise<T> {
  if (isPostgres(conn)) return inSnapshotTransactionPg(conn, work);
  // A second caller on the same connection would run its statements inside this transaction.
  if (conn.inTransaction)
    throw new Error("The snapshot connection is in a transaction already: run one snapshot at a time.");
  conn.exec("BEGIN IMMEDIATE");
  try {
    const result = await work(conn);
    conn.exec("COMMIT");
    return result;
  } catch (error) {
    if (conn.inTransaction) conn.exec("ROLLBACK");
    throw error;
  }
}

/**
 * Runs the snapshots job's `work` once across every instance: on PostgreSQL under an advisory lock,
 * null (nothing done) while another instance's run holds it. On SQLite one process is the only
 * writer: `work` runs.
 */
export async function withSnapshotsLock<T>(conn: SnapshotJobConnection, work: () => Promise<T>): Promise<T | null> {
  if (isPostgres(conn)) return withSnapshotsLockPg(conn, work);
  return work();
}
