// Sign-in attempts per client address, counted in fixed windows: an address's window starts with
// its first attempt and ends `windowMs` later; the first attempt after that starts a new one. The
// rule that uses the count (the limit, the message) is app/services/rate-limit.server.ts
// (docs/rules.md#sign-in-and-sessions).
//
// Where the counters live is the engine's question. On PostgreSQL they are rows of the table
// SignInAttempt, so every instance of the product (several machines on one database) counts each
// address together. On SQLite the product is one server: one database file on one machine, whose
// workers already count together in memory, each attempt told to the others over the process bus.
// Writing each attempt there would queue it behind the one writer (decision 0020), and a flood of
// attempts from one address would hold the writer the customers' writes need.
import { databaseEngine } from "~/db/connection.server";
import { postgres } from "~/db/postgres.server";
import { countSignInAttemptPg } from "~/models/sign-in-attempts.postgres.server";
import { publish, subscribeOnce } from "~/services/process-bus.server";

const TOPIC = "sign-in-attempt";
type Attempt = { key: string; now: number; windowMs: number };
// The addresses this server counted lately; emptied when it holds too many (an attacker with
// 10,000 addresses only resets the count of the rest, as a window's end would).
const windows = new Map<string, { start: number; count: number }>();
const MAX_KEYS = 10_000;

function countInMemory({ key, now, windowMs }: Attempt) {
  const entry = windows.get(key);
  if (!entry || now - entry.start > windowMs) {
    if (windows.size >= MAX_KEYS) windows.clear();
    windows.set(key, { start: now, count: 1 });
  } else {
    entry.count += 1;
  }
}

// From the start, so the attempts other workers count before this one's first are not missed.
subscribeOnce<Attempt>("sign-in-rate", TOPIC, countInMemory);

/** Counts an attempt from `key` at `now`; resolves with the attempts of its current window, this one included. */
export async function countSignInAttempt(key: string, now: number, windowMs: number): Promise<number> {
  if (databaseEngine() === "postgres") return countSignInAttemptPg(postgres(), key, now, windowMs);
  // The bus calls this process's listener at once, and the other workers' soon after.
  publish(TOPIC, { key, now, windowMs } satisfies Attempt);
  return windows.get(key)?.count ?? 0;
}
