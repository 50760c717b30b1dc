// Sign-in attempts per client address, counted in fixed windows: an address's window starts with
// its first attempt and ends `windowMs` later; the first attempt after that starts a new one. The
// rule that uses the count (the limit, the message) is app/services/rate-limit.server.ts
// (docs/rules.md#sign-in-and-sessions).
//
// Where the counters live is the engine's question. On PostgreSQL they are rows of the table
// SignInAttempt, so every instance of the product (several machines on one database) counts each
// address together (./postgres.server.ts). On SQLite the product is one server: one database file
// on one machine, whose workers already count together in memory, each attempt told to the others
// over the process bus (./sqlite.server.ts). Writing each attempt there would queue it behind the
// one writer (decision 0020), and a flood of attempts from one address would hold the writer the
// customers' writes need.
import type { AnyConnection } from "~/db/connection.server";

export type SignInAttemptsStore = {
  /**
   * Counts an attempt from `key` at `now`; resolves with the attempts of its current window, this
   * one included. On PostgreSQL on `connection` when given (another instance's pool, in the
   * tests), else on the process's pool; SQLite counts in memory and takes no connection.
   */
  countSignInAttempt(key: string, now: number, windowMs: number, connection?: AnyConnection): Promise<number>;
};
