// Pure order rules (docs/rules.md#orders), shared by the server, the form and the screens:
// statuses and their colours, the quantity/price/tax rules, subtotal and total, the short id.
// Money is integer paise here; the form speaks rupees and converts with toPaise.

export const ORDER_STATUSES = ["Pending", "Processing", "Completed", "Cancelled"] as const;
export type OrderStatus = (typeof ORDER_STATUSES)[number];
export const DEFAULT_ORDER_STATUS: OrderStatus = "Pending";

/** "completed", "COMPLETED" and "Completed" are the same status; anything else is not a status. */
export function normalizeStatus(value: unknown): OrderStatus | undefined {
  if (typeof value !== "string") return undefined;
  const v = value.trim().toLowerCase();
  return ORDER_STATUSES.find((s) => s.toLowerCase() === v);
}

export type ChipColour = "success" | "warning" | "error" | "default";

/** Completed green, pending amber, cancelled red, others default. */
export function statusColour(status: string): ChipColour {
  switch (status.toLowerCase()) {
    case "completed":
      return "success";
    case "pending":
      return "warning";
    case "cancelled":
      return "error";
    default:
      return "default";
  }
}

/** Tailwind classes of a status chip. */
export const CHIP_CLASSES: Record<ChipColour, string> = {
  success: "bg-green-100 text-green-800 ring-green-600/20",
  warning: "bg-amber-100 text-amber-800 ring-amber-600/20",
  error: "bg-red-100 text-red-800 ring-red-600/20",
  default: "bg-slate-100 text-slate-700 ring-slate-500/20",
};

/** An order id is shown as its last 6 characters. */
export function shortOrderId(id: string): string {
  return id.slice(-6);
}

export const MIN_QUANTITY = 1;
export const MAX_QUANTITY = 100_000;
export const MIN_PRICE = 0;
export const PRICE_STEP = 0.01;
export const MIN_TAX = 0;
export const MAX_ITEMS = 200;
/** The largest order total we accept: ₹1,00,00,000 (one crore), 10^9 paise. */
export const MAX_ORDER_TOTAL_PAISE = 1_000_000_000;

/** Quantity has a minimum of 1 and a non-numeric value becomes 1 (decimals are cut). */
export function toQuantity(value: unknown): number {
  const n = typeof value === "number" ? value : typeof value === "string" && value.trim() !== "" ? Number(value) : NaN;
  if (!Number.isFinite(n)) return MIN_QUANTITY;
  return Math.max(MIN_QUANTITY, Math.trunc(n));
}

/** True when a rupee amount has at most two decimals (the 0.01 step of price and tax). */
export function isPaiseStep(rupees: number): boolean {
  return Number.isFinite(rupees) && Math.abs(rupees * 100 - Math.round(rupees * 100)) < 1e-6;
}

/** Rupees to integer paise (rounded to the nearest paisa). */
export function toPaise(rupees: number): number {
  if (!Number.isFinite(rupees)) return 0;
  return Math.sign(rupees) * Math.round(Math.abs(rupees) * 100);
}

export type PricedItem = { quantity: number; pricePaise: number };

export function lineTotalPaise(item: PricedItem): number {
  return item.quantity * item.pricePaise;
}

/** The subtotal is the sum of price × quantity. It is the order's amount. */
export function subtotalPaise(items: readonly PricedItem[]): number {
  return items.reduce((sum, item) => sum + lineTotalPaise(item), 0);
}

/** The order total is subtotal plus tax. */
export function totalPaise(subtotal: number, taxPaise: number): number {
  return subtotal + taxPaise;
}

/**
 * What one order adds to its customer's totals. Cancelled orders add nothing; any other order adds
 * one visit and its total (subtotal + tax: what the customer pays is what they spent).
 */
export function orderContribution(order: { status: string; amountPaise: number; taxPaise: number }) {
  if (order.status.toLowerCase() === "cancelled") return { spendPaise: 0, visits: 0 };
  return { spendPaise: totalPaise(order.amountPaise, order.taxPaise), visits: 1 };
}

/** A customer's display name, with the fallbacks of docs/rules.md#fallback-texts. */
export function customerName(c: { firstName: string; lastName: string } | null | undefined): string {
  if (!c) return "Unknown";
  const name = `${c.firstName} ${c.lastName}`.trim();
  return name || "No Name";
}
