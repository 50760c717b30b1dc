// The statements of the dashboard models, for the two connections their queries run on: the
// request thread's read connection (its cached statements, app/db/reader.server.ts) and the
// connection the snapshots job opened for itself. Internal to app/models/dashboard-*.server.ts.
// On PostgreSQL the same queries (their text in the *.postgres.server.ts beside each model) run on
// the process's pool, the job's own pool, or one client of it in a transaction: postgresTarget().
import type Database from "better-sqlite3";
import type pg from "pg";
import { type AnyConnection, databaseEngine } from "~/db/connection.server";
import { postgres, type Queryable } from "~/db/postgres.server";
import { readStatement } from "~/db/reader.server";
import type { Connection } from "~/models/transaction.server";

/** The snapshots job's transaction on PostgreSQL: the one client of its pool the transaction runs on. */
export type PostgresTransaction = { readonly engine: "postgres-transaction"; readonly client: pg.PoolClient };

/**
 * What a dashboard model function may be given to run on: the snapshots job's own connection
 * (either engine), or inside inSnapshotTransaction() its transaction. Without one, the process's
 * connections answer (the read connection on SQLite, the pool on PostgreSQL).
 */
export type DashboardConnection = AnyConnection | PostgresTransaction;

/**
 * The pool or client PostgreSQL answers `conn` on (the process's pool when none is given on
 * PostgreSQL), or null when SQLite answers: each dashboard model function begins with it.
 */
export function postgresTarget(conn?: DashboardConnection): Queryable | null {
  if (conn === undefined) return databaseEngine() === "postgres" ? postgres().pool : null;
  if (!("engine" in conn)) return null;
  return conn.engine === "postgres" ? conn.pool : conn.client;
}

/** Prepares (and caches) one statement whose rows are `Row`. */
export type Prepare = <Row>(sql: string) => Database.Statement<unknown[], Row>;

const caches = new WeakMap<Connection, Map<string, Database.Statement>>();

/** The statements of `conn` (each prepared once per connection), or of the read connection. */
export function statementsOf(conn?: DashboardConnection): Prepare {
  if (!conn) return readStatement;
  if ("engine" in conn) throw new Error("A PostgreSQL connection was given to the SQLite body of a dashboard query");
  let cache = caches.get(conn);
  if (!cache) {
    cache = new Map();
    caches.set(conn, cache);
  }
  const own = cache;
  return <Row>(sql: string) => {
    let st = own.get(sql);
    if (!st) {
      st = conn.prepare(sql);
      own.set(sql, st);
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

/**
 * The lowest id made in the second of `ms` or later: ids below it were made before that second
 * (ids begin with their creation second, app/lib/id.ts).
 */
export function idFloor(ms: number): string {
  return Math.max(0, Math.floor(ms / 1000))
    .toString(16)
    .padStart(8, "0")
    .concat("0000000000000000");
}
