// Claims of the delivery queue, the checks before each message goes, and the send rate: the row
// types and the helpers that are the same on both engines (app/models/deliveries/claims/).
import { DEFAULT_TIME_ZONE, formatShortDate } from "~/lib/dates";

/** A row a claim took: whom to send to, and the attempt number that is the claim's lease token. */
export type ClaimedDelivery = {
  seq: number;
  campaignId: string;
  customerId: string;
  name: string;
  email: string;
  phone: string;
  attempts: number;
  retries: number;
};

export type ClaimOptions = { campaignId: string; limit: number; now: number; leaseMs: number };

/** A claim's limit is written into the statement (SQLite) or bound (PostgreSQL): a positive integer. */
export function checkClaimLimit(limit: number): void {
  if (!Number.isSafeInteger(limit) || limit < 1)
    throw new RangeError(`claim limit must be a positive integer, not ${limit}`);
}

/** The day of a suppression as its details say it, in the tenant's zone (India's when it chose none). */
export function suppressionDay(ms: number, timeZone: string | null): string {
  try {
    return formatShortDate(ms, timeZone ?? DEFAULT_TIME_ZONE);
  } catch {
    return formatShortDate(ms, DEFAULT_TIME_ZONE);
  }
}

/** A check of a claimed row: still this claim's (seq, attempt number), its lease running past `until`. */
export type ClaimCheck = (seq: number, attempts: number, until: number) => boolean;

/** A bucket: `perSecond` tokens a second, holding at most `perSecond`. */
export type SendRate = { channel: string; perSecond: number };

export type SendRateBucket = {
  /** Takes up to `want` whole tokens at `now`; resolves with how many it got (0 when it is short of one). */
  take(want: number, now: number): Promise<number>;
  /** Gives back tokens taken but not used (the claim found fewer rows), up to a second's worth in all. */
  giveBack(unused: number, now: number): Promise<void>;
};

/** The tokens a bucket holds at `now`: what it held, refilled since, at most a second's worth. */
export function refilled(tokens: number, refilledAt: number, now: number, perSecond: number): number {
  return Math.min(perSecond, tokens + (Math.max(0, now - refilledAt) / 1000) * perSecond);
}
