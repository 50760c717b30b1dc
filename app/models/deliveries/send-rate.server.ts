// The send rate (DELIVERY_RATE_PER_SECOND) as a token bucket: up to a second's worth of messages may
// go at once, and the bucket refills continuously at the rate. The delivery engine takes tokens
// for a batch before claiming it and gives back what the claim did not use
// (app/services/delivery/engine.server.ts).
//
// Where the bucket lives is the engine's question, as for the sign-in counters
// (app/models/sign-in-attempts.server.ts). On PostgreSQL it is a row of SendRate per channel, so every
// instance's delivery job takes from one bucket and the rate holds for all of them together
// (a rate of 100 a second with three instances is 100, not 300). On SQLite the product
// is one server with one delivery job, which keeps its own bucket in memory: writing it would queue
// each batch's tokens behind the one writer (decision 0020).
import { type AnyConnection, isPostgres } from "~/db/connection.server";
import { returnSendTokensPg, takeSendTokensPg } from "~/models/deliveries/send-rate.postgres.server";

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

/**
 * The bucket a delivery engine takes from: on PostgreSQL the channel's row, shared with every
 * other instance; on SQLite one of the engine's own, full at first.
 */
export function sendRateBucket(connection: AnyConnection, rate: SendRate): SendRateBucket {
  if (isPostgres(connection)) {
    return {
      take: (want, now) => (want >= 1 ? takeSendTokensPg(connection, rate, Math.floor(want), now) : Promise.resolve(0)),
      giveBack: (unused, now) =>
        unused >= 1 ? returnSendTokensPg(connection, rate, Math.floor(unused), now) : Promise.resolve(),
    };
  }
  // Full at first, whatever the first clock reading.
  let tokens = rate.perSecond;
  let refilledAt = Number.NEGATIVE_INFINITY;
  const refill = (now: number) => {
    tokens = refilled(tokens, refilledAt, now, rate.perSecond);
    refilledAt = Math.max(refilledAt, now);
  };
  return {
    take: async (want, now) => {
      refill(now);
      const granted = Math.max(0, Math.min(Math.floor(want), Math.floor(tokens)));
      tokens -= granted;
      return granted;
    },
    giveBack: async (unused, now) => {
      refill(now);
      tokens = Math.min(rate.perSecond, tokens + Math.max(0, Math.floor(unused)));
    },
  };
}
