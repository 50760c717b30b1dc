// The PostgreSQL side of the models' one door (docs/decisions/0033-postgresql-runtime.md): a pool
// per process (or per worker thread that opens its own, as the delivery job does on SQLite), the
// settings that bound it, and the one way to run a transaction.
//
// Rows come back in the shapes the SQLite side gives, so a model's two bodies return the same
// thing: timestamptz as unix milliseconds (SQLite keeps dates as integer ms), bigint and numeric
// as numbers (paise sums and counters stay far below 2^53).
import { createHash } from "node:crypto";
import pg from "pg";
import { getEnv } from "~/env.server";
import { singleton } from "~/lib/singleton.server";

/** A client or the pool: anything a statement can run on. */
export type Queryable = pg.Pool | pg.PoolClient;

/** The handle model functions are given on PostgreSQL (the twin of a better-sqlite3 connection). */
export type Postgres = { readonly engine: "postgres"; readonly pool: pg.Pool; readonly url: string };

export type PostgresSettings = {
  /** Connections the pool keeps at most. */
  poolSize: number;
  /** A statement running longer is cancelled by the server. */
  statementTimeoutMs: number;
  /** A wait for a row or table lock longer than this fails (and a transaction is retried). */
  lockTimeoutMs: number;
  /** Names the connections in pg_stat_activity. */
  applicationName?: string;
};

/**
 * The session settings of every connection (both pools): dates printed in UTC whatever zone initdb
 * took from the server's machine. Prisma's adapter reads a date printed with an offset in seconds
 * (India's zone before 1906: "+05:21:10") as an invalid Date; nothing here depends on the zone.
 */
export const SESSION_OPTIONS = "-c TimeZone=UTC";

const TIMESTAMPTZ = 1184;
const TIMESTAMP = 1114;
const INT8 = 20;
const NUMERIC = 1700;

const asNumber = (value: string) => Number(value);
const asMs = (value: string) => Date.parse(value.includes("T") ? value : value.replace(" ", "T"));

/** The parsers of this pool's connections (the global pg.types stay as Prisma's adapter expects them). */
const types = {
  getTypeParser(oid: number, format?: "text" | "binary") {
    if (format !== "binary") {
      if (oid === TIMESTAMPTZ) return asTimestampMs;
      if (oid === TIMESTAMP) return asMs;
      if (oid === INT8 || oid === NUMERIC) return asNumber;
    }
    return pg.types.getTypeParser(oid, format);
  },
} as pg.CustomTypesConfig;

// PostgreSQL's text form of a timestamptz (DateStyle ISO): "2026-11-26 10:31:02.123+05:30". The
// offset is the session's time zone's at that date, which initdb takes from the machine: India's
// was "+05:21:10" before 1906, in seconds, which Date.parse refuses; so are a year past 9999 and
// " BC" (a lastActive is any date JavaScript can read).
const TIMESTAMPTZ_TEXT =
  /^(\d{4,})-(\d\d)-(\d\d) (\d\d):(\d\d):(\d\d)(?:\.(\d+))?([+-])(\d\d)(?::(\d\d))?(?::(\d\d))?( BC)?$/;

/** A timestamptz as PostgreSQL prints it, as unix milliseconds (microseconds cut, as Date.parse does). */
function asTimestampMs(value: string): number {
  const m = TIMESTAMPTZ_TEXT.exec(value);
  if (!m) return Date.parse(value);
  const [, year, month, day, hour, minute, second, fraction = "", sign, oh, om = "0", os = "0", bc] = m;
  const at = new Date(0);
  // setUTCFullYear, not Date.UTC, which reads years 0 to 99 as 1900 to 1999.
  at.setUTCFullYear(bc ? 1 - Number(year) : Number(year), Number(month) - 1, Number(day));
  at.setUTCHours(Number(hour), Number(minute), Number(second), Number(fraction.padEnd(3, "0").slice(0, 3)));
  const offsetMs = (Number(oh) * 3600 + Number(om) * 60 + Number(os)) * 1000;
  return at.getTime() - (sign === "-" ? -offsetMs : offsetMs);
}

export function openPostgres(url: string, settings: PostgresSettings): Postgres {
  const pool = new pg.Pool({
    connectionString: url,
    max: settings.poolSize,
    types,
    application_name: settings.applicationName ?? "crm",
    options: SESSION_OPTIONS,
    statement_timeout: settings.statementTimeoutMs,
    lock_timeout: settings.lockTimeoutMs,
    idle_in_transaction_session_timeout: Math.max(settings.statementTimeoutMs, 60_000),
    connectionTimeoutMillis: 10_000,
    idleTimeoutMillis: 30_000,
    // A connection keeps the statements prepared on it (query's `prepare`) until it closes: one
    // that is never idle for long is replaced after an hour, so their number stays bounded.
    maxLifetimeSeconds: 3_600,
    keepAlive: true,
  });
  // A connection the server dropped while idle in the pool: the pool discards it and the next
  // query opens another; without a listener the error would end the process.
  pool.on("error", () => undefined);
  return { engine: "postgres", pool, url };
}

/** The settings from the environment (DATABASE_POOL_SIZE, DATABASE_*_TIMEOUT_MS). */
export function postgresSettings(overrides: Partial<PostgresSettings> = {}): PostgresSettings {
  const env = getEnv();
  return {
    poolSize: env.DATABASE_POOL_SIZE,
    statementTimeoutMs: env.DATABASE_STATEMENT_TIMEOUT_MS,
    lockTimeoutMs: env.DATABASE_LOCK_TIMEOUT_MS,
    ...overrides,
  };
}

// Kept across a development reload of this module, which would otherwise open a second pool.
const holder = singleton("postgres-pool", () => ({ current: undefined as Postgres | undefined }));

