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

export const MAX_CONSENT_SOURCE = 200;
export const MAX_CONSENT_TEXT = 2000;

/** A customer's consent as /api gives it. */
export type ConsentDto = { status: ConsentStatus; at: string | null; source: string; text: string };

export const NEVER_ASKED: ConsentDto = { status: "never_asked", at: null, source: "", text: "" };

export function isConsentStatus(value: unknown): value is ConsentStatus {
  return typeof value === "string" && (CONSENT_STATUSES as readonly string[]).includes(value);
}
