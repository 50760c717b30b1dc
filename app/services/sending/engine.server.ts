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
import { deliveryKey, personalise } from "~/lib/campaigns";
import { compileEmailBody, type EmailBody, type EmailRecipient } from "~/lib/email-body";
import { type CampaignRow, campaigns, type SendingCampaign } from "~/models/campaigns/store.server";
import { type ClaimedDelivery, deliveryClaims, keepClaimed } from "~/models/deliveries/claims/store.server";
import { DEFAULT_FEEDBACK_POLICY, type FeedbackPolicy, type SendOutcome } from "~/models/deliveries/receipts/rows";
import { deliveryReceipts } from "~/models/deliveries/receipts/store.server";
import type { AnyConnection } from "~/models/transaction/store.server";
import type { ChannelResult, DeliveryChannel, OutgoingMessage, SendControl } from "~/services/sending/channel.server";
import { type Sender, senderOf } from "~/services/email/sender.server";
import { trackingUrls } from "~/services/tracking-token.server";
import { unsubscribeUrl } from "~/services/unsubscribe-token.server";

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

export type EngineSettings = {
  /** Rows claimed per batch. */
  batchSize: number;
  /** Batches handed to the channel at the same time. */
  concurrency: number;
  /** Messages per second at most (0: no limit). */
  ratePerSecond: number;
  /** How long a claimed batch is ours before another claimer may take it again. */
  leaseMs: number;
  /** Attempts before a transiently failing message is failed for good. */
  maxAttempts: number;
  /**
   * Attempts before a message the server keeps answering "try later" (a temporary answer that is
   * no one's error: a 4xx of an SMTP relay, a vendor's rate limit) is failed for good: a relay
   * that throttles for hours delays the campaign but loses nothing. At least maxAttempts.
   */
  maxDeferrals: number;
  /** The first retry's delay; each later one doubles it up to maxRetryDelayMs (each with a jitter of ±50%). */
  retryBaseMs: number;
  /** The longest delay between two attempts of one message. */
  maxRetryDelayMs: number;
  /** Send errors after which a campaign is paused. */
  errorCap: number;
  /** How long after its last change a campaign with rows still awaiting receipts is completed anyway. */
  receiptWaitMs: number;
  /** How long the loop sleeps when there is nothing to do (a launch wakes it sooner). */
  idleMs: number;
  /** Queued receipt batches (inbox rows of up to 250) applied between two rounds of sending. */
  receiptBatchesPerRound: number;
  /** The scanner window and the soft-bounce policy applied with receipts. */
  feedback: FeedbackPolicy;
};

/** The shortest wait before an engine that found the send rate's bucket empty asks it again. */
const RATE_RETRY_MS = 50;

const DEFAULT_ENGINE_SETTINGS: EngineSettings = {
  batchSize: 500,
  concurrency: 4,
  ratePerSecond: 0,
  leaseMs: 60_000,
  maxAttempts: 5,
  // With the delays below: about six hours of "try later" before a message is given up.
  maxDeferrals: 30,
  retryBaseMs: 5_000,
  maxRetryDelayMs: 15 * 60_000,
  errorCap: 1_000,
  receiptWaitMs: 10 * 60_000,
  idleMs: 1_000,
  receiptBatchesPerRound: 40,
  feedback: DEFAULT_FEEDBACK_POLICY,
};

export type EngineEvent =
  | { type: "completed"; campaign: CampaignRow }
  | { type: "paused"; campaign: CampaignRow }
  | { type: "progress"; campaignId: string; userId: string }
  | { type: "error"; message: string };

export type DeliveryEngine = {
  /** Runs until stop(); resolves when the loop has ended and every batch out has been recorded. */
  run(): Promise<void>;
  /** Ends the loop after the batches out come back (their leases expire if they never do). */
  stop(): Promise<void>;
  /** Look for work now (after a launch, resume or retry). */
  wake(): void;
};

