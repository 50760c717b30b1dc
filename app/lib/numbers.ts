// How counts and rates read on every screen (docs/rules.md#numbers): counts in Indian digit grouping
// (3,271; 12,34,567), rates as a percentage with one decimal, and no rate at all when its
// denominator is 0 (nothing was attempted yet, so there is nothing to be good or poor at). Pure:
// the server's page and the hydrated one format alike. Money has its own formatter, app/lib/money.ts.

const counts = new Intl.NumberFormat("en-IN", { maximumFractionDigits: 0 });

/** A count as shown: "3,271", "12,34,567". */
export function formatCount(n: number): string {
  return counts.format(n);
}

/** What stands where a rate would be when its denominator is 0. */
export const NO_RATE = "—";

/** part / whole as a percentage with one decimal, or null when whole is 0 (no rate). */
export function rateOf(part: number, whole: number): number | null {
  if (!(whole > 0)) return null;
  return Math.round((part / whole) * 1000) / 10;
}

/** A rate as shown: "92.5%", or "—" for no rate. */
export function formatRate(rate: number | null): string {
  return rate === null ? NO_RATE : `${rate.toFixed(1)}%`;
}

/** A number, or a string that is exactly a decimal number ("1000", "12.5", " -3 "); else null. */
export function numericValue(value: unknown): number | null {
  if (typeof value === "number") return Number.isFinite(value) ? value : null;
  if (typeof value === "string" && /^\s*-?(\d+(\.\d*)?|\.\d+)\s*$/.test(value)) return Number(value);
  return null;
}
