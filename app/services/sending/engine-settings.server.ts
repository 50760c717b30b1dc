// What the delivery engine (engine.server.ts) is told and what it tells: its settings and their
// defaults, the events it reports, and the handle it gives back.
import type { CampaignRow } from "~/models/campaigns/store.server";
import { DEFAULT_FEEDBACK_POLICY, type FeedbackPolicy } from "~/models/deliveries/receipts/rows";

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

export const DEFAULT_ENGINE_SETTINGS: EngineSettings = {
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
