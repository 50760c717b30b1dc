// What the launch domain's engines offer: the audience's counts, and the statements of a launch
// (reserve, write slices, finish), which ./store.server.ts drives once for both engines.
import type { AnyConnection } from "~/db/connection.server";
import type { NewCampaign } from "~/models/campaigns/rows";
import type { LaunchEnd, Reservation, SliceSource, SliceWriter } from "~/models/launch/rows";
import type { CompiledWhere } from "~/models/segments/audience/rows";

export type LaunchStore = {
  /**
   * The connection a launch writes on (the server's worker thread, and the bench that measures
   * it): on SQLite the file with a launch's page cache and checkpoints, on PostgreSQL a small pool
   * of its own.
   */
  openConnection(file: string): Promise<AnyConnection>;

  /** How many customers an audience WHERE (a segment's, or nonOpenersWhere) matches now. */
  countAudience(where: CompiledWhere, connection?: AnyConnection): Promise<number>;

  /** How many of the audience `where` (the tenant's segment) are on the tenant's suppression list. */
  suppressedInAudience(userId: string, where: CompiledWhere, connection?: AnyConnection): Promise<number>;

  /**
   * The second audience source (the first is a segment's compiled WHERE): the non-openers of one
   * of the tenant's campaigns, as a WHERE over "Customer" in the engine's dialect
   * (docs/rules.md#resend-to-non-openers).
   */
  nonOpenersWhere(userId: string, campaignId: string): CompiledWhere;

  /** Throws at once when `where` was compiled for another engine's dialect (before anything is written). */
  checkWhere(where: CompiledWhere): void;

  /** Whether the tenant has any address on the suppression list (one probe of its primary key). */
  hasSuppressions(connection: AnyConnection, userId: string): Promise<boolean>;

  /**
   * In one transaction: refuses a campaign that is not a draft or is being launched (409), writes
   * the campaign as a draft marked LAUNCHING (a new row, or the draft's content replaced), and
   * reserves its seq range, as many numbers as the tenant has customers, after every range taken.
   */
  reserve(connection: AnyConnection, c: NewCampaign, now: number): Promise<Reservation>;

  /** The statements that write the audience a slice at a time, prepared once for the launch. */
  sliceWriter(connection: AnyConnection, source: SliceSource): Promise<SliceWriter>;

  /**
   * In one transaction: makes the campaign Active with the rows written, or, when none were,
   * returns it to a draft (or removes the new one). Returns the audience size.
   */
  finish(connection: AnyConnection, end: LaunchEnd): Promise<number>;

  /**
   * Clears launches cut off by a crash: drafts still marked LAUNCHING whose last slice is older than
   * `staleMs` lose their partial audience and say that the launch was interrupted. Returns how many.
   */
  recoverInterrupted(connection: AnyConnection, staleMs: number, now: number): Promise<number>;
};