/** The process's pool for the configured database (DATABASE_URL=postgres://…). */
export function postgres(): Postgres {
  const url = getEnv().databaseUrl;
  if (holder.current && holder.current.url === url) return holder.current;
  if (holder.current) void holder.current.pool.end().catch(() => undefined);
  holder.current = openPostgres(url, postgresSettings());
  return holder.current;
}

/** Ends the process's pool (tests, shutdown). */
export async function closePostgres(): Promise<void> {
  const current = holder.current;
  holder.current = undefined;
  if (current) await current.pool.end();
}

/** SQLSTATEs after which the whole transaction may be run again: nothing of it was kept. */
const RETRYABLE = new Set([
  "40001", // serialization_failure
  "40P01", // deadlock_detected
  "55P03", // lock_not_available (lock_timeout)
  "57P01", // admin_shutdown (a server restart)
  "57P02", // crash_shutdown
  "57P03", // cannot_connect_now (starting up)
  "08000", // connection_exception
  "08003", // connection_does_not_exist
  "08006", // connection_failure
]);
const RETRYABLE_CODES = new Set(["ECONNRESET", "ECONNREFUSED", "EPIPE", "ETIMEDOUT"]);

/** Whether an error means "try the transaction again" (a lost connection, a deadlock, a lock timeout). */
export function isRetryable(error: unknown): boolean {
  const code = (error as { code?: string } | null)?.code;
  if (code && (RETRYABLE.has(code) || RETRYABLE_CODES.has(code))) return true;
  const message = (error as Error | null)?.message ?? "";
  return /Connection terminated|connection timeout|Client has encountered a connection error/i.test(message);
}

/** Whether the database could not be reached at all (for /healthz and clear messages). */
export function isUnreachable(error: unknown): boolean {
  const code = (error as { code?: string } | null)?.code;
  return (
    code === "ECONNREFUSED" ||
    code === "ENOTFOUND" ||
    code === "57P03" ||
    /Connection terminated|connection timeout/i.test((error as Error | null)?.message ?? "")
  );
}

export type TransactionOptions = {
  /** Attempts in all for a retryable failure (default 5). */
  attempts?: number;
  /** The first retry's delay in ms, doubled each time (default 20), with jitter. */
  backoffMs?: number;
};

/**
 * Runs `work` in one transaction on a client of the pool. A retryable failure (deadlock, lock
 * timeout, a connection the server dropped) rolls back and runs `work` again from the start, so
 * `work` must do nothing outside the database that it cannot repeat.
 */
export async function transaction<T>(
  db: Postgres,
  work: (client: pg.PoolClient) => Promise<T>,
  options: TransactionOptions = {},
): Promise<T> {
  const attempts = options.attempts ?? 5;
  const backoff = options.backoffMs ?? 20;
  for (let attempt = 1; ; attempt++) {
    let client: pg.PoolClient | undefined;
    let broken = false;
    // A connection lost while checked out (the database went away between two statements) is
    // reported as an error event as well as to the statement: without a listener it would end
    // the process. The statement's own error rolls the transaction back.
    const lost = () => {
      broken = true;
    };
    try {
      client = await db.pool.connect();
      client.on("error", lost);
      await client.query("BEGIN");
      const result = await work(client);
      await client.query("COMMIT");
      return result;
    } catch (error) {
      if (client) {
        try {
          await client.query("ROLLBACK");
        } catch {
          broken = true; // the connection is gone: the pool must not hand it out again
        }
      }
      if (attempt >= attempts || !isRetryable(error)) throw error;
      await new Promise((r) => setTimeout(r, backoff * 2 ** (attempt - 1) * (0.5 + Math.random())));
    } finally {
      client?.removeListener("error", lost);
      client?.release(broken);
    }
  }
}

export type QueryOptions = {
  /**
   * Prepare the statement once per connection under a name made from its text, and run it by name
   * from then on: PostgreSQL parses and plans it once instead of on every call (decision 0035:
   * 0.30 ms of the server's CPU for a customer's detail unnamed, 0.065 ms named). For the
   * statements on every request whose text is fixed. Not for a segment's count or page, whose best
   * plan depends on the tenant's numbers: after five runs PostgreSQL may keep one generic plan.
   */
  prepare?: boolean;
};

// Statement texts and their names: a name is a digest of the text, so one text always has one
// name on every connection, and two texts never share one.
const statementNames = new Map<string, string>();
const STATEMENT_NAMES_KEPT = 2_000;

function statementName(sql: string): string {
  let name = statementNames.get(sql);
  if (name === undefined) {
    if (statementNames.size >= STATEMENT_NAMES_KEPT) statementNames.clear();
    name = `crm_${createHash("sha1").update(sql).digest("base64url")}`;
    statementNames.set(sql, name);
  }
  return name;
}

/** Runs one statement outside a transaction, again after a lost connection (reads and idempotent writes only). */
export async function query<Row extends pg.QueryResultRow>(
  db: Postgres | Queryable,
  sql: string,
  params: readonly unknown[] = [],
  options: QueryOptions = {},
): Promise<Row[]> {
  const target = "engine" in db ? db.pool : db;
  const inTransaction = !(target instanceof pg.Pool);
  const statement: pg.QueryConfig = { text: sql, values: params as unknown[] };
  if (options.prepare) statement.name = statementName(sql);
  for (let attempt = 1; ; attempt++) {
    try {
      return (await target.query<Row>(statement)).rows;
    } catch (error) {
      if (inTransaction || attempt >= 3 || !isRetryable(error)) throw error;
      await new Promise((r) => setTimeout(r, 50 * attempt));
    }
  }
}
