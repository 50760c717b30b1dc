// Marketing consent (docs/decisions/0041-custom-fields-and-tags.md): what a customer's consent
// reads as, and recording it. The shop records "subscribed" or "unsubscribed" with the date, where
// it came from and the text the person agreed to; no record is "never asked", which is sendable.
// The suppression list has the last word where it speaks for the person: an unsubscribe, a
// complaint or a suppression by hand newer than a "subscribed" record (or with no record) reads as
// "unsubscribed" (a bounce says nothing about consent). Recording "unsubscribed" also suppresses the
// address, which is what keeps it out of every send (the launch and the send check the suppression
// list, and nothing else); that suppression, newer than the record it follows, leaves the record's
// date, source and text to read.
//
// Every way in records through recordConsents() and suppressWithdrawn(): /api's customer payload and
// the customer page (recordConsent(), one customer; app/services/customers.server.ts), and a CSV
// import's consent columns (recordConsentsByEmail(), a page of customers at a time, after the import
// has saved its rows).
import { type ConsentDto, NEVER_ASKED } from "~/lib/consent";
import { consents } from "~/models/consent/store.server";
import type { ConsentRow, CustomerConsentRow } from "~/models/consent/rows";
import { suppressions } from "~/models/suppressions/store.server";
import type { SuppressionReason } from "~/models/suppressions/rows";
import { transaction, type Tx } from "~/models/transaction/store.server";
import type { ConsentInput } from "~/schemas/consent";

/** Suppressions that are the person's (or the shop's) choice, so they are the consent's last word. */
const WITHDRAWALS: ReadonlySet<string> = new Set<SuppressionReason>(["unsubscribed", "complained", "manual"]);

const SOURCE_OF: Partial<Record<string, string>> = {
  unsubscribed: "Unsubscribe link",
  complained: "Spam complaint",
  manual: "Suppression list",
};

/** Consents an import records per transaction (and reads per statement first). */
export const CONSENTS_PER_PAGE = 500;

function toDto(row: ConsentRow): ConsentDto {
  return { status: row.status, at: row.at.toISOString(), source: row.source, text: row.text };
}

/**
 * What a consent reads as (the rule of the module comment), from its record and the address's
 * suppression: the one reading of consentOf(), an export's and an import's. A withdrawal on the list
 * speaks over no record or an older "subscribed" one; an "unsubscribed" record says the same with
 * its own date, source and text.
 */
export function consentReading(
  recorded: ConsentRow | null,
  suppression: { reason: string; createdAt: Date } | null,
): ConsentDto {
  const speaks =
    suppression !== null &&
    WITHDRAWALS.has(suppression.reason) &&
    (!recorded || (recorded.status === "subscribed" && suppression.createdAt >= recorded.at));
  if (speaks) {
    return {
      status: "unsubscribed",
      at: suppression.createdAt.toISOString(),
      source: SOURCE_OF[suppression.reason] ?? "Suppression list",
      text: "",
    };
  }
  return recorded ? toDto(recorded) : NEVER_ASKED;
}

/** A customer's consent as it reads now: the record, unless a newer withdrawal on the suppression list overrides it. */
export async function consentOf(userId: string, customerId: string, email: string): Promise<ConsentDto> {
  const [recorded, suppression] = await Promise.all([
    consents.readConsent(userId, customerId),
    suppressions.findSuppression(userId, email),
  ]);
  return consentReading(recorded, suppression);
}

/** A customer's consent to record. */
export type ConsentToRecord = { customerId: string; input: ConsentInput };

/**
 * Records customers' consents (one entry a customer) in the caller's transaction: "never_asked"
 * forgets a consent, the others replace it, dated now where no date is given. Returns the customers
 * whose consent was recorded as withdrawn: their addresses must be suppressed once the transaction
 * commits (suppressWithdrawn()).
 */
export async function recordConsents(userId: string, entries: readonly ConsentToRecord[], tx?: Tx): Promise<string[]> {
  const now = new Date();
  const forgotten: string[] = [];
  const written: CustomerConsentRow[] = [];
  for (const { customerId, input } of entries) {
    if (input.status === "never_asked") forgotten.push(customerId);
    else
      written.push({
        customerId,
        status: input.status,
        at: input.at ?? now,
        source: input.source ?? "",
        text: input.text ?? "",
      });
  }
  await consents.clearConsents(userId, forgotten, tx);
  await consents.writeConsents(userId, written, tx);
  return written.filter((c) => c.status === "unsubscribed").map((c) => c.customerId);
}

