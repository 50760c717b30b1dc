// Marketing consent (docs/decisions/0041-custom-fields-and-tags.md), isomorphic: the three states a
// customer's consent reads as, and how screens name them. "never_asked" is sendable, as every
// customer was before consent was recorded; only "unsubscribed" (and a suppressed address) is
// left out of sends.

export const CONSENT_STATUSES = ["subscribed", "unsubscribed", "never_asked"] as const;
export type ConsentStatus = (typeof CONSENT_STATUSES)[number];

export const CONSENT_LABELS: Record<ConsentStatus, string> = {
  subscribed: "Subscribed",
  unsubscribed: "Unsubscribed",
  never_asked: "Never asked",
};

/** The source of a consent changed by hand on the customer page. */
export const CONSENT_BY_HAND_SOURCE = "Customer page";

export const MAX_CONSENT_SOURCE = 200;
export const MAX_CONSENT_TEXT = 2000;

/** A customer's consent as /api gives it. */
export type ConsentDto = { status: ConsentStatus; at: string | null; source: string; text: string };

export const NEVER_ASKED: ConsentDto = { status: "never_asked", at: null, source: "", text: "" };

export function isConsentStatus(value: unknown): value is ConsentStatus {
  return typeof value === "string" && (CONSENT_STATUSES as readonly string[]).includes(value);
}

/**
 * A status as a person may write it in a CSV cell, made a status to check: "never_asked" or its
 * label "Never asked", any case ("NEVER ASKED", "never-asked").
 */
export function consentStatusOf(cell: string): string {
  return cell
    .trim()
    .toLowerCase()
    .replace(/[\s-]+/g, "_");
}

/**
 * What the customer page says after the consent was changed by hand: the new status, and where the
 * suppression list keeps the address from campaign e-mail whatever the consent says.
 */
export function consentChangedMessage(status: ConsentStatus, email: string, suppressed: boolean): string {
  const said = `Consent changed to ${CONSENT_LABELS[status]}`;
  if (status === "unsubscribed") return `${said}: ${email} is on the suppression list and gets no campaign e-mail`;
  if (suppressed)
    return `${said}. ${email} is still on the suppression list: Resubscribe it to send it campaign e-mail`;
  return said;
}
