// Bulk loads of customers on PostgreSQL (the seed, the CSV import): the twin of ./bulk-load.server.ts.
//
// Rows travel with COPY FROM STDIN into a temporary table of the load's own session, and go into
// "Customer" with one INSERT … SELECT a batch (which can say ON CONFLICT, as COPY cannot). Measured
// on 200,000 customer rows (the shared 2-core machine, load average 6 to 9 from other work), the
// transfer alone into a table without indexes: COPY 1.2–1.4 s, INSERT … SELECT FROM unnest($1::text[],
// …) in 100,000-row statements 3.0–4.0 s; each then the same INSERT … SELECT into "Customer".
//
// The indexes are kept during a load, unlike on SQLite. Dropping an index takes an ACCESS EXCLUSIVE
// lock on "Customer" until the load commits, so every reader of the table (the server's customer
// list) would wait for the whole load, where SQLite's readers keep the last committed state. And
// it seldom pays: 200,000 rows into a table of 600,000 took 32.6 s (unnest) and 35.9 s (COPY) with
// the indexes kept, 17.1 s and 11.5 s without them but 30.8–32.4 s more to build them again (the
// trigram GIN index most of it); rebuilding pays only for a load several times the table's size.
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import type pg from "pg";
import { from as copyFrom } from "pg-copy-streams";
import { openConnection } from "~/db/connection.server";
import type { Postgres } from "~/db/postgres.server";

/**
 * A connection of a bulk load's own: a pool of one and the client it holds for the whole load, so
 * its temporary tables and its transaction last from one model call to the next.
 */
export type PostgresSession = Postgres & {
  readonly client: pg.PoolClient;
  /** Transactions open on the client (the outer one and savepoints inside it). */
  depth: number;
  /** Whether the seed's temporary tables exist on the client (app/models/seed/postgres.server.ts). */
  seedTables?: boolean;
};

export function isPostgresSession(connection: object): connection is PostgresSession {
  return "client" in connection && "engine" in connection && connection.engine === "postgres";
}

/**
 * The longest one statement of a bulk load may take. A request's statements are cut at
 * DATABASE_STATEMENT_TIMEOUT_MS (30 s by default), but a load's statements over a whole tenant (the
 * seed's totals and figures over a million customers and three million orders) take minutes, and
 * a load is an admin's or a background job's, with its own progress to show.
 */
export const BULK_STATEMENT_TIMEOUT = "15min";

/** Opens a session on the configured PostgreSQL database (DATABASE_URL). */
export async function openPostgresSession(applicationName: string): Promise<PostgresSession> {
  const connection = openConnection({ poolSize: 1, applicationName });
  if (!("pool" in connection)) throw new Error("openPostgresSession: DATABASE_URL does not name PostgreSQL");
  const client = await connection.pool.connect();
  await client.query(`SET statement_timeout = '${BULK_STATEMENT_TIMEOUT}'`);
  return { ...connection, client, depth: 0 };
}

export async function closePostgresSession(session: PostgresSession): Promise<void> {
  session.client.release();
  await session.pool.end();
}

/**
 * Runs `work` in a transaction of the session: its own, or a savepoint inside the one open (a
 * batch of a load that is one transaction as a whole).
 */
export async function inSessionTransaction<T>(session: PostgresSession, work: () => Promise<T>): Promise<T> {
  const savepoint = session.depth > 0 ? `bulk_${session.depth}` : null;
  await session.client.query(savepoint ? `SAVEPOINT ${savepoint}` : "BEGIN");
  session.depth += 1;
  try {
    const result = await work();
    session.depth -= 1;
    await session.client.query(savepoint ? `RELEASE SAVEPOINT ${savepoint}` : "COMMIT");
    return result;
  } catch (error) {
    session.depth -= 1;
    await session.client.query(savepoint ? `ROLLBACK TO SAVEPOINT ${savepoint}` : "ROLLBACK");
    throw error;
  }
}

/** A value as COPY's text format writes it: \N for NULL, backslash escapes for \, tab, newline, CR. */
export function copyText(value: unknown): string {
  if (value === null || value === undefined) return "\\N";
  if (value instanceof Date) return value.toISOString();
  return String(value).replace(/[\\\t\n\r]/g, (ch) =>
    ch === "\\" ? "\\\\" : ch === "\t" ? "\\t" : ch === "\n" ? "\\n" : "\\r",
  );
}

/** Rows (arrays of values in `columns`' order) as COPY text, about 64 KB a piece. */
function* copyLines(rows: Iterable<readonly unknown[]>): Generator<string> {
  let piece = "";
  for (const row of rows) {
    piece += `${row.map(copyText).join("\t")}\n`;
    if (piece.length >= 65_536) {
      yield piece;
      piece = "";
    }
  }
  if (piece) yield piece;
}

/** COPY `rows` into `table` (`columns` quoted as given) on the client. */
export async function copyRows(
  client: pg.PoolClient,
  table: string,
  columns: readonly string[],
  rows: Iterable<readonly unknown[]>,
): Promise<void> {
  const target = client.query(copyFrom(`COPY ${table} (${columns.join(", ")}) FROM STDIN`));
  await pipeline(Readable.from(copyLines(rows)), target);
}

/** A COPY held open while rows arrive (the import's staging), written a piece at a time. */
export type CopyWriter = {
  write(rows: Iterable<readonly unknown[]>): Promise<void>;
  /** Ends the COPY: its rows are in the table. */
  end(): Promise<void>;
  /** Abandons the COPY: none of its rows are kept. */
  abort(): Promise<void>;
};

export function openCopy(client: pg.PoolClient, table: string, columns: readonly string[]): CopyWriter {
  const target = client.query(copyFrom(`COPY ${table} (${columns.join(", ")}) FROM STDIN`));
  let failure: Error | null = null;
  const finished = new Promise<void>((resolve, reject) => {
    target.on("finish", resolve);
    target.on("error", (error: Error) => {
      failure = error;
      reject(error);
    });
  });
  // Observed only through end() and abort(); a failure also stops write() at once.
  finished.catch(() => undefined);
  return {
    async write(rows) {
      for (const piece of copyLines(rows)) {
        if (failure) throw failure;
        if (!target.write(piece)) await new Promise<void>((resolve) => target.once("drain", resolve));
      }
    },
    async end() {
      target.end();
      await finished;
    },
    async abort() {
      if (!target.destroyed) target.destroy(new Error("The import was stopped"));
      await finished.catch(() => undefined);
    },
  };
}

/** The customer rows in the table now (every tenant's), from the kept tallies. */
export async function customerTableRowsPg(db: Postgres | pg.PoolClient): Promise<number> {
  const target = "engine" in db ? db.pool : db;
  const { rows } = await target.query<{ n: number }>(
    `SELECT coalesce(sum("customers"), 0)::bigint AS n FROM "CustomerTally"`,
  );
  return Number(rows[0]?.n ?? 0);
}
