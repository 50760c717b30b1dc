// What `crm db copy` (copy-to-postgres.server.ts) copies: every table of prisma/schema.prisma in
// the order it goes, the tables it leaves, the kinds of value a column holds, and the error that
// tells the admin what to do.

/**
 * Every table of prisma/schema.prisma, parents before children, each copied whole. The queues are
 * copied too, not required empty: receipts in "ReceiptInbox" are outcomes the delivery job has not
 * applied yet (it applies them on PostgreSQL), pending "Delivery" rows go out from PostgreSQL (a
 * claimed batch is claimed again when its lease ends, as after a crash), and "IdempotencyKey" rows
 * still answer a client that repeats a request after the switch. "CustomerTally" is copied as it is:
 * PostgreSQL counts only deletes by trigger (the services add on create). A model added to
 * schema.prisma must be added here (the test compares the two lists).
 */
export const COPY_TABLES = [
  "User",
  "Notification",
  "CustomField",
  "Tag",
  "Customer",
  "CustomerTally",
  "CustomerFieldValue",
  "CustomerTag",
  "CustomerConsent",
  "CustomerActivity",
  // Events from the shop's own systems (POST /api/events) and the product's own (order_placed, customer_created).
  "CustomerEvent",
  "Order",
  "OrderItem",
  "Segment",
  "Campaign",
  "Delivery",
  "DeliveryEvent",
  "ReceiptInbox",
  "DashboardSnapshot",
  "IdempotencyKey",
  "Suppression",
  "SuppressionEvent",
  // Message templates (their autosaved drafts with them), the images they show, the tenant's brand.
  "EmailTemplate",
  "Image",
  "Brand",
  // Flows: their versions, each person's entry and their passages through steps (a waiting person
  // goes on from PostgreSQL when their step is due).
  "Flow",
  "FlowVersion",
  "FlowEntry",
  "FlowPassage",
  // Sign-in counters: empty on SQLite (its workers count in memory), so nothing goes across today.
  "SignInAttempt",
  // The send rate's bucket: empty on SQLite too (its one delivery job keeps it in memory).
  "SendRate",
] as const;

// SQLite's own tables and the ones made by hand there that PostgreSQL does another way (the FTS5
// search table: an index of "Customer" on PostgreSQL) or keeps for itself (the migrations' record).
export const NOT_COPIED = /^(customer_search(_\w+)?|_prisma_migrations|sqlite_\w+)$/;

/** An error whose message tells the admin what to do; the CLI prints it without a stack. */
export class CopyRefused extends Error {
  override name = "CopyRefused";
}

/** A copied column and the kind of value it takes on PostgreSQL. */
export type Column = { name: string; type: "text" | "int" | "real" | "bool" | "timestamp" | "bytes" };

/** "postgres://crm:***@db:5432/crm": the URL without its password, for messages. */
export function urlForDisplay(url: string): string {
  const u = new URL(url);
  if (u.password) u.password = "***";
  return u.toString();
}

/** A name quoted for SQL. */
export function quote(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}
