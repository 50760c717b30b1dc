// The dashboard on SQLite: the counts and lists on the request thread's read connection (its cached
// statements, app/db/reader.server.ts), or on the connection the snapshots job opened for itself,
// whose statements are prepared once per connection here.
import type Database from "better-sqlite3";
import { readStatement } from "~/db/reader.server";
import type { Sqlite } from "~/db/sqlite.server";
import { sqliteOf } from "~/db/engine.server";
import type { DashboardConnection, DashboardStore } from "~/models/dashboard/contract";
import {
  type Created,
  dashboardStatements,
  idFloor,
  LAST_DAY,
  readDashboardRows,
  type SnapshotRow,
  snapshotValues,
  UPSERT_SNAPSHOTS_SQL,
  type Window,
} from "~/models/dashboard/rows";

/** Prepares (and caches) one statement whose rows are `Row`. */
export type Prepare = <Row>(sql: string) => Database.Statement<unknown[], Row>;

const caches = new WeakMap<Sqlite, Map<string, Database.Statement>>();

/** The connection a dashboard function was given, as SQLite: never the transaction of PostgreSQL's job. */
function sqliteConnection(connection: DashboardConnection): Sqlite {
  if ("engine" in connection && connection.engine === "postgres-transaction")
    throw new Error("A PostgreSQL transaction reached SQLite's implementation.");
  return sqliteOf(connection);
}

/** The statements of `connection` (each prepared once per connection), or of the read connection. */
function statementsOf(connection?: DashboardConnection): Prepare {
  if (!connection) return readStatement;
  const own = sqliteConnection(connection);
  let cache = caches.get(own);
  if (!cache) {
    cache = new Map();
    caches.set(own, cache);
  }
  const statements = cache;
  return <Row>(sql: string) => {
    let st = statements.get(sql);
    if (!st) {
      st = own.prepare(sql);
      statements.set(sql, st);
    }
    // The cache holds statements of every shape; the caller's SQL decides the row type.
    return st as Database.Statement<unknown[], Row>;
  };
}

/**
 * The number a `SELECT … AS n` answers (undefined without a row). Statements of the read
 * connection are shared with other models, so none is switched to pluck mode here.
 */
export function countOf(prepare: Prepare, sql: string, ...params: unknown[]): number | undefined {
  const row = prepare<{ n: number | bigint | null }>(sql).get(...params);
  return row ? Number(row.n ?? 0) : undefined;
}

const CUSTOMERS_BETWEEN = `SELECT count(*) AS n FROM "Customer" WHERE "userId" = ? AND "id" >= ? AND "id" < ?`;
const SEGMENTS_BETWEEN = `SELECT count(*) AS n FROM "Segment" WHERE "userId" = ? AND "createdAt" >= ? AND "createdAt" < ?`;
const CAMPAIGNS_BETWEEN = `SELECT count(*) AS campaigns,
  (SELECT count(*) FROM "Campaign" WHERE "flowId" IS NULL AND "userId" = ? AND "launchedAt" >= ? AND "launchedAt" < ?) AS campaignsSent
  FROM "Campaign" WHERE "flowId" IS NULL AND "userId" = ? AND "createdAt" >= ? AND "createdAt" < ?`;
const LAUNCHED_BETWEEN = `SELECT count(*) AS n FROM "Campaign" WHERE "flowId" IS NULL AND "userId" = ? AND "launchedAt" >= ? AND "launchedAt" < ?`;

const SQL = dashboardStatements(() => "?");
const UPSERT_SNAPSHOT = UPSERT_SNAPSHOTS_SQL("(?, ?, ?, ?, ?, ?, ?, ?)");

