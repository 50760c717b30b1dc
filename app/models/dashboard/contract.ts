// What the dashboard's model offers (DashboardStore), and what its functions run on. The counts
// are each a range of an index, tenant first: customers by id (ids begin with their creation
// second, app/lib/id.ts, so "created in [from, to)" is an id range of the (userId, id) index),
// segments and campaigns by (userId, createdAt) and (userId, launchedAt); windows are whole
// seconds. The daily snapshots (table DashboardSnapshot) are read by the dashboard and written by
// the snapshots job on its own connection (app/services/dashboard/snapshots.server.ts).
import type pg from "pg";
import type { AnyConnection } from "~/db/connection.server";
import type {
  Added,
  Counts,
  Created,
  DashboardLimits,
  DashboardRows,
  SnapshotRow,
  Window,
} from "~/models/dashboard/rows";

/** The snapshots job's transaction on PostgreSQL: the one client of its pool the transaction runs on. */
export type PostgresTransaction = { readonly engine: "postgres-transaction"; readonly client: pg.PoolClient };

/**
 * What a dashboard function may be given to run on: the snapshots job's own connection, or inside
 * inSnapshotTransaction() its transaction. Without one, the process's connections answer (the read
 * connection on SQLite, the pool on PostgreSQL).
 */
export type DashboardConnection = AnyConnection | PostgresTransaction;

/** The connection the snapshots job opened for itself. */
export type SnapshotJobConnection = AnyConnection;

/**
 * What the snapshots service hands the model functions: the job's connection, or inside
 * inSnapshotTransaction() the transaction it was given.
 */
export type SnapshotConnection = DashboardConnection;

export type DashboardStore = {
  /** Customers, segments and campaigns created, and campaigns launched, in each window. */
  createdInWindows(userId: string, windows: Window[], connection?: DashboardConnection): Promise<Created[]>;
  /** Customers created and campaigns launched in each window: what the weekly series adds. */
  addedInWindows(userId: string, windows: Window[], connection?: DashboardConnection): Promise<Added[]>;
  /** The exact counts now: the kept customer tally (counted once when missing), segments, campaigns. */
  currentCounts(userId: string, connection?: DashboardConnection): Promise<Counts>;
  /**
   * What the dashboard lists besides its counts: the delivery totals over every campaign (from the
   * counters each keeps; complaints and the messages that reached a mailbox too, for the complaint
   * rate), the newest campaigns by launch (or creation), the newest launched ones, and the newest
   * segments and customers.
   */
  dashboardRows(userId: string, limits: DashboardLimits): Promise<DashboardRows>;
  /** The tenant's latest snapshot on or before `day` (of all of them when omitted). */
  latestSnapshot(userId: string, day?: string, connection?: SnapshotConnection): Promise<SnapshotRow | undefined>;
  /** The tenant's snapshots from `fromDay` on, oldest first. */
  snapshotsSince(userId: string, fromDay: string, connection?: SnapshotConnection): Promise<SnapshotRow[]>;
  /** Writes the tenant's rows, each replacing the row of its day. */
  upsertSnapshots(userId: string, rows: SnapshotRow[], connection: SnapshotConnection): Promise<void>;
  /** Every tenant's id, in binary order. */
  tenantIds(connection: SnapshotConnection): Promise<string[]>;
  /**
   * Runs `work` in one write transaction of the job's connection, taken before its first read
   * (BEGIN IMMEDIATE on SQLite, REPEATABLE READ on PostgreSQL), so a tenant's counts and the rows
   * written from them agree; `work` runs its queries on the transaction it is given. On SQLite that
   * is the connection itself, the job's alone: nothing else runs statements on it while `work`
   * awaits. On PostgreSQL `work` may run again from the start after a retryable failure.
   */
  inSnapshotTransaction<T>(connection: SnapshotJobConnection, work: (tx: SnapshotConnection) => Promise<T>): Promise<T>;
  /**
   * Runs the snapshots job's `work` once across every instance: on PostgreSQL under an advisory
   * lock, null (nothing done) while another instance's run holds it. On SQLite one process is the
   * only writer: `work` runs.
   */
  withSnapshotsLock<T>(connection: SnapshotJobConnection, work: () => Promise<T>): Promise<T | null>;
};
