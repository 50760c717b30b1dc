// A fixed-window limit on sign-in attempts per client address, kept in memory. Every attempt is
// published on the process bus, so the workers of one server count together (an address cannot
// get a limit per worker by spreading its attempts over them).
import { getEnv } from "~/env.server";
import { publish, subscribeOnce } from "~/services/process-bus.server";

const WINDOW_MS = 60_000;
const TOPIC = "sign-in-attempt";
type Attempt = { key: string; now: number };
const hits = new Map<string, { start: number; count: number }>();

function count({ key, now }: Attempt) {
  const entry = hits.get(key);
  if (!entry || now - entry.start > WINDOW_MS) {
    if (hits.size >= 10_000) hits.clear();
    hits.set(key, { start: now, count: 1 });
  } else {
    entry.count += 1;
  }
}

/**
 * The caller's address as the server saw it: Express's req.ip (which honours X-Forwarded-For only
 * from private-network proxies), handed over in the load context by server/index.ts.
 */
export function clientAddress(context: { clientIp?: string } | undefined): string {
  return context?.clientIp || "unknown";
}

// From the start, so the attempts other workers count before this one's first are not missed.
subscribeOnce<Attempt>("sign-in-rate", TOPIC, count);

/** Returns a message when the caller has tried too often, else counts the attempt. */
export function checkSignInRate(key: string, now = Date.now(), max = getEnv().SIGN_IN_RATE_LIMIT): string | null {
  // Counted here at once (the bus calls this process's listener synchronously) and in the other workers.
  publish(TOPIC, { key, now } satisfies Attempt);
  if ((hits.get(key)?.count ?? 0) > max) return "Too many sign-in attempts. Wait a minute and try again.";
  return null;
}
