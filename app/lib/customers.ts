// Pure rules of the customer screens (docs/rules.md#customer-list, #fallback-texts).

/** What the list sorts by (docs/rules.md#customer-list); createdAt is the date added. */
export const CUSTOMER_SORTS = ["name", "totalSpend", "visits", "lastActive", "createdAt"] as const;
export type CustomerSort = (typeof CUSTOMER_SORTS)[number];
export const SORT_ORDERS = ["asc", "desc"] as const;
export type SortOrder = (typeof SORT_ORDERS)[number];
/** The list's order when none is asked: newest added first. */
export const DEFAULT_SORT: CustomerSort = "createdAt";

/** The order a sort takes when none is given: names A to Z; amounts, counts and dates largest first. */
export function defaultOrder(sort: CustomerSort): SortOrder {
  return sort === "name" ? "asc" : "desc";
}

/** The Visits chip is highlighted when visits is above 5. */
export const VISITS_HIGHLIGHT_ABOVE = 5;

export function isVisitsHighlighted(visits: number): boolean {
  return visits > VISITS_HIGHLIGHT_ABOVE;
}

/** "First Last", or the fallback 'No Name'. */
export function customerDisplayName(c: { firstName?: string | null; lastName?: string | null }): string {
  const name = `${c.firstName ?? ""} ${c.lastName ?? ""}`.trim();
  return name || "No Name";
}

/**
 * "1–50 of 1,00,000" style position text for the list's footer; "50 of 1,000+" when the first
 * row's position is not known (a page reached from the end of a search too common to count).
 */
export function pageSummary(start: number | null, shown: number, total: number, capped: boolean): string {
  const fmt = (n: number) => n.toLocaleString("en-IN");
  const of = `of ${fmt(total)}${capped ? "+" : ""}`;
  if (shown === 0) return `0 ${of}`;
  if (start === null) return `${fmt(shown)} ${of}`;
  return `${fmt(start)}–${fmt(start + shown - 1)} ${of}`;
}
