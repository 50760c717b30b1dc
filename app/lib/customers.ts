// Pure rules of the customer screens (docs/rules.md#customer-list, #fallback-texts).

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

/** "1–50 of 1,00,000" style position text for the list's footer. */
export function pageSummary(start: number, shown: number, total: number, capped: boolean): string {
  const fmt = (n: number) => n.toLocaleString("en-IN");
  if (shown === 0) return capped ? `0 of ${fmt(total)}+` : `0 of ${fmt(total)}`;
  return `${fmt(start)}–${fmt(start + shown - 1)} of ${fmt(total)}${capped ? "+" : ""}`;
}
