// Raw SQL in a test, on either engine: what a test reads or changes behind the models' backs (the
// rows as stored, a date moved into the past) on the connection useTestConnection() gives. The SQL
// is written once with `?` placeholders, as on SQLite; on PostgreSQL they become $1, $2, …
// (a `?` inside a quoted string is left alone). Rows come back in the pool's shapes, which are
// SQLite's (dates as unix ms, counts as numbers); a boolean column reads as 0/1 on SQLite and
// true/false on PostgreSQL, so a test that reads one casts it (`"machine"::int` is no SQLite).
import type { AnyConnection } from "~/db/connection.server";
import { isPostgres } from "~/db/connection.server";
import { openPostgres, query } from "~/db/postgres.server";
import { openSqlite } from "~/db/sqlite.server";

/**
 * A connection of the test's own to a database it names itself, not the environment's: a SQLite
 * file's path or a postgres:// URL (a server the test started, an e2e server's database). Closed
 * with closeConnection().
 */
export function openSqlConnection(target: string): AnyConnection {
  return /^postgres(ql)?:\/\//.test(target)
    ? openPostgres(target, { poolSize: 2, statementTimeoutMs: 30_000, lockTimeoutMs: 10_000 })
    : openSqlite(target);
}

/** `?` placeholders as PostgreSQL's $n, outside quoted strings and names. */
export function numbered(sql: string): string {
  let n = 0;
  let quote: string | null = null;
  let out = "";
  for (const ch of sql) {
    if (quote) {
      if (ch === quote) quote = null;
    } else if (ch === "'" || ch === '"') quote = ch;
    else if (ch === "?") {
      out += `$${++n}`;
      continue;
    }
    out += ch;
  }
  return out;
}

/** Every row the statement gives. */
export async function sqlRows<Row extends Record<string, unknown>>(
  connection: AnyConnection,
  sql: string,
  params: readonly unknown[] = [],
): Promise<Row[]> {
  if (isPostgres(connection)) return query<Row>(connection, numbered(sql), params);
  return connection.prepare<unknown[], Row>(sql).all(...params);
}

/** The first row, or undefined. */
export async function sqlRow<Row extends Record<string, unknown>>(
  connection: AnyConnection,
  sql: string,
  params: readonly unknown[] = [],
): Promise<Row | undefined> {
  return (await sqlRows<Row>(connection, sql, params))[0];
}

/** The first column of the first row, or undefined. */
export async function sqlValue<T>(
  connection: AnyConnection,
  sql: string,
  params: readonly unknown[] = [],
): Promise<T | undefined> {
  const row = await sqlRow(connection, sql, params);
  return row === undefined ? undefined : (Object.values(row)[0] as T);
}

/** Runs a statement that changes rows; returns how many it changed. */
export async function sqlRun(connection: AnyConnection, sql: string, params: readonly unknown[] = []): Promise<number> {
  if (isPostgres(connection)) return (await connection.pool.query(numbered(sql), [...params])).rowCount ?? 0;
  return connection.prepare(sql).run(...params).changes;
}
