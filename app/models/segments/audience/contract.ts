// What a segment's audience offers (AudienceStore): counts, previews, pages and per-customer
// matches of a tenant's condition tree, evaluated in the database, never by loading customers.
// Every function takes the tenant first; rolling dates in a tree are resolved at `now` (the time of
// the call unless given). Both engines give the same answers (docs/decisions/0032-segments-on-postgresql.md);
// how each counts, and why, is in its file.
import type { SegmentNode } from "~/lib/segments";
import type { AudienceRow, AudienceTuple, CompiledWhere, CountShape } from "~/models/segments/audience/rows";

export type AudienceStore = {
  /** The count query a tenant's tree runs now, and its shape (for the bench report and tests). */
  audienceCountQuery(
    userId: string,
    tree: SegmentNode,
    now?: number,
  ): Promise<{ shape: CountShape; query: CompiledWhere }>;
  /** Which shape counts a tenant's tree now (for the bench report and tests). */
  audienceCountShape(userId: string, tree: SegmentNode): Promise<CountShape>;
  /** The size of a tenant's segment audience. */
  sqlAudienceCount(userId: string, tree: SegmentNode, now?: number): Promise<number>;
  /** The audience sizes of several of a tenant's trees, in the trees' order (a list of segments). */
  sqlAudienceCounts(userId: string, trees: SegmentNode[], now?: number): Promise<number[]>;
  /** Count and sample; an empty audience skips the sample. */
  sqlAudiencePreview(
    userId: string,
    tree: SegmentNode,
    limit: number,
    now?: number,
  ): Promise<{ count: number; rows: AudienceRow[] }>;
  /** sqlAudiencePreview with each sample row mapped from its tuple by `map` (the preview's DTO). */
  sqlAudiencePreviewAs<T>(
    userId: string,
    tree: SegmentNode,
    limit: number,
    map: (row: AudienceTuple) => T,
    now?: number,
  ): Promise<{ count: number; rows: T[] }>;
  /** A page of the audience in id (creation) order, after a cursor. */
  sqlAudiencePage(
    userId: string,
    tree: SegmentNode,
    limit: number,
    cursor?: string,
    now?: number,
  ): Promise<AudienceRow[]>;
  /** Which of the trees match one customer, in one query: `[true, false, …]` in the trees' order. */
  sqlMatchesForCustomer(userId: string, customerId: string, trees: SegmentNode[], now?: number): Promise<boolean[]>;
  /**
   * A tenant's tree as the WHERE over "Customer" in this engine's dialect, its rolling dates
   * resolved at `now`: what the campaign snapshot and the suggestions' figures run.
   */
  audienceWhere(userId: string, tree: SegmentNode, now?: number): CompiledWhere;
  /** The engine's plan of a compiled query, one line a step (for the bench report and tuning). */
  explainPlan(q: CompiledWhere): Promise<string[]>;
};
