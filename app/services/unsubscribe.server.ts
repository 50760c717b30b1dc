// The public unsubscribe page (/u/TOKEN) and RFC 8058's one-click POST to the same address: what a
// recipient holding a campaign's link may see and do, with no sign-in. The token
// (app/services/unsubscribe-token.server.ts) is the only credential and names one address of one
// tenant: everything here acts on that address alone. A token this server did not seal, or one
// of a tenant who no longer exists, is "not found" (null) and changes nothing.
//
// - Unsubscribing puts the address on the tenant's suppression list with the reason
//   "unsubscribed" and the campaign the link came from (its name, or "" when the campaign was
//   deleted since). Doing it again changes nothing and writes no second event.
// - Resubscribing takes the address off the list, but only when it is there because the recipient
//   unsubscribed: an address that bounced, complained or that the sender added by hand stays.
import { campaigns } from "~/models/campaigns/store.server";
import type { SuppressionReason } from "~/models/suppressions/rows";
import { suppressions } from "~/models/suppressions/store.server";
import { users } from "~/models/users/store.server";
import { senderOf } from "~/services/email/sender.server";
import { type UnsubscribeTarget, readUnsubscribeToken } from "~/services/unsubscribe-token.server";

/**
 * Where the address stands: it gets the sender's campaigns ("subscribed"), it unsubscribed
 * ("unsubscribed"), or it is suppressed for another reason the recipient cannot undo ("blocked").
 */
export type UnsubscribeState = "subscribed" | "unsubscribed" | "blocked";

/** What the public page shows: nothing more than the sender's name and the masked address. */
export type UnsubscribeView = {
  senderName: string;
  maskedEmail: string;
  state: UnsubscribeState;
  /** The suppression's reason when the state is "blocked". */
  reason: Exclude<SuppressionReason, "unsubscribed"> | null;
};

export type ResubscribeOutcome = "resubscribed" | "not-suppressed" | "refused";

/**
 * An address shown without giving it away to whoever else sees the page: the first character of
 * the mailbox, then dots, then the domain (`a•••@example.com`).
 */
export function maskEmail(email: string): string {
  const at = email.lastIndexOf("@");
  if (at <= 0) return "•••";
  return `${Array.from(email.slice(0, at))[0]}•••${email.slice(at)}`;
}

/** The target of a token this server sealed, for a tenant that still exists; otherwise null. */
async function targetOf(token: string): Promise<UnsubscribeTarget | null> {
  const target = readUnsubscribeToken(token);
  if (!target || !(await users.userRowExists(target.userId))) return null;
  return target;
}

async function viewOf(target: UnsubscribeTarget): Promise<UnsubscribeView> {
  const [sender, suppression] = await Promise.all([
    senderOf(target.userId),
    suppressions.findSuppression(target.userId, target.email),
  ]);
  const reason = suppression?.reason ?? null;
  return {
    senderName: sender.name,
    maskedEmail: maskEmail(target.email),
    state: reason === null ? "subscribed" : reason === "unsubscribed" ? "unsubscribed" : "blocked",
    reason: reason === null || reason === "unsubscribed" ? null : reason,
  };
}

/** What the page of this token shows, or null for a token that is not one of ours. Changes nothing. */
export async function unsubscribeView(token: string): Promise<UnsubscribeView | null> {
  const target = await targetOf(token);
  return target ? viewOf(target) : null;
}

/**
 * Unsubscribes the token's address (the one-click POST and the page's button alike). Idempotent:
 * an address already on the list keeps its entry. Null for a token that is not one of ours.
 */
export async function unsubscribeWithToken(token: string): Promise<UnsubscribeView | null> {
  const target = await targetOf(token);
  if (!target) return null;
  // The campaign may have been deleted since the message went out: the address goes on the list anyway.
  const campaign = await campaigns.findCampaignRow(target.userId, target.campaignId);
  await suppressions.addSuppressions(target.userId, [
    {
      email: target.email,
      reason: "unsubscribed",
      campaignId: target.campaignId,
      campaignName: campaign?.name ?? "",
    },
  ]);
  return viewOf(target);
}

/**
 * Takes the token's address off the list when the recipient had unsubscribed ("resubscribed");
 * "refused" when it is suppressed for another reason, "not-suppressed" when it is not on the list.
 * Null for a token that is not one of ours.
 */
export async function resubscribeWithToken(
  token: string,
): Promise<{ outcome: ResubscribeOutcome; view: UnsubscribeView } | null> {
  const target = await targetOf(token);
  if (!target) return null;
  const suppression = await suppressions.findSuppression(target.userId, target.email);
  let outcome: ResubscribeOutcome = "not-suppressed";
  if (suppression?.reason === "unsubscribed") {
    outcome = (await suppressions.removeSuppression(target.userId, target.email)) ? "resubscribed" : "not-suppressed";
  } else if (suppression) {
    outcome = "refused";
  }
  return { outcome, view: await viewOf(target) };
}
