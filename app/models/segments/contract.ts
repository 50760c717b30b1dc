// What the stored segments offer (SegmentsStore): a tenant's Segment rows, and the campaigns that
// name one. Every function takes the tenant, or an id already found to be the tenant's.
import type { SegmentConditionsRow, SegmentFields, SegmentName, SegmentRow } from "~/models/segments/rows";
import type { Tx } from "~/models/transaction/store.server";

export type SegmentsStore = {
  /** The tenant's segment, or null. */
  findSegmentOfUser(userId: string, id: string, tx?: Tx): Promise<SegmentRow | null>;
  /** The tenant's segments newest first, those whose name contains `q` (any ASCII case) when given, at most `take`. */
  findSegmentsOfUser(userId: string, options: { q?: string; take: number }): Promise<SegmentRow[]>;
  /** The ids and names of all the tenant's segments. */
  segmentNamesOfUser(userId: string): Promise<SegmentName[]>;
  /** The tenant's segments with their condition text, by name (the customer detail's chips). */
  segmentConditionsOfUser(userId: string): Promise<(SegmentConditionsRow & { name: string })[]>;
  /** A new segment row. */
  insertSegment(segment: SegmentFields & { id: string; userId: string }, tx?: Tx): Promise<SegmentRow>;
  /** Rewrites a segment (already found to be the tenant's). */
  updateSegmentById(id: string, fields: SegmentFields, tx?: Tx): Promise<SegmentRow>;
  /** Deletes the tenant's segment; false when there was none. */
  deleteSegmentOfUser(userId: string, id: string, tx?: Tx): Promise<boolean>;
  /** How many campaigns the tenant has created (the /segments cards). */
  countCampaignsOfUser(userId: string): Promise<number>;
  /** The names of the tenant's draft campaigns that use a segment, oldest first. */
  draftCampaignNamesUsingSegment(userId: string, segmentId: string): Promise<string[]>;
};
