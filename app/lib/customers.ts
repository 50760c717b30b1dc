// Pure rules of the customer screens (spec §2, §9).

/** Spec §2: the Visits chip is highlighted when visits is above 5. */
export const VISITS_HIGHLIGHT_ABOVE = 5;

export function isVisitsHighlighted(visits: number): boolean {
  return visits > VISITS_HIGHLIGHT_ABOVE;
}

/** "First Last", or the spec's fallback 'No Name'. */
export function customerDisplayName(c: { firstName?: string | null; lastName?: string | null }): string {
  const name = `${c.firstName ?? ""} ${c.lastName ?? ""}`.trim();
  return name || "No Name";
}
