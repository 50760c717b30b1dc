// What the consent domain offers (./store.server.ts, one body for both engines): a customer's
// recorded marketing consent, read, written and cleared (several customers' at once). What it reads
// as (a newer unsubscribe wins) and what recording "unsubscribed" also does are the service's:
// app/services/consent.server.ts.
import type { Tx } from "~/models/transaction/store.server";
import type { ConsentRow, CustomerConsentRow, EmailConsentRow } from "./rows";

export type ConsentStore = {
  /** The tenant's customer's recorded consent, or null (never asked). */
  readConsent(userId: string, customerId: string): Promise<ConsentRow | null>;
  /** The recorded consents of several of the tenant's customers (an export slice). */
  readConsentsOf(userId: string, customerIds: readonly string[]): Promise<CustomerConsentRow[]>;
  /**
   * The tenant's customers of these e-mails (lower case, as stored), each with its recorded consent
   * or null: a page of an import's consents, in one statement.
   */
  readConsentsByEmail(userId: string, emails: readonly string[]): Promise<EmailConsentRow[]>;
  /** Whether the tenant has recorded any customer's consent. */
  holdsConsents(userId: string): Promise<boolean>;
  /** Records customers' consents (each replacing what was recorded), a few statements for them all. */
  writeConsents(userId: string, consents: readonly CustomerConsentRow[], tx?: Tx): Promise<void>;
  /** Forgets customers' recorded consents (never asked again). */
  clearConsents(userId: string, customerIds: readonly string[], tx?: Tx): Promise<void>;
};
