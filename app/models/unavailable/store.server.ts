// Whether an error means the database cannot be reached right now (not that the request or our
// code is wrong): the request is then answered 503 with Retry-After, as /healthz says "Database
// unavailable" (app/lib/api.server.ts, unavailableAnswer). Both engines and both of PostgreSQL's
// pools: the raw pg pool (app/db/postgres.server.ts) fails with the socket's or the server's code,
// Prisma's adapter with its own codes or pg's message.
//
// A folder of app/models/ with this one file: it reads no table and has no engine body (one
// function reads every driver's errors, whichever engine runs), so it has no contract, engine files
// or engineDoor(). Not in app/db/, which the services and routes that ask it reach only through
// app/models/.
import { WriteLockTimeout, isBusy } from "~/db/write-gate.server";

/** The socket's codes of a server that is not there, or went away. */
const NETWORK_CODES = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "ECONNABORTED",
  "EPIPE",
  "ETIMEDOUT",
  "EHOSTUNREACH",
  "EHOSTDOWN",
  "ENETUNREACH",
  "ENOTFOUND",
  "EAI_AGAIN",
]);

/**
 * PostgreSQL's SQLSTATEs: class 08 (connection exception), the server shutting down or starting
 * (57P01-57P03), too many connections (53300), the database gone (3D000).
 */
const POSTGRES_STATES = /^(08...|57P0[123]|53300|3D000)$/;

/**
 * Prisma's: the server cannot be reached (P1001), timed out (P1002, P1008), closed the connection
 * (P1017), no connection free in the pool in time (P2024).
 */
const PRISMA_CODES = new Set(["P1001", "P1002", "P1008", "P1017", "P2024"]);

/** The kinds of a Prisma driver adapter's error that say the same. */
const ADAPTER_KINDS = new Set([
  "DatabaseNotReachable",
  "DatabaseDoesNotExist",
  "ConnectionClosed",
  "SocketTimeout",
  "TooManyConnections",
]);

/** pg's own messages, which carry no code. */
const PG_MESSAGES =
  /^(Connection terminated( unexpectedly| due to connection timeout)?|timeout exceeded when trying to connect|Client has encountered a connection error and is not queryable|Connection terminated by user)$/;

/** SQLite: the file cannot be opened, or stayed locked by another writer past the wait. */
const SQLITE_CODES = /^SQLITE_(CANTOPEN|BUSY)/;

function says(error: object): boolean {
  if (error instanceof WriteLockTimeout || isBusy(error)) return true;
  const { code, kind, name, message } = error as { code?: unknown; kind?: unknown; name?: unknown; message?: unknown };
  if (typeof code === "string") {
    if (NETWORK_CODES.has(code) || PRISMA_CODES.has(code) || POSTGRES_STATES.test(code) || SQLITE_CODES.test(code))
      return true;
  }
  if (typeof kind === "string" && ADAPTER_KINDS.has(kind)) return true;
  if (name === "PrismaClientInitializationError") return true;
  return typeof message === "string" && PG_MESSAGES.test(message.trim());
}

/** True when `error` (or what caused it: `cause`, a driver adapter's error, every error of an AggregateError) says the database is out of reach. */
export function isDatabaseUnavailable(error: unknown): boolean {
  const seen = new Set<unknown>();
  const queue: unknown[] = [error];
  while (queue.length) {
    const next = queue.shift();
    if (!next || typeof next !== "object" || seen.has(next) || seen.size > 16) continue;
    seen.add(next);
    if (says(next)) return true;
    const { cause, errors } = next as { cause?: unknown; errors?: unknown };
    queue.push(cause);
    if (Array.isArray(errors)) queue.push(...errors);
  }
  return false;
}
