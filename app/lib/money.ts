// Money is stored as integer paise; the API speaks rupees as numbers; the UI shows ₹1,23,456.00.
const inr = new Intl.NumberFormat("en-IN", { style: "currency", currency: "INR" });

export function formatRupees(rupees: number): string {
  return inr.format(rupees);
}

export function formatPaise(paise: number): string {
  return inr.format(paise / 100);
}

/** Rupees (possibly with paise as decimals) to integer paise, rounding half away from zero. */
export function rupeesToPaise(rupees: number): number {
  return Math.sign(rupees) * Math.round(Math.abs(rupees) * 100);
}

export function paiseToRupees(paise: number): number {
  return paise / 100;
}
