// What the suppression list offers (SuppressionsStore). Adding an address that is already on the
// list keeps the first entry (its reason and date) and writes no event: an unsubscribe clicked
// twice, or a bounce of an address already unsubscribed, is one suppression. Writes asked for by a
// request run on the process's connections (SQLite's writer, PostgreSQL's pool); the delivery job,
// the CLI and the worker threads pass the connection they opened.
import type { AnyConnection } from "~/db/connection.server";
import type {
  NewSuppression,
  SuppressionCursor,
  SuppressionEventRow,
  SuppressionRow,
} from "~/models/suppressions/rows";

/** A write's connection (the process's when left out) and its time (now when left out). */
export type SuppressionWriteOptions = { connection?: AnyConnection; now?: number };

export type SuppressionsStore = {
  /**
   * Puts addresses on the tenant's suppression list (those already on it stay as they were), in
   * transactions of SUPPRESSIONS_PER_TRANSACTION. Returns the addresses that were added.
   */
  addSuppressions(
    userId: string,
    entries: readonly NewSuppression[],
    options?: SuppressionWriteOptions,
  ): Promise<string[]>;
  /** Takes an address off the list and records the resubscription; false when it was not on it. */
  removeSuppression(userId: string, email: string, options?: SuppressionWriteOptions): Promise<boolean>;
  /** The entry of one address, or null when it is not suppressed. */
  findSuppression(userId: string, email: string): Promise<SuppressionRow | null>;
  /** The entries of these addresses that are on the list (a page of an import's consents), in one statement. */
  findSuppressionsOf(userId: string, emails: readonly string[]): Promise<SuppressionRow[]>;
  /**
   * A page of the tenant's list, newest first, optionally only addresses containing `search`
   * (case-insensitive), with the total that matches.
   */
  listSuppressions(
    userId: string,
    options: { search?: string; offset: number; limit: number },
  ): Promise<{ rows: SuppressionRow[]; total: number }>;
  /**
   * A page of the tenant's list, newest first (then by address), after the entry `after` (from the
   * start when null), optionally only addresses containing `search`: the /api list's keyset pages,
   * which neither skip nor repeat an entry when others are added meanwhile.
   */
  listSuppressionsAfter(
    userId: string,
    options: { search?: string; after: SuppressionCursor | null; limit: number },
  ): Promise<SuppressionRow[]>;
  /** How many of the tenant's entries contain `search` (all of them without one). */
  countSuppressionsMatching(userId: string, search?: string): Promise<number>;
  /** Every entry of the tenant's list in slices of `limit` after `afterEmail` (the export), by address. */
  suppressionsAfter(
    userId: string,
    afterEmail: string,
    limit: number,
    connection?: AnyConnection,
  ): Promise<SuppressionRow[]>;
  /** How many addresses are on the tenant's list (a launch skips the suppression check when none). */
  countSuppressions(userId: string, connection?: AnyConnection): Promise<number>;
  /** What happened to one address on the tenant's list, newest first. */
  suppressionEventsOf(userId: string, email: string, limit?: number): Promise<SuppressionEventRow[]>;
};
