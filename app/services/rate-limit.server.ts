// A fixed-window limit on sign-in attempts per client address (docs/rules.md#sign-in-and-sessions):
// SIGN_IN_RATE_LIMIT attempts a minute, counted across every worker of the server and, on
// PostgreSQL, across every instance on the database (app/models/sign-in-attempts/).
import { getEnv } from "~/env.server";
import { signInAttempts } from "~/models/sign-in-attempts/store.server";

const WINDOW_MS = 60_000;
export const TOO_MANY_SIGN_INS = "Too many sign-in attempts. Wait a minute and try again.";

/**
 * The caller's address as the server saw it: Express's req.ip (which honours X-Forwarded-For only
 * from private-network proxies), handed over in the load context by server/index.ts.
 */
export function clientAddress(context: { clientIp?: string } | undefined): string {
  return context?.clientIp || "unknown";
}

/** Counts the attempt; resolves with a message when the caller has tried too often, else null. */
export async function checkSignInRate(
  key: string,
  now = Date.now(),
  max = getEnv().SIGN_IN_RATE_LIMIT,
): Promise<string | null> {
  return (await signInAttempts.countSignInAttempt(key, now, WINDOW_MS)) > max ? TOO_MANY_SIGN_INS : null;
}
