// A fixed-window limit on sign-in attempts per client address, kept in memory (per instance).
import { getEnv } from "~/env.server";

const WINDOW_MS = 60_000;
const hits = new Map<string, { start: number; count: number }>();

/**
 * The caller's address as the server saw it: Express's req.ip (which honours X-Forwarded-For only
 * from private-network proxies), handed over in the load context by server/index.ts.
 */
export function clientAddress(context: { clientIp?: string } | undefined): string {
  return context?.clientIp || "unknown";
}

/** Returns a message when the caller has tried too often, else counts the attempt. */
export function checkSignInRate(key: string, now = Date.now(), max = getEnv().SIGN_IN_RATE_LIMIT): string | null {
  const entry = hits.get(key);
  if (!entry || now - entry.start > WINDOW_MS) {
    hits.set(key, { start: now, count: 1 });
    if (hits.size > 10_000) hits.clear();
    return null;
  }
  entry.count += 1;
  if (entry.count > max) return "Too many sign-in attempts. Wait a minute and try again.";
  return null;
}
