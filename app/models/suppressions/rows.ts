// The suppression list's rows (tables Suppression and SuppressionEvent): a tenant's addresses that
// get no campaign e-mail, and what happened to each address on the list. Addresses are stored in
// lower case, as customers' are, so "is this customer suppressed" is one primary-key probe. What
// both engines share is here: the row types, the column lists, and how a stored row becomes one.

export const SUPPRESSION_REASONS = ["unsubscribed", "hard-bounced", "soft-bounced", "complained", "manual"] as const;
export type SuppressionReason = (typeof SUPPRESSION_REASONS)[number];

export type SuppressionRow = {
  email: string;
  reason: SuppressionReason;
  campaignId: string | null;
  campaignName: string;
  details: string;
  createdAt: Date;
};

export type NewSuppression = {
  email: string;
  reason: SuppressionReason;
  campaignId?: string | null;
  campaignName?: string;
  details?: string;
};

export type SuppressionEventRow = {
  id: string;
  email: string;
  action: "suppressed" | "resubscribed";
  reason: string;
  campaignId: string | null;
  campaignName: string;
  createdAt: Date;
};

/** Where a page of listSuppressionsAfter starts: after this entry, in the list's order. */
export type SuppressionCursor = { createdAt: number; email: string };

/** A row as both engines read it: the time as unix milliseconds. */
export type StoredSuppression = Omit<SuppressionRow, "createdAt"> & { createdAt: number };
export type StoredEvent = Omit<SuppressionEventRow, "createdAt"> & { createdAt: number };

export const SUPPRESSION_COLUMNS = `"email", "reason", "campaignId", "campaignName", "details", "createdAt"`;
export const EVENT_COLUMNS = `"id", "email", "action", "reason", "campaignId", "campaignName", "createdAt"`;

export const toSuppressionRow = (r: StoredSuppression): SuppressionRow => ({
  ...r,
  createdAt: new Date(Number(r.createdAt)),
});
export const toEventRow = (r: StoredEvent): SuppressionEventRow => ({ ...r, createdAt: new Date(Number(r.createdAt)) });

/** An address as the list keeps it. */
export const listedAddress = (email: string) => email.trim().toLowerCase();

/** Rows added a transaction by addSuppressions: a few milliseconds of the write lock at a time. */
export const SUPPRESSIONS_PER_TRANSACTION = 1_000;

/**
 * addSuppressions() on either engine: the entries in slices of SUPPRESSIONS_PER_TRANSACTION, each
 * suppressed in a transaction of its own by `suppress`, one after another. Returns the addresses
 * that were added.
 */
export async function suppressInSlices(
  entries: readonly NewSuppression[],
  suppress: (slice: readonly NewSuppression[]) => string[] | Promise<string[]>,
): Promise<string[]> {
  const added: string[] = [];
  for (let i = 0; i < entries.length; i += SUPPRESSIONS_PER_TRANSACTION)
    added.push(...(await suppress(entries.slice(i, i + SUPPRESSIONS_PER_TRANSACTION))));
  return added;
}