/** One customer's consent, recorded by recordConsents(): whether its address must be suppressed once the transaction commits. */
export async function recordConsent(
  userId: string,
  customerId: string,
  input: ConsentInput,
  tx?: Tx,
): Promise<boolean> {
  return (await recordConsents(userId, [{ customerId, input }], tx)).length > 0;
}

/**
 * Addresses whose consent was recorded as withdrawn go on the suppression list (once; a second
 * time changes nothing).
 */
export async function suppressWithdrawn(userId: string, emails: readonly string[]): Promise<void> {
  if (emails.length === 0) return;
  await suppressions.addSuppressions(
    userId,
    emails.map((email) => ({ email, reason: "manual", details: "Consent recorded as unsubscribed" })),
  );
}

/**
 * Whether recording `input` would leave the consent reading as it does: the same status, source
 * and text, and the same date where `input` gives one (a consent given without a date is not
 * recorded again just to move its date to now). "never_asked" is the same as never asked.
 */
export function consentUnchanged(input: ConsentInput, now: ConsentDto): boolean {
  if (input.status !== now.status) return false;
  if (input.status === "never_asked") return true;
  if (input.at !== undefined && (now.at === null || input.at.getTime() !== Date.parse(now.at))) return false;
  return (input.source ?? "") === now.source && (input.text ?? "") === now.text;
}

/** One consent of an import: the customer's e-mail (as stored) and what its row said. */
export type ConsentByEmail = { email: string; input: ConsentInput };

/**
 * Records the consents of an import's rows, whose customers it has saved: in file order, so the
 * last row of an e-mail stands; a customer whose consent already reads so is left alone (an
 * import of an export changes nothing). Each page of CONSENTS_PER_PAGE e-mails is read in two
 * statements (the customers with their records, the addresses' suppressions) and recorded in one
 * transaction by recordConsents(); then its withdrawn addresses are suppressed. Returns how many
 * customers' consent was recorded.
 */
export async function recordConsentsByEmail(userId: string, entries: Iterable<ConsentByEmail>): Promise<number> {
  // While the tenant holds no consent and no suppression, every customer reads as never asked: a
  // "never_asked" row changes nothing and is not looked up (an export of a workspace that never
  // recorded consent says so of every customer).
  let nothingHeld = !(await consents.holdsConsents(userId)) && (await suppressions.countSuppressions(userId)) === 0;
  let recorded = 0;
  let page = new Map<string, ConsentInput>();
  const flush = async () => {
    const inputs = page;
    page = new Map();
    if (nothingHeld) for (const [email, input] of inputs) if (input.status === "never_asked") inputs.delete(email);
    if (inputs.size === 0) return;
    const n = await recordPage(userId, inputs);
    if (n > 0) nothingHeld = false;
    recorded += n;
    // The thread's other work (requests, on the server) gets its turn between two pages.
    await new Promise<void>((resolve) => setImmediate(resolve));
  };
  for (const entry of entries) {
    // The last row of an e-mail stands: a later one in the page replaces it, one in a later page is recorded after it.
    page.delete(entry.email);
    page.set(entry.email, entry.input);
    if (page.size >= CONSENTS_PER_PAGE) await flush();
  }
  if (page.size > 0) await flush();
  return recorded;
}

async function recordPage(userId: string, inputs: Map<string, ConsentInput>): Promise<number> {
  const emails = [...inputs.keys()];
  const [customers, listed] = await Promise.all([
    consents.readConsentsByEmail(userId, emails),
    suppressions.findSuppressionsOf(userId, emails),
  ]);
  const suppressionOf = new Map(listed.map((s) => [s.email, s]));
  const changes = customers.flatMap((c) => {
    const input = inputs.get(c.email);
    if (!input || consentUnchanged(input, consentReading(c.recorded, suppressionOf.get(c.email) ?? null))) return [];
    return [{ ...c, input }];
  });
  if (changes.length === 0) return 0;
  const withdrawn = new Set(await transaction((tx) => recordConsents(userId, changes, tx)));
  await suppressWithdrawn(
    userId,
    changes.filter((c) => withdrawn.has(c.customerId)).map((c) => c.email),
  );
  return changes.length;
}
