// Marketing consent (docs/decisions/0041-custom-fields-and-tags.md): what a customer's consent
// reads as, and recording it. The shop records "subscribed" or "unsubscribed" with the date, where
// it came from and the text the person agreed to; no record is "never asked", which is sendable.
// The suppression list has the last word where it speaks for the person: an unsubscribe, a
// complaint or a suppression by hand newer than the record reads as "unsubscribed" (a bounce says
// nothing about consent). Recording "unsubscribed" also suppresses the address, which is what keeps
// it out of every send (the launch and the send check the suppression list, and nothing else).
import { type ConsentDto, NEVER_ASKED } from "~/lib/consent";
import { consents } from "~/models/consent/store.server";
import type { ConsentRow } from "~/models/consent/rows";
import { suppressions } from "~/models/suppressions/store.server";
import type { SuppressionReason } from "~/models/suppressions/rows";
import type { Tx } from "~/models/transaction/store.server";
import type { ConsentInput } from "~/schemas/consent";

/** Suppressions that are the person's (or the shop's) choice, so they are the consent's last word. */
const WITHDRAWALS: ReadonlySet<SuppressionReason> = new Set(["unsubscribed", "complained", "manual"]);

const SOURCE_OF: Partial<Record<SuppressionReason, string>> = {
  unsubscribed: "Unsubscribe link",
  complained: "Spam complaint",
  manual: "Suppression list",
};

function toDto(row: ConsentRow): ConsentDto {
  return { status: row.status, at: row.at.toISOString(), source: row.source, text: row.text };
}

/** A customer's consent as it reads now: the record, unless a newer withdrawal on the suppression list overrides it. */
export async function consentOf(userId: string, customerId: string, email: string): Promise<ConsentDto> {
  const [recorded, suppression] = await Promise.all([
    consents.readConsent(userId, customerId),
    suppressions.findSuppression(userId, email),
  ]);
  if (suppression && WITHDRAWALS.has(suppression.reason) && (!recorded || suppression.createdAt >= recorded.at)) {
    return {
      status: "unsubscribed",
      at: suppression.createdAt.toISOString(),
      source: SOURCE_OF[suppression.reason] ?? "Suppression list",
      text: "",
    };
  }
  return recorded ? toDto(recorded) : NEVER_ASKED;
}

/**
 * Records a customer's consent in the caller's transaction ("never_asked" forgets it). Returns
 * whether the address must be suppressed once the transaction commits (suppressAfterCommit()).
 */
export async function recordConsent(
  userId: string,
  customerId: string,
  input: ConsentInput,
  tx?: Tx,
): Promise<boolean> {
  if (input.status === "never_asked") {
    await consents.clearConsent(userId, customerId, tx);
    return false;
  }
  await consents.writeConsent(
    userId,
    customerId,
    { status: input.status, at: input.at ?? new Date(), source: input.source ?? "", text: input.text ?? "" },
    tx,
  );
  return input.status === "unsubscribed";
}

/** An address whose consent was recorded as withdrawn goes on the suppression list (once; a second time changes nothing). */
export async function suppressWithdrawn(userId: string, email: string): Promise<void> {
  await suppressions.addSuppressions(userId, [
    { email, reason: "manual", details: "Consent recorded as unsubscribed" },
  ]);
}
