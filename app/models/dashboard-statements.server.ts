// The statements of the dashboard models, for the two connections their queries run on: the
// request thread's read connection (its cached statements, app/db/reader.server.ts) and the
// connection the snapshots job opened for itself. Internal to app/models/dashboard-*.server.ts.
import type Database from "better-sqlite3";
import { readStatement } from "~/db/reader.server";
import type { Connection } from "~/models/transaction.server";

/** Prepares (and caches) one statement whose rows are `Row`. */
export type Prepare = <Row>(sql: string) => Database.Statement<unknown[], Row>;

const caches = new WeakMap<Connection, Map<string, Database.Statement>>();

/** The statements of `conn` (each prepared once per connection), or of the read connection. */
export function statementsOf(conn?: Connection): Prepare {
  if (!conn) return readStatement;
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
