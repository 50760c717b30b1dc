// The delivery engine: drains the delivery table of every active campaign through a channel.
//
// One loop claims a batch of due rows (app/models/deliveries/claims/: a lease, no lock
// held), personalises each message, hands the batch to the channel and records what it said
// (app/models/deliveries/receipts/), with up to
// `concurrency` batches out at once and at most `ratePerSecond` messages a second. Transient
// failures are retried with a growing delay up to `maxAttempts`; send errors past `errorCap`
// pause the campaign. Runs in the delivery job's worker thread with its own connection; tests run
// it in-process. It also applies the receipts the endpoint queued (one writer for the delivery
// rows, off the thread that answers requests).
//
// Beside it: its settings and events (engine-settings.server.ts), each batch's messages
// (campaign-mail.server.ts), what an answer means for its row (outcomes.server.ts) and the answers
// of one event-loop turn recorded together (turn-recording.server.ts). Here: the loop, the batches
// handed to the channel, the checks before each message goes and the outcomes written.
import { deliveryKey } from "~/lib/campaigns";
import { campaigns, type SendingCampaign } from "~/models/campaigns/store.server";
import { type ClaimedDelivery, deliveryClaims, keepClaimed } from "~/models/deliveries/claims/store.server";
import type { SendOutcome } from "~/models/deliveries/receipts/rows";
import { deliveryReceipts } from "~/models/deliveries/receipts/store.server";
import type { AnyConnection } from "~/models/transaction/store.server";
import { campaignMails } from "~/services/sending/campaign-mail.server";
import type { ChannelResult, DeliveryChannel, SendControl } from "~/services/sending/channel.server";
import {
  DEFAULT_ENGINE_SETTINGS,
  type DeliveryEngine,
  type EngineEvent,
  type EngineSettings,
} from "~/services/sending/engine-settings.server";
import { oneErrorPerFailedCall, outcomeFor } from "~/services/sending/outcomes.server";
import { turnRecorder } from "~/services/sending/turn-recording.server";

/**
 * A moment with the write lock free: the thread that answers requests asks for the lock every
 * millisecond while it waits (app/db/write-gate.server.ts), and back-to-back transactions here
 * would leave it no gap to take it.
 */
const letOthersWrite = () => new Promise<void>((resolve) => setTimeout(resolve, 1));
/** A batch for a channel with few connections: this many messages per connection. */
const MESSAGES_PER_CONNECTION = 20;
/** Outcomes recorded a transaction: about a millisecond of the write lock. */
const OUTCOMES_PER_TRANSACTION = 100;

/** The shortest wait before an engine that found the send rate's bucket empty asks it again. */
const RATE_RETRY_MS = 50;

