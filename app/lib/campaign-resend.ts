// "Resend to non-openers": the texts and the pure rules (docs/rules.md#resend-to-non-openers). Who
// is in the audience is the model's (nonOpenersWhere in app/models/launch/);
// when an offer is made and what it is called are here, for the service, the detail page's card,
// the wizard and /api alike.
import { formatCount } from "~/lib/numbers";

/** What a resend draft's name adds to its source's name. */
export const RESEND_NAME_SUFFIX = " — non-openers";

/** The name a resend draft gets: "Diwali sale — non-openers" (at most the campaign name's 200 characters). */
export function resendName(sourceName: string): string {
  return `${sourceName.slice(0, 200 - RESEND_NAME_SUFFIX.length)}${RESEND_NAME_SUFFIX}`;
}

/**
 * How a resend's audience is named where a segment's name would be (the draft's, the list's and
 * the detail's "segment"): 'Non-openers of "Diwali sale"'.
 */
export function resendAudienceName(sourceName: string): string {
  return `Non-openers of "${sourceName}"`;
}

/** The audience as the card and the wizard say it: "1,234 non-openers of 'Diwali sale'". */
export function nonOpenersText(count: number, sourceName: string): string {
  return `${formatCount(count)} non-opener${count === 1 ? "" : "s"} of '${sourceName}'`;
}

export const RESEND_MESSAGES = {
  /** 409: only a completed campaign has a settled list of who opened it. */
  notCompleted: (status: string) =>
    `Only a completed campaign can be resent to its non-openers; this one is ${status.toLowerCase()}.`,
  /** 422 and the card's note: everyone who got it opened it, or those left are suppressed or gone. */
  nobodyLeft: "Everyone who got this campaign has opened it: there is nobody to resend it to.",
  allSuppressed: "Every non-opener of this campaign is on the suppression list: there is nobody to resend it to.",
  /** A resend draft whose source campaign was deleted since. */
  sourceGone: "The campaign this draft resends has been deleted: there is nobody to resend it to.",
  created: "Draft created: check the message, then launch it",
} as const;

/** What the card offers for a campaign, given its status and its non-openers now. */
export type ResendOffer =
  | { kind: "hidden" }
  | { kind: "nobody"; reason: string }
  | { kind: "offer"; audience: number; suppressed: number; receivers: number; subject: string };
