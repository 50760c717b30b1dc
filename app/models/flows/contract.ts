// What the flows domain offers (the door: ./store.server.ts; docs/decisions/0046-flows.md): flows and
// their versions, people entering them once per trigger event, the clock's claims of due entries,
// each step's passage recorded once, the campaign a send step's messages go out under, and the
// figures. The rules (what a flow may be, what each step does) are the service's:
// app/services/flows/.
import type { Tx } from "~/models/transaction/store.server";
import type {
  ClaimedEntry,
  FlowCounts,
  FlowPersonRow,
  FlowRow,
  FlowWrite,
  NewEntry,
  Passage,
  PassageRow,
  StepCampaign,
  StepCounts,
  StepDeliveryCounts,
  StepExit,
} from "./rows";

export type FlowsStore = {
  // --- Reads ---
  /** The tenant's flows, newest first. */
  listFlows(userId: string): Promise<FlowRow[]>;
  /** The tenant's flow, or null. */
  findFlow(userId: string, id: string): Promise<FlowRow | null>;
  /** A flow by id, whoever owns it (the CLI is the admin's), or null. */
  findFlowById(id: string): Promise<FlowRow | null>;
  /** A version's definition (JSON), or null. */
  readDefinition(flowId: string, version: number): Promise<string | null>;
  /** Whether anyone ever entered this version of the flow. */
  hasEntries(flowId: string, version: number): Promise<boolean>;
  /** People by state and the goal's revenue, per flow. */
  flowCounts(flowIds: readonly string[]): Promise<FlowCounts[]>;
  /** Per step of the flow (every version): passages, people at it now, exits, conversions after it. */
  stepCounts(flowId: string): Promise<StepCounts[]>;
  /** Per send step of the flow: its messages by state (its campaigns' counters, every version's added). */
  stepDeliveryCounts(flowId: string): Promise<StepDeliveryCounts[]>;
  /** The flow's people, the latest entered first, of one state when given. */
  listPeople(userId: string, flowId: string, limit: number, state?: string): Promise<FlowPersonRow[]>;
  /** A customer's passages through the tenant's flows, newest first. */
  passagesOf(userId: string, customerId: string, limit: number): Promise<PassageRow[]>;
  /** The campaigns that carry the flow's send steps. */
  stepCampaignIds(flowId: string): Promise<string[]>;

  // --- Writes a person asks for ---
  /** Writes a new flow with its first version. */
  createFlow(flow: FlowWrite, now?: number): Promise<void>;
  /**
   * Writes the flow's name, status and definition: as a new version (`newVersion`, people inside
   * the current one finish on it) or over the current one. Returns the version, or null when the
   * flow is not the tenant's.
   */
  updateFlow(flow: FlowWrite, newVersion: boolean, now?: number): Promise<number | null>;
  /** Sets the flow's status; false when the flow is not the tenant's. */
  setFlowStatus(userId: string, id: string, status: string, now?: number): Promise<boolean>;
  /** Deletes the flow with its versions, entries and passages; false when it was not the tenant's. */
  deleteFlow(userId: string, id: string): Promise<boolean>;

  // --- The flow clock ---
  /** Live flows of every tenant (the clock reads their events). */
  liveFlows(): Promise<FlowRow[]>;
  /**
   * In one transaction: enters each person at the first step of the flow's current version, due
   * `first.delayMs` after they entered (once per entry key; not at all when the re-entry rule says no), ends the active entries of those in
   * `conversions` as converted with the order's revenue, and (given a cursor: the clock's read)
   * moves the flow's event cursor from `cursor.from` to `cursor.to`. Null (and nothing written)
   * when another clock moved the cursor first.
   */
  enter(
    flow: { id: string; userId: string; version: number },
    first: { stepId: string; delayMs: number },
    entries: readonly NewEntry[],
    reentry: "never" | { afterDays: number },
    conversions: readonly { customerId: string; at: number; revenuePaise: number }[],
    cursor: { from: string; to: string } | null,
    now?: number,
  ): Promise<{ entered: number; converted: number } | null>;
  /**
   * Claims up to `limit` active entries of live flows due at `now` (the longest due first), moving
   * their due time forward by `leaseMs` and adding one to their token; on PostgreSQL rows another
   * clock holds are skipped.
   */
  claimDue(now: number, limit: number, leaseMs: number): Promise<ClaimedEntry[]>;
  /**
   * In the step's transaction: moves the entry on (to the next step, or to its end) only while it
   * is still the claimer's at this step, and records the passage. Throws StaleClaim otherwise, or
   * when the passage was recorded before: the transaction rolls back and the step is not run twice.
   */
  passStep(entry: ClaimedEntry, passage: Passage, exit: StepExit, now: number, tx: Tx): Promise<void>;
  /** The campaign of a send step's version (`stepKey`), or null. */
  findStepCampaign(flowId: string, stepKey: string): Promise<string | null>;
  /** Writes the campaign a send step's messages go out under (Active, no rows yet); answers its id (an existing one's when made meanwhile). */
  createStepCampaign(campaign: StepCampaign, now?: number): Promise<string>;
  /**
   * In the step's transaction: one pending delivery row for the customer under the step's campaign,
   * with the next seq number, the campaign's audience and pending counters raised with it. Null when
   * the customer has a row of that campaign already (sent on an earlier entry).
   */
  appendStepDelivery(
    campaignId: string,
    userId: string,
    customerId: string,
    now: number,
    tx: Tx,
  ): Promise<number | null>;
  /** Whether the customer placed an order at or after `since`. */
  orderedSince(userId: string, customerId: string, since: number, tx?: Tx): Promise<boolean>;
  /** Whether the customer opened (or clicked) the message of the flow's send step (any version). */
  engagedWithStep(
    flowId: string,
    stepId: string,
    customerId: string,
    kind: "opened" | "clicked",
    tx?: Tx,
  ): Promise<boolean>;
};
