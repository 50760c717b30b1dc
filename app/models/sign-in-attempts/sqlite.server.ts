// Sign-in attempts on SQLite: counted in this process's memory, each attempt told to the other
// workers over the process bus (why not in the database: ./contract.ts).
import type { SignInAttemptsStore } from "~/models/sign-in-attempts/contract";
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

export const sqliteSignInAttempts: SignInAttemptsStore = {
  async countSignInAttempt(key, now, windowMs) {
    // The bus calls this process's listener at once, and the other workers' soon after.
    publish(TOPIC, { key, now, windowMs } satisfies Attempt);
    return windows.get(key)?.count ?? 0;
  },
};
