// What the insights' figures offer (InsightsStore): each a read scoped to the tenant, the counts
// over its customers ranges of an index: by id (creation time), by lastActive, by totalSpendPaise.
import type { CompiledWhere } from "~/models/segments/audience/rows";
import type {
  AudienceFiguresRow,
  CustomerMarks,
  InsightCounts,
  LaunchedCampaignRow,
  UnsentSegmentRow,
  WritingMarks,
} from "~/models/insights/rows";

export type InsightsStore = {
  /**
   * Customers added in each window [from, to) by the creation time their id carries (as the
   * dashboard's snapshots count them), through the (userId, id) index. A window that is most of the
   * tenant is counted as the tenant's `total` minus the rest, so neither side scans more than it
   * must; `firstId` is the tenant's oldest customer id (null: none), `at` is now.
   */
  countCustomersAdded(
    userId: string,
    tenant: { total: number; firstId: string | null; at: number },
    windows: { from: number; to: number }[],
  ): Promise<number[]>;
  /** What moves when the customers' figures may. */
  customerMarks(userId: string): Promise<CustomerMarks>;
  /** What moves when the rest of the answer may. */
  writingMarks(userId: string): Promise<WritingMarks>;
  /** The tenant's campaigns and segments, and its oldest customer's id. */
  insightCounts(userId: string): Promise<InsightCounts>;
  /**
   * Customers last active in each range [from, to) (ms), each a range of the lastActive index:
   * count(*) of a range reads no column, where a sum over it would decode each entry.
   */
  countActiveBetween(userId: string, ranges: { from: number; to: number }[]): Promise<number[]>;
  /** The spend (paise) of the tenant's `top` biggest spenders, the head of the spend index, and of all. */
  spendOfTopCustomers(userId: string, top: number): Promise<{ top: number; total: number }>;
  /** The tenant's campaigns other than drafts, with their kept counters, newest first. */
  launchedCampaignCounters(userId: string): Promise<LaunchedCampaignRow[]>;
  /** The tenant's segments no campaign has been sent to (a draft is not a send), newest first. */
  segmentsNeverSent(userId: string): Promise<UnsentSegmentRow[]>;
  /**
   * Count, spend, visits and inactivity (not active since `inactiveBefore`, or never) of the
   * customers `where` selects: a segment's compiled WHERE in this engine's dialect
   * (segmentAudience.audienceWhere()). What the AI message suggestions are written from.
   */
  audienceFigures(where: CompiledWhere, inactiveBefore: number): Promise<AudienceFiguresRow>;
};
