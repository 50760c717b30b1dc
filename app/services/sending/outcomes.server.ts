// What the channel's answer means for a delivery row (the delivery engine's rules,
// engine.server.ts): sent or delivered, held, bounced or failed, or tried again later with a
// delay that grows each attempt, until the attempts allowed are spent.
import type { ClaimedDelivery } from "~/models/deliveries/claims/store.server";
import type { SendOutcome } from "~/models/deliveries/receipts/rows";
import type { ChannelResult } from "~/services/sending/channel.server";
import type { EngineSettings } from "~/services/sending/engine-settings.server";

export type OutcomeRules = {
  settings: Pick<EngineSettings, "maxAttempts" | "maxDeferrals" | "retryBaseMs" | "maxRetryDelayMs">;
  /** Whether the channel sends receipts later (a vendor) or says all it will say when it accepts. */
  receipts: boolean;
  now: () => number;
};

/** The row's outcome; `jitter` (in [0.5, 1.5)) scales a retry's delay: one draw per batch. */
export function outcomeFor(
  rules: OutcomeRules,
  row: ClaimedDelivery,
  result: ChannelResult | undefined,
  jitter = 1,
): SendOutcome {
  if (!result) return retryOrFail(rules, row, "No answer from the channel for this message", true, jitter);
  // A channel without receipts (an SMTP relay) says all it will say when it accepts: that is the
  // delivery, so every rate means something for real mail.
  if (result.status === "accepted")
    return {
      seq: row.seq,
      attempts: row.attempts,
      outcome: rules.receipts ? "sent" : "delivered",
      details: result.details,
    };
  if (result.status === "held") return { seq: row.seq, attempts: row.attempts, outcome: "held" };
  if (result.status === "retry") return retryOrFail(rules, row, result.details, result.countsAsError, jitter);
  return { seq: row.seq, attempts: row.attempts, outcome: result.status, details: result.details, error: false };
}

function retryOrFail(
  { settings, now }: OutcomeRules,
  row: ClaimedDelivery,
  details: string,
  countsAsError: boolean,
  jitter: number,
): SendOutcome {
  const budget = countsAsError ? settings.maxAttempts : Math.max(settings.maxAttempts, settings.maxDeferrals);
  if (row.attempts >= budget) {
    return {
      seq: row.seq,
      attempts: row.attempts,
      outcome: "failed",
      details: `Gave up after ${row.attempts} attempts: ${details}`,
      error: countsAsError,
    };
  }
  // Exponential backoff with jitter: batches a relay deferred together do not all come back at the
  // same moment (a relay that said "slow down" to 300 messages would say it again).
  const delay = Math.round(
    Math.min(settings.maxRetryDelayMs, settings.retryBaseMs * 2 ** Math.min(30, row.attempts - 1)) * jitter,
  );
  return {
    seq: row.seq,
    attempts: row.attempts,
    outcome: "retry",
    details: `Attempt ${row.attempts} failed, retrying: ${details}`,
    retryAt: now() + delay,
    error: countsAsError,
  };
}

/**
 * A call to the channel that failed as a whole (no answer, a 5xx: every message retried for the
 * same reason) is one send error, not one per message in the batch: a moment's network trouble
 * must not pause a campaign whose batches are 500 messages.
 */
export function oneErrorPerFailedCall(outcomes: SendOutcome[], results: ChannelResult[]): SendOutcome[] {
  const first = results[0];
  const wholeBatch =
    first?.status === "retry" && results.every((r) => r.status === "retry" && r.details === first.details);
  if (!wholeBatch) return outcomes;
  let counted = false;
  return outcomes.map((o) => {
    if (!("error" in o) || !o.error) return o;
    if (counted) return { ...o, error: false };
    counted = true;
    return o;
  });
}
