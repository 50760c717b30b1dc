// How the suppression list reads on screen (the Suppressions page, the customer page): the reason
// chips, the customer's badge and the lines of their e-mail history. Pure, for the browser and the
// server alike.
import type { SuppressionReason } from "~/models/suppressions/rows";

/** The Reason column's chip (the service's REASON_LABELS, app/services/suppressions.server.ts). */
export const REASON_CHIPS: Record<SuppressionReason, string> = {
  unsubscribed: "Unsubscribed",
  "hard-bounced": "Hard bounce",
  "soft-bounced": "Soft bounces",
  complained: "Complaint",
  manual: "Added by hand",
};

/** The badge beside a suppressed customer's e-mail. */
export const SUPPRESSION_BADGES: Record<SuppressionReason, string> = {
  unsubscribed: "Unsubscribed",
  "hard-bounced": "Hard bounce",
  "soft-bounced": "Repeated soft bounces",
  complained: "Complaint",
  manual: "Suppressed by hand",
};

/** Reasons in red: the mailbox refused the mail or its owner called it spam. */
export function isSevereReason(reason: SuppressionReason): boolean {
  return reason === "hard-bounced" || reason === "complained";
}

/** The toast after addresses were added by hand: what was added and what was on the list already. */
export function addedMessage({ added, alreadySuppressed }: { added: number; alreadySuppressed: number }): string {
  const n = (count: number) => count.toLocaleString("en-IN");
  const addresses = (count: number) => `${n(count)} ${count === 1 ? "address" : "addresses"}`;
  if (added === 0)
    return alreadySuppressed === 1
      ? "That address is on the suppression list already"
      : `All ${addresses(alreadySuppressed)} are on the suppression list already`;
  const first = `${addresses(added)} added to the suppression list`;
  if (alreadySuppressed === 0) return first;
  return `${first}; ${n(alreadySuppressed)} ${alreadySuppressed === 1 ? "was" : "were"} on it already`;
}