export function createDeliveryEngine(options: {
  sqlite: AnyConnection;
  channel: DeliveryChannel;
  settings?: Partial<EngineSettings>;
  onEvent?: (event: EngineEvent) => void;
  now?: () => number;
  /** A number in [0, 1): the retry delays' jitter. */
  random?: () => number;
}): DeliveryEngine {
  const settings = { ...DEFAULT_ENGINE_SETTINGS, ...options.settings };
  const { sqlite, channel } = options;
  const receiptsPerCall = deliveryReceipts.receiptBatchesPerCall(sqlite);
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
    ? deliveryClaims.sendRateBucket(sqlite, { channel: channel.name, perSecond: settings.ratePerSecond })
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
        await deliveryReceipts.recordOutcomes(sqlite, campaignId, outcomes, now());
        return;
      } catch (error) {
        if (stopping || now() + wait >= until) throw error;
        await waitFor(wait);
      }
    }
  };

  // `jitter` (in [0.5, 1.5)) scales a retry's delay: one draw per batch (see sendBatch).
  const outcomeFor = (row: ClaimedDelivery, result: ChannelResult | undefined, jitter = 1): SendOutcome => {
    if (!result) return retryOrFail(row, "No answer from the channel for this message", true, jitter);
    // A channel without receipts (an SMTP relay) says all it will say when it accepts: that is the
    // delivery, so every rate means something for real mail.
    if (result.status === "accepted")
      return {
        seq: row.seq,
        attempts: row.attempts,
        outcome: channel.receipts ? "sent" : "delivered",
        details: result.details,
      };
    if (result.status === "held") return { seq: row.seq, attempts: row.attempts, outcome: "held" };
    if (result.status === "retry") return retryOrFail(row, result.details, result.countsAsError, jitter);
    return { seq: row.seq, attempts: row.attempts, outcome: result.status, details: result.details, error: false };
  };

  const retryOrFail = (row: ClaimedDelivery, details: string, countsAsError: boolean, jitter: number): SendOutcome => {
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
  };

  // A call to the channel that failed as a whole (no answer, a 5xx: every message retried for the
  // same reason) is one send error, not one per message in the batch: a moment's network trouble
  // must not pause a campaign whose batches are 500 messages.
  const oneErrorPerFailedCall = (outcomes: SendOutcome[], results: ChannelResult[]): SendOutcome[] => {
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
  };

  // Each campaign's sender and compiled template, made once (a campaign's subject and message do
  // not change while it sends; if they did, they are made again).
  type CampaignMail = { sender: Sender; render: (recipient: EmailRecipient) => EmailBody };
  const mailOf = new Map<string, { subject: string; message: string; mail: Promise<CampaignMail> }>();
  const campaignMail = (campaign: SendingCampaign): Promise<CampaignMail> => {
    const known = mailOf.get(campaign.id);
    if (known && known.subject === campaign.subject && known.message === campaign.message) return known.mail;
    const mail = senderOf(campaign.userId, sqlite).then((sender) => ({
      sender,
      render: compileEmailBody({
        message: campaign.message,
        subject: campaign.subject,
        senderName: sender.name,
        postalAddress: sender.postalAddress,
      }),
    }));
    // A failure is not kept: the next batch asks again.
    mail.catch(() => {
      if (mailOf.get(campaign.id)?.mail === mail) mailOf.delete(campaign.id);
    });
    mailOf.set(campaign.id, { subject: campaign.subject, message: campaign.message, mail });
    return mail;
  };

  // The channel's final answers of one event-loop turn (several connections answer in the same
  // turn), recorded together when the turn's I/O has been handled: one transaction a campaign
  // instead of one a message. Recorded before the next turn reads any answer, so before any
  // message handed over after them has gone.
  type Answer = { outcome: SendOutcome; recorded: () => void; failed: () => void };
  let answersOfTurn = new Map<string, Answer[]>();
  let turnRecorded: Promise<void> | null = null;
  // Turns whose answers are being written. On PostgreSQL a write is a round trip that outlives the
  // turn that started it: until it commits, those answers are not recorded either.
  const turnsWriting = new Set<Promise<void>>();
  const recordTurn = async (byCampaign: Map<string, Answer[]>) => {
    for (const [campaignId, answers] of byCampaign) {
      try {
        await deliveryReceipts.recordOutcomes(
          sqlite,
          campaignId,
          answers.map((a) => a.outcome),
          now(),
        );
        for (const a of answers) a.recorded();
      } catch (error) {
        // Left to their batch's last pass, which records them with the rest.
        for (const a of answers) a.failed();
        emit({
          type: "error",
          message: `Recording messages of campaign ${campaignId} failed: ${(error as Error).message}`,
        });
      }
    }
  };
  /** Queues a final answer for this turn's transaction; resolves once it has been written (or failed). */
  const recordThisTurn = (
    campaignId: string,
    outcome: SendOutcome,
    recorded: () => void,
    failed: () => void,
  ): Promise<void> => {
    let answers = answersOfTurn.get(campaignId);
    if (!answers) answersOfTurn.set(campaignId, (answers = []));
    answers.push({ outcome, recorded, failed });
    turnRecorded ??= new Promise<void>((resolve) =>
      setImmediate(() => {
        const byCampaign = answersOfTurn;
        answersOfTurn = new Map();
        turnRecorded = null;
        // Settles even if reporting a failure throws, so no sender waits for it forever.
        const writing = recordTurn(byCampaign).then(
          () => undefined,
          () => undefined,
        );
        turnsWriting.add(writing);
        void writing.then(() => {
          turnsWriting.delete(writing);
          resolve();
        });
      }),
    );
    return turnRecorded;
  };

  const sendBatch = async (campaign: SendingCampaign, rows: ClaimedDelivery[]) => {
    const { sender, render } = await campaignMail(campaign);
    const messages: OutgoingMessage[] = rows.map((r) => {
      const link = unsubscribeUrl({ userId: campaign.userId, campaignId: campaign.id, email: r.email });
      const tracking =
        campaign.trackingEnabled === 1
          ? trackingUrls({ userId: campaign.userId, campaignId: campaign.id, seq: r.seq, retries: r.retries })
          : undefined;
      const body = render({ name: r.name, unsubscribeUrl: link, tracking });
      return {
        key: deliveryKey(r.campaignId, r.seq, r.retries),
        to: { name: r.name, email: r.email, phone: r.phone },
        from: sender,
        subject: personalise(campaign.subject, r.name),
        text: body.text,
        html: body.html,
        unsubscribeUrl: link,
      };
    });
    const rowOf = new Map(messages.map((m, i) => [m.key, rows[i]]));
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
          recordThisTurn(
            campaign.id,
            outcomeFor(row, result),
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
        await Promise.all([turnRecorded, ...turnsWriting]);
        await deliveryClaims.freshenSendChecks(sqlite);
      },
      // A message whose final answer is awaited keeps its row: no other claimer sends it meanwhile.
      holdClaim: (key) => {
        const row = rowOf.get(key);
        return row ? keepClaimed(sqlite, row, settings.leaseMs, now) : () => undefined;
      },
    };
    let results: ChannelResult[];
    try {
      results = await channel.send(messages, control);
    } catch (error) {
      results = messages.map((m) => ({
        key: m.key,
        status: "retry",
        details: (error as Error).message,
        countsAsError: true,
      }));
    }
    await Promise.all(recordings);
    const byKey = new Map(results.map((r) => [r.key, r]));
    const left = rows.filter((_, i) => !recorded.has(messages[i].key));
    // One jitter for the batch: its deferred rows stay due together, so they are claimed again as
    // one batch (and a call that failed as a whole stays one send error per try), while batches
    // deferred at the same moment come back apart.
    const jitter = 0.5 + random();
    const outcomes = oneErrorPerFailedCall(
      left.map((row) => outcomeFor(row, byKey.get(deliveryKey(row.campaignId, row.seq, row.retries)), jitter)),
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
      const paused = await campaigns.pauseSending(sqlite, campaign.id, pause.pause, now());
      if (paused) emit({ type: "paused", campaign: paused });
    }
    if (outcomes.some((o) => "error" in o && o.error)) {
      const paused = await campaigns.pauseOnErrorCap(sqlite, campaign.id, settings.errorCap, now());
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
    for (const campaign of await campaigns.completeFinished(sqlite, waitMs, t)) emit({ type: "completed", campaign });
    // A cancelled campaign's queued rows end as "cancelled" (those out with the channel once back).
    await deliveryReceipts.endCancelledRows(sqlite, t);
  };

  const loop = async () => {
    [statusOf, stillClaimed, stillClaimedAtText] = await Promise.all([
      campaigns.campaignStatusReader(sqlite),
      deliveryClaims.claimStillHeld(sqlite),
      deliveryClaims.claimHeldForText(sqlite),
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
          const { batches } = await deliveryReceipts.applyQueuedReceipts(sqlite, wanted, settings.feedback);
          applied += batches;
          if (batches < wanted) break;
          await letOthersWrite();
        }
        moreReceipts = applied >= settings.receiptBatchesPerRound;
        await checkCompletion();
        const sending = await campaigns.sendingCampaigns(sqlite);
        // The mail of campaigns no longer sending is forgotten.
        for (const id of mailOf.keys()) if (!sending.some((c) => c.id === id)) mailOf.delete(id);
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
          const rows = await deliveryClaims.claimBatch(sqlite, {
            campaignId: campaign.id,
            limit: allowed,
            now: now(),
            leaseMs: settings.leaseMs,
          });
          if (rate && rows.length < allowed) await rate.giveBack(allowed - rows.length, now());
          if (rows.length === 0) {
            const due = await deliveryClaims.nextDueAt(sqlite, campaign.id);
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
