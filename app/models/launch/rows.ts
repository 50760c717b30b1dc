// The launch's constants, texts and types, the same on both engines.
//
// Why a domain of its own (app/models/launch/), not part of campaigns/ or deliveries/: a launch
// writes two tables in one procedure (the Campaign row it reserves and finishes, and the Delivery
// rows that freeze its audience) and reads a third (Customer, through a segment's WHERE). The
// campaigns domain reads and controls campaigns, the deliveries domains send rows that exist; the
// launch is the one step between them. It depends on campaigns/rows.ts (the draft it writes) and
// the campaigns domain depends only on this file (LAUNCHING, the slice size), so neither folder
// imports the other's engine files, and no two files import each other.
import type { CompiledWhere } from "~/models/segments/audience/rows";

/** The status detail of a draft whose audience is being written (see the launch in ./store.server.ts). */
export const LAUNCHING = "Launching: writing the audience";
/** The 409 of a launch of a campaign another launch has taken (docs/rules.md#one-launch-one-send). */
export const LAUNCH_IN_PROGRESS = "This campaign is being launched already.";
export const LAUNCH_INTERRUPTED = "The launch was interrupted before its audience was written. Launch it again.";
/** The 409 of the schedule clock's launch of a draft that was saved, rescheduled or unscheduled since it read it. */
export const SCHEDULE_CHANGED =
  "The campaign was changed after it came due; it is launched as it is now, if still scheduled.";

/** Whether a launch's guard refuses the draft as it is now (see NewCampaign.unchangedSince). */
export const changedSince = (expected: number | undefined, updatedAt: number | Date) =>
  expected !== undefined && Number(updatedAt) !== expected;
/** Delivery rows written a transaction: a few milliseconds of the write lock at a time. */
export const LAUNCH_SLICE = 5_000;

/**
 * Removes up to LAUNCH_SLICE delivery rows of one campaign, its id the one parameter (`param` is
 * the engine's placeholder: `?` or `$1`).
 */
export const deleteDeliverySlice = (param: string) =>
  `DELETE FROM "Delivery" WHERE "seq" IN (SELECT "seq" FROM "Delivery" WHERE "campaignId" = ${param} LIMIT ${LAUNCH_SLICE})`;

/**
 * What the launch's INSERT adds to its SELECT of customers when the tenant has suppressions: a
 * probe of the list's primary key per customer (customers' addresses are stored in lower case, as
 * the list's are). A tenant without any keeps the statement without it.
 */
export const NOT_SUPPRESSED = ` AND NOT EXISTS (SELECT 1 FROM "Suppression" "s" WHERE "s"."userId" = "Customer"."userId" AND "s"."email" = "Customer"."email")`;

/** A launch under way (see startLaunch in ./store.server.ts). */
export type Launch = {
  /** Writes the next slice of the audience; false when there is nothing left to write. */
  step(): Promise<boolean>;
  /** Makes the campaign Active with its audience; returns the audience size (0: nothing to send, nothing kept). */
  finish(): Promise<number>;
};

export type LaunchOptions = { now?: number; slice?: number };

/** The campaign's row as the reservation left it: its seq range (base + 1 … base + room), and whether it was a draft before. */
export type Reservation = { base: number; room: number; existed: boolean };

/** What a slice writer needs: the campaign, its audience, and whether suppressed addresses are left out. */
export type SliceSource = { campaignId: string; where: CompiledWhere; suppressing: boolean; now: number };

/**
 * Writes the next `limit` rows of the audience with seq numbers from `seqBase + 1`, in one
 * transaction, and remembers where the slice ended; returns how many it wrote (0: none left).
 */
export type SliceWriter = (seqBase: number, limit: number) => Promise<number>;

/** How a launch ends: its rows written, and what the campaign keeps of them. */
export type LaunchEnd = {
  campaignId: string;
  existed: boolean;
  written: number;
  /** Customers of the audience the launch left out because their address was suppressed. */
  leftOut: number;
  lastSeq: number;
  now: number;
};

/**
 * The PostgreSQL advisory lock that everything taking delivery seq numbers takes turns on (a launch's
 * range, a flow's one row): held to the commit, so two never take the same numbers.
 */
export const SEQ_RESERVATION_LOCK = 0x63726d01;
