// What both engines' flow statements share: the columns a claim answers and how a row becomes a
// ClaimedEntry (bigints as numbers), and how a send step's campaign grows by one row.
import type { ClaimedEntry } from "./rows";

export const CLAIM_COLUMNS = `"id", "userId", "flowId", "version", "customerId", "stepId", "claims", "enteredAt"`;

export type ClaimRow = Omit<ClaimedEntry, "enteredAt" | "claims" | "version"> & {
  enteredAt: number | bigint;
  claims: number | bigint;
  version: number | bigint;
};

export const claimedEntry = (row: ClaimRow): ClaimedEntry => ({
  ...row,
  enteredAt: Number(row.enteredAt),
  claims: Number(row.claims),
  version: Number(row.version),
});

/**
 * The SET of a step campaign's one new row (placeholders: the seq twice, then the time): its
 * audience and pending count one more, its seq range reaching the row (the delivery job sends it:
 * the campaign stays Active, as completion leaves a flow's campaigns alone).
 */
export const STEP_CAMPAIGN_GROWS = (firstSeq: string, lastSeq: string, now: string) =>
  `"audienceSize" = "audienceSize" + 1, "pendingCount" = "pendingCount" + 1,
   "firstSeq" = CASE WHEN "firstSeq" = 0 THEN ${firstSeq} ELSE "firstSeq" END, "lastSeq" = ${lastSeq},
   "updatedAt" = ${now}`;