function created(prepare: Prepare, userId: string, { from, to }: Window): Created {
  if (to <= from) return { customers: 0, segments: 0, campaigns: 0, campaignsSent: 0 };
  const customers = countOf(prepare, CUSTOMERS_BETWEEN, userId, idFloor(from), idFloor(to)) ?? 0;
  const segments = countOf(prepare, SEGMENTS_BETWEEN, userId, from, to) ?? 0;
  const c = prepare<{ campaigns: number; campaignsSent: number }>(CAMPAIGNS_BETWEEN).get(
    userId,
    from,
    to,
    userId,
    from,
    to,
  ) ?? { campaigns: 0, campaignsSent: 0 };
  return { customers, segments, campaigns: c.campaigns, campaignsSent: c.campaignsSent };
}

/** The columns as SQLite gives them back (integers may come as bigint), read as numbers. */
function toSnapshotRow(r: Record<keyof SnapshotRow, unknown>): SnapshotRow {
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

export const sqliteDashboard: DashboardStore = {
  async createdInWindows(userId, windows, connection) {
    const prepare = statementsOf(connection);
    return windows.map((w) => created(prepare, userId, w));
  },

  async addedInWindows(userId, windows, connection) {
    const prepare = statementsOf(connection);
    return windows.map(({ from, to }) =>
      to <= from
        ? { customersAdded: 0, campaignsSent: 0 }
        : {
            customersAdded: countOf(prepare, CUSTOMERS_BETWEEN, userId, idFloor(from), idFloor(to)) ?? 0,
            campaignsSent: countOf(prepare, LAUNCHED_BETWEEN, userId, from, to) ?? 0,
          },
    );
  },

  async currentCounts(userId, connection) {
    const prepare = statementsOf(connection);
    const tally = countOf(prepare, `SELECT "customers" AS n FROM "CustomerTally" WHERE "userId" = ?`, userId);
    const customers =
      tally === undefined
        ? (countOf(prepare, `SELECT count(*) AS n FROM "Customer" WHERE "userId" = ?`, userId) ?? 0)
        : Math.max(0, tally);
    const segments = countOf(prepare, `SELECT count(*) AS n FROM "Segment" WHERE "userId" = ?`, userId) ?? 0;
    const campaigns =
      countOf(prepare, `SELECT count(*) AS n FROM "Campaign" WHERE "flowId" IS NULL AND "userId" = ?`, userId) ?? 0;
    return { customers, segments, campaigns };
  },

  async dashboardRows(userId, limits) {
    const prepare = statementsOf();
    return readDashboardRows(
      <Row extends object>(sql: string, params: unknown[]) => prepare<Row>(sql).all(...params),
      SQL,
      userId,
      limits,
    );
  },

  async latestSnapshot(userId, day = LAST_DAY, connection) {
    const row = statementsOf(connection)<Record<keyof SnapshotRow, unknown>>(SQL.latestSnapshot).get(userId, day);
    return row ? toSnapshotRow(row) : undefined;
  },

  async snapshotsSince(userId, fromDay, connection) {
    return statementsOf(connection)<Record<keyof SnapshotRow, unknown>>(SQL.snapshotsSince)
      .all(userId, fromDay)
      .map(toSnapshotRow);
  },

  async upsertSnapshots(userId, rows, connection) {
    const upsert = statementsOf(connection)(UPSERT_SNAPSHOT);
    for (const r of rows) {
      upsert.run(...snapshotValues(userId, r));
    }
  },

  async tenantIds(connection) {
    return statementsOf(connection)<{ id: string }>(`SELECT "id" FROM "User" ORDER BY "id"`)
      .all()
      .map((u) => u.id);
  },

  async inSnapshotTransaction(connection, work) {
    const own = sqliteOf(connection);
    // A second caller on the same connection would run its statements inside this transaction.
    if (own.inTransaction)
      throw new Error("The snapshot connection is in a transaction already: run one snapshot at a time.");
    own.exec("BEGIN IMMEDIATE");
    try {
      const result = await work(own);
      own.exec("COMMIT");
      return result;
    } catch (error) {
      if (own.inTransaction) own.exec("ROLLBACK");
      throw error;
    }
  },

  // One process is SQLite's only writer: there is no other instance to keep out.
  async withSnapshotsLock(_connection, work) {
    return work();
  },
};
