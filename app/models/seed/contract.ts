// What the seed's writes offer (SeedStore): a connection of the seed's own tuned for a bulk load,
// customers and orders inserted a whole batch per call and per transaction, the batch indexed for
// search, and the customers' totals computed in SQL at the end. A seed that is a good part of the
// table builds the segment indexes once at the end (SQLite; ~/db/bulk-load.server).
import type { PostgresSession } from "~/db/bulk-load.postgres.server";
import type { Sqlite } from "~/db/sqlite.server";
import type { SeedCustomer, SeedCustomerTag, SeedFieldValue, SeedOrder } from "~/models/seed/rows";

/** The seed's connection: a SQLite connection, or a PostgreSQL session (opaque to the service). */
export type SeedConnection = Sqlite | PostgresSession;

export type SeedStore = {
  /**
   * A connection of the seed's own to the configured database: on SQLite to `file` when given (a
   * database file of the caller's), with a large page cache for the randomly ordered indexes
   * (e-mail, spend, dates) and no waiting for the disk (a crash mid-seed only loses seed data); on
   * PostgreSQL a session of its own (a file is refused there). Close it with closeSeedConnection().
   */
  openSeedConnection(file?: string): Promise<SeedConnection>;
  closeSeedConnection(connection: SeedConnection): Promise<void>;
  /**
   * Where the seed starts: the customer table's last rowid (every customer the seed adds comes
   * after it; 0 on PostgreSQL, which finds the seed's customers otherwise) and how many customers
   * the tenant has (the seed numbers its e-mails from there).
   */
  seedStartingPoint(
    connection: SeedConnection,
    userId: string,
  ): Promise<{ lastRowid: number; tenantCustomers: number }>;
  /**
   * Inserts a batch of the tenant's customers in one transaction (an e-mail the tenant has already
   * is skipped), indexes them for search and counts them in the tenant's tally. Resolves with the
   * customers that went in, in the given order.
   */
  insertSeedCustomers(
    connection: SeedConnection,
    userId: string,
    customers: readonly SeedCustomer[],
  ): Promise<SeedCustomer[]>;
  /**
   * Inserts field values and tags of customers the seed has just inserted (none conflicts: the
   * customers are new), in one transaction.
   */
  insertSeedExtras(
    connection: SeedConnection,
    userId: string,
    values: readonly SeedFieldValue[],
    tags: readonly SeedCustomerTag[],
  ): Promise<void>;
  /** Inserts a batch of the tenant's orders and their items in one transaction (notes empty). */
  insertSeedOrders(connection: SeedConnection, userId: string, orders: readonly SeedOrder[]): Promise<void>;
  /**
   * The customer totals rule for the tenant's customers after `afterRowid` (on PostgreSQL: those
   * this session's seed inserted): their non-cancelled orders give totalSpend (subtotal + tax),
   * visits and lastActive, and their order figures for segments (CustomerActivity).
   */
  recomputeSeedCustomerTotals(connection: SeedConnection, userId: string, afterRowid: number): Promise<void>;
  /**
   * Runs `load` (which adds `adding` customers): when that is a good part of the table, in one
   * transaction with the segment indexes dropped first and built again after it (`onRebuild` is
   * told before the rebuild); else as it is. Resolves with whether the indexes were rebuilt.
   * PostgreSQL keeps its indexes during a load (why: ~/db/bulk-load.postgres.server).
   */
  loadSeed(
    connection: SeedConnection,
    adding: number,
    load: () => Promise<void>,
    onRebuild: () => void,
  ): Promise<boolean>;
  /** Refreshes the query planner's statistics when the seed changed the customer table enough. */
  afterSeedLoad(connection: SeedConnection, customersAdded: number): Promise<void>;
};
