// A customer's recorded marketing consent as stored (CustomerConsent;
// docs/decisions/0041-custom-fields-and-tags.md). No row: never asked.

/** A recorded consent: "subscribed" or "unsubscribed", when, where from, and the text agreed to. */
export type ConsentRow = { status: "subscribed" | "unsubscribed"; at: Date; source: string; text: string };

/** A recorded consent with its customer (several customers' at once, for an export slice). */
export type CustomerConsentRow = ConsentRow & { customerId: string };

/** A customer found by e-mail with its recorded consent (null: never asked). */
export type EmailConsentRow = { customerId: string; email: string; recorded: ConsentRow | null };