export function createDeliveryEngine(options: {
  connection: AnyConnection;
  channel: DeliveryChannel;
  settings?: Partial<EngineSettings>;
  onEvent?: (event: EngineEvent) => void;
  now?: () => number;
  /** A number in [0, 1): the retry delays' jitter. */
  random?: () => number;
}): DeliveryEngine {
  const settings = { ...DEFAULT_ENGINE_SETTINGS, ...options.settings };
  const { connection, channel } = options;
  const receiptsPerCall = deliveryReceipts.receiptBatchesPerCall(connection);
  const now = options.now ?? Date.now;
  const random = options.random ?? Math.random;
  const emit = (event: EngineEvent) => options.onEvent?.(event);

  let stopping = false;
  let wakeUp: (() => void) | null = null;
  const inFlight = new Set<Promise<void>>();
  let finished: Promise<void> | null = null;

  // The rate limit's bucket, one a channel: in the database on PostgreSQL, so every instance's
  // engine takes from the same one (~/models/deliveries/claims/).
  const rate = settings.ratePerSecond
    ? deliveryClaims.sendRateBucket(connection, { channel: channel.name, perSecond: settings.ratePerSecond })
    : null;

  const sleep = (ms: number) =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(() => {
        wakeUp = null;
        resolve();
      }, ms);
      wakeUp = () => {
        clearTimeout(timer);
        wakeUp = null;
        resolve();
      };
    });

  // The checks made before each message goes (set when the loop starts, before any batch is out).
  let statusOf: (campaignId: string) => string | null = () => null;
  let stillClaimed: (seq: number, attempts: number, until: number) => boolean = () => false;
  let stillClaimedAtText: (seq: number, attempts: number, until: number) => boolean = () => false;
  // Answers the channel gave whose recording failed (the database unreachable), until their batch
  // has written them: while there are any, nothing more is handed over, so what an outage can send
  // twice is what a crash can (the messages out at that moment), not what went while it lasted.
  let unrecorded = 0;
  const waitFor = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
  /**
   * Records outcomes, tried again while the database is unreachable (up to `until`, the claim's
   * lease, or the engine's stop): answers the channel gave are written once it is back, instead of
   * their rows being claimed and sent again when the lease runs out.
   */
  const recordUntilWritten = async (campaignId: string, outcomes: SendOutcome[], until: number) => {
    for (let wait = 50; ; wait = Math.min(wait * 2, 1_000)) {
      try {
        await deliveryReceipts.recordOutcomes(connection, campaignId, outcomes, now());
        return;
      } catch (error) {
        if (stopping || now() + wait >= until) throw error;
        await waitFor(wait);
      }
    }
  };

  const rules = { settings, receipts: channel.receipts, now };

  const mails = campaignMails(connection);
  const turns = turnRecorder({ connection, now, emit });

  const sendBatch = async (campaign: SendingCampaign, rows: ClaimedDelivery[]) => {
    const { messages, refused } = await (await mails.of(campaign)).write(rows);
    const keyOf = (row: ClaimedDelivery) => deliveryKey(row.campaignId, row.seq, row.retries);
    const rowOf = new Map(rows.map((row) => [keyOf(row), row]));
    // The rows are this claim's until then: the outcomes are tried again until it.
    const leaseEnds = now() + settings.leaseMs;
    /** Answers of this batch whose recording failed, counted in `unrecorded` until the batch writes them. */
    let failedHere = 0;
    const recorded = new Set<string>();
    const recordings = new Set<Promise<void>>();
    const control: SendControl = {
      // Asked before each message goes: after a pause or cancel is answered, nothing more does.
      // A row goes only with at least half its lease left, so no other claim can take it while
      // it is sent; one that waited longer for a connection goes back to the queue instead.
      proceed: (key) => {
        if (stopping || unrecorded > 0 || statusOf(campaign.id) !== "Active") return false;
        const row = key === undefined ? undefined : rowOf.get(key);
        return row === undefined || stillClaimed(row.seq, row.attempts, now() + settings.leaseMs / 2);
      },
      // Asked again just before the text of a message whose envelope went ahead, once the answers
      // before it are written and the checks read again (answersRecorded). The relay waits for
      // the text: it goes unless the row is no longer this claim's (its lease run out, taken back,
      // its address suppressed) or an answer could not be written. A pause, cancel or stop
      // answered since does not hold it back (its envelope went on a check made before that
      // answer, which waits SEND_CHECK_MAX_AGE_MS for senders: it was handed over), nor does a
      // check that is merely old: a slow database no longer drops the relay mid-transaction.
      stillGoing: (key) => {
        if (unrecorded > 0) return false;
        const row = rowOf.get(key);
        return row === undefined || stillClaimedAtText(row.seq, row.attempts, now());
      },
      // A final answer is recorded once this turn's answers are in (one transaction for them), so
      // after a crash only the messages in flight and that turn's answers can go out again.
      answered: (result) => {
        const row = rowOf.get(result.key);
        if (!row || (result.status !== "accepted" && result.status !== "failed" && result.status !== "bounced")) return;
        recordings.add(
          turns.record(
            campaign.id,
            outcomeFor(rules, row, result),
            () => recorded.add(result.key),
            () => {
              failedHere += 1;
              unrecorded += 1;
            },
          ),
        );
      },
      // Every answer given so far written: the turn still gathering answers and those being written.
      answersRecorded: async () => {
        await turns.allWritten();
        await deliveryClaims.freshenSendChecks(connection);
      },
      // A message whose final answer is awaited keeps its row: no other claimer sends it meanwhile.
      holdClaim: (key) => {
        const row = rowOf.get(key);
        return row ? keepClaimed(connection, row, settings.leaseMs, now) : () => undefined;
      },
    };
    let results: ChannelResult[];
    try {
      // A row whose message could not be made fails with why; the others go.
      results = [...refused, ...(messages.length > 0 ? await channel.send(messages, control) : [])];
    } catch (error) {
      results = [
        ...refused,
        ...messages.map((m) => ({
          key: m.key,
          status: "retry" as const,
          details: (error as Error).message,
          countsAsError: true,
        })),
      ];
    }
    await Promise.all(recordings);
    const byKey = new Map(results.map((r) => [r.key, r]));
    const left = rows.filter((row) => !recorded.has(keyOf(row)));
    // One jitter for the batch: its deferred rows stay due together, so they are claimed again as
    // one batch (and a call that failed as a whole stays one send error per try), while batches
    // deferred at the same moment come back apart.
    const jitter = 0.5 + random();
    // And one moment: every retry of the batch falls due at the same time, not a millisecond apart
    // (a claim in between would split the batch, and a failed call would count twice).
    const decidedAt = now();
    const batchRules = { ...rules, now: () => decidedAt };
    const outcomes = oneErrorPerFailedCall(
      left.map((row) => outcomeFor(batchRules, row, byKey.get(keyOf(row)), jitter)),
      results.filter((r) => !recorded.has(r.key)),
    );
    // In short transactions, the write lock left free between them (a batch is up to 500 rows).
    try {
      for (let i = 0; i < outcomes.length; i += OUTCOMES_PER_TRANSACTION) {
        if (i > 0) await letOthersWrite();
        await recordUntilWritten(campaign.id, outcomes.slice(i, i + OUTCOMES_PER_TRANSACTION), leaseEnds);
      }
    } finally {
      // Written, or given up to the lease (the rows go again once it runs out).
      unrecorded -= failedHere;
    }
    // The channel found the campaign at fault (a relay that refuses its sender): paused, its
    // messages still queued.
    const pause = results.find((r) => r.status === "held" && r.pause);
    if (pause?.status === "held" && pause.pause) {
      const paused = await campaigns.pauseSending(connection, campaign.id, pause.pause, now());
      if (paused) emit({ type: "paused", campaign: paused });
    }
    if (outcomes.some((o) => "error" in o && o.error)) {
      const paused = await campaigns.pauseOnErrorCap(connection, campaign.id, settings.errorCap, now());
      if (paused) emit({ type: "paused", campaign: paused });
    }
    emit({ type: "progress", campaignId: campaign.id, userId: campaign.userId });
  };

  const dispatch = (campaign: SendingCampaign, rows: ClaimedDelivery[]) => {
    const job = sendBatch(campaign, rows)
      .catch((error: unknown) =>
        emit({
          type: "error",
          message: `Recording a batch of campaign ${campaign.id} failed: ${(error as Error).message}`,
        }),
      )
      .finally(() => {
        inFlight.delete(job);
        wakeUp?.();
      });
    inFlight.add(job);
  };

  let lastCompletionCheck = 0;
  const checkCompletion = async () => {
    const t = now();
    if (t - lastCompletionCheck < 500) return;
    lastCompletionCheck = t;
    const waitMs = channel.receipts ? settings.receiptWaitMs : 0;
    for (const campaign of await campaigns.completeFinished(connection, waitMs, t))
      emit({ type: "completed", campaign });
    // A cancelled campaign's queued rows end as "cancelled" (those out with the channel once back).
    await deliveryReceipts.endCancelledRows(connection, t);
  };

  const loop = async () => {
    [statusOf, stillClaimed, stillClaimedAtText] = await Promise.all([
      campaigns.campaignStatusReader(connection),
      deliveryClaims.claimStillHeld(connection),
      deliveryClaims.claimHeldForText(connection),
    ]);
    while (!stopping) {
      let claimed = 0;
      let moreReceipts: boolean;
      let soonest = Number.POSITIVE_INFINITY;
      try {
        // Receipts the endpoint queued: applied here, between rounds of sending, so the thread that
        // answers requests never does that work. One batch a transaction, with the write lock
        // left free for a moment after each (letOthersWrite), so a marketer's write waits for one
        // batch at most, not for a whole round of them.
        // (On PostgreSQL a call applies a few inbox rows, in transactions side by side.)
        let applied = 0;
        for (;;) {
          const wanted = Math.min(receiptsPerCall, settings.receiptBatchesPerRound - applied);
          if (wanted < 1) break;
          const { batches } = await deliveryReceipts.applyQueuedReceipts(connection, wanted, settings.feedback);
          applied += batches;
          if (batches < wanted) break;
          await letOthersWrite();
        }
        moreReceipts = applied >= settings.receiptBatchesPerRound;
        await checkCompletion();
        const sending = await campaigns.sendingCampaigns(connection);
        // The mail of campaigns no longer sending is forgotten.
        mails.keepOnly(sending);
        // One batch per campaign per round, so a large campaign does not hold up a small one.
        for (const campaign of sending) {
          if (stopping || inFlight.size >= settings.concurrency) break;
          // A channel that hands over a few messages at a time (SMTP: its pool) gets batches it can
          // send well within their lease, so no claim runs out while its rows wait for a connection.
          const wanted = Math.min(settings.batchSize, channel.concurrency * MESSAGES_PER_CONNECTION);
          const allowed = rate ? await rate.take(wanted, now()) : wanted;
          if (allowed < 1) {
            // Asked again once a token is back, but not sooner than RATE_RETRY_MS: on PostgreSQL each
            // ask is a locking UPDATE of the bucket every instance shares, and a fast rate would
            // otherwise ask hundreds of times a second for one message each.
            soonest = Math.min(soonest, now() + Math.max(RATE_RETRY_MS, Math.ceil(1000 / settings.ratePerSecond)));
            break;
          }
          const rows = await deliveryClaims.claimBatch(connection, {
            campaignId: campaign.id,
            limit: allowed,
            now: now(),
            leaseMs: settings.leaseMs,
          });
          if (rate && rows.length < allowed) await rate.giveBack(allowed - rows.length, now());
          if (rows.length === 0) {
            const due = await deliveryClaims.nextDueAt(connection, campaign.id);
            if (due !== null) soonest = Math.min(soonest, due);
            continue;
          }
          claimed += rows.length;
          dispatch(campaign, rows);
        }
      } catch (error) {
        emit({ type: "error", message: `The delivery loop failed: ${(error as Error).message}` });
        await sleep(settings.idleMs);
        continue;
      }
      if (stopping) break;
      if (inFlight.size >= settings.concurrency) {
        await Promise.race(inFlight);
      } else if (claimed === 0 && !moreReceipts) {
        const wait = Number.isFinite(soonest)
          ? Math.max(10, Math.min(settings.idleMs, soonest - now()))
          : settings.idleMs;
        if (inFlight.size > 0) await Promise.race([...inFlight, sleep(wait)]);
        else await sleep(wait);
      }
    }
    await Promise.allSettled([...inFlight]);
  };

  return {
    run() {
      finished ??= loop();
      return finished;
    },
    async stop() {
      stopping = true;
      wakeUp?.();
      await finished;
    },
    wake() {
      wakeUp?.();
    },
  };
}
