// The customers as stored, what both engines share: the Customer row, what a write stores, the
// detail's rows, the list's sort keys, positions and rows, the CSV import's staged values and its
// update on e-mail, the export's rows, and the statements other domains' bulk loads run too.
//
// The list's reads walk a tenant-first index from a keyset position
// (docs/decisions/0014-customer-sorting.md): every sort is a key of one or more columns and then the
// row's own place (unique, so equal keys still have one order and a cursor one place), all in the
// same direction, which is exactly the order of a tenant-first index: a page is a walk of that index
// from the cursor's place, and the reversed order (Previous, the last page) is the same walk
// backwards. Spend, visits and last active use the segment indexes
// (docs/decisions/0004-segment-compiler.md), so their ties are broken by the other two figures; the
// name has its own index (migration customer_sort_by_name); the date added is the row's place, the
// order customers were added in.
import type { Customer } from "~/generated/prisma/client";
import type { CustomerSort } from "~/lib/customers";
import type { ColumnMapping, ImportField } from "~/lib/customer-csv";
import type { CustomerFieldValueRow } from "~/models/custom-fields/rows";
import type { RecentOrderRow } from "~/models/orders/rows";
import type { CustomerTagRow } from "~/models/tags/rows";

/** One Customer row (dates as unixepoch milliseconds, as the read connection returns them). */
export type CustomerRow = Omit<Customer, "lastActive" | "createdAt" | "updatedAt"> & {
  lastActive: number | null;
  createdAt: number;
  updatedAt: number;
};

/** The Customer columns of a whole CustomerRow, on the table as `c` (dates come back as ms on both engines). */
export const CUSTOMER_COLUMNS = `c."id", c."userId", c."firstName", c."lastName", c."email", c."phone", c."address", c."company", c."notes",
  c."totalSpendPaise", c."visits", c."lastActive", c."createdAt", c."updatedAt"`;

/** What a customer write stores: the personal fields, and the starting values when given. */
export type CustomerFields = Pick<
  CustomerRow,
  "firstName" | "lastName" | "email" | "phone" | "address" | "company" | "notes"
> & {
  totalSpendPaise?: number;
  visits?: number;
  lastActive?: Date | null;
};

/** The tenant already has a customer with this e-mail (the ("userId", "email") unique index). */
export class DuplicateCustomerEmail extends Error {
  constructor() {
    super("A customer with this e-mail already exists");
  }
}

/** A segment of the tenant as the customer detail reads it: enough to tell whether the customer is in it. */
export type DetailSegmentRow = { id: string; name: string; conditions: string };

/** What the customer detail reads: the customer, their newest orders, and the tenant's segments with their conditions. */
export type CustomerDetailRows = {
  customer: CustomerRow;
  orders: RecentOrderRow[];
  segments: DetailSegmentRow[];
};

/** Adds n to the tenant's customer count (every path that inserts customers runs it): SQLite's placeholders. */
export const ADD_TO_TALLY_SQL = `INSERT INTO "CustomerTally" ("userId", "customers") VALUES (?, ?)
  ON CONFLICT ("userId") DO UPDATE SET "customers" = "customers" + excluded."customers"`;

/** ADD_TO_TALLY_SQL with PostgreSQL's placeholders (which also wants the column's table named). */
export const ADD_TO_TALLY_SQL_PG = `INSERT INTO "CustomerTally" ("userId", "customers") VALUES ($1, $2)
  ON CONFLICT ("userId") DO UPDATE SET "customers" = "CustomerTally"."customers" + excluded."customers"`;

// ---------------------------------------------------------------------------------------------
// The list's pages

/** What a sort key holds, as a cursor carries it. */
export type SortKeyType = { type: "integer" | "text"; nullable: boolean };

/** The columns a list sorts by: the name ("First Last", lower-cased, as its index holds it) and the three figures. */
export type SortKeyName = "name" | "spend" | "visits" | "lastActive";

/** What each key holds. Last active is NULL for a customer never active, which sorts before every date. */
const KEY_TYPES: Record<SortKeyName, SortKeyType> = {
  name: { type: "text", nullable: false },
  spend: { type: "integer", nullable: false },
  visits: { type: "integer", nullable: false },
  lastActive: { type: "integer", nullable: true },
};

/** The keys of each sort before the row's place, in order (each engine words them in its own SQL). */
export const SORT_KEY_NAMES: Record<CustomerSort, readonly SortKeyName[]> = {
  createdAt: [],
  name: ["name"],
  totalSpend: ["spend", "visits", "lastActive"],
  visits: ["visits", "spend", "lastActive"],
  lastActive: ["lastActive", "spend", "visits"],
};

/** The keys of each sort before the row's place, in order: what a cursor of that sort holds. */
export const SORT_KEYS: Record<CustomerSort, readonly SortKeyType[]> = {
  createdAt: SORT_KEY_NAMES.createdAt.map((k) => KEY_TYPES[k]),
  name: SORT_KEY_NAMES.name.map((k) => KEY_TYPES[k]),
  totalSpend: SORT_KEY_NAMES.totalSpend.map((k) => KEY_TYPES[k]),
  visits: SORT_KEY_NAMES.visits.map((k) => KEY_TYPES[k]),
  lastActive: SORT_KEY_NAMES.lastActive.map((k) => KEY_TYPES[k]),
};

export type KeyValue = string | number | null;

/**
 * A row's own place, the last of every sort's keys: SQLite's rowid (the order rows were added in);
 * on PostgreSQL, which has no rowid, the row's id (time-ordered, decision 0029).
 */
export type RowKey = number | string;

/** A place in a sort: a row's key values and its place `r`. */
export type Position = { keys: KeyValue[]; r: RowKey };

/** A row of a page: the customer, its place `r`, and its sort's key values as k0, k1, … */
export type ListRow = CustomerRow & { r: RowKey } & Record<`k${number}`, KeyValue>;

/** One statement of a walk: the SQL and its parameters. */
export type ListQuery = { sql: string; params: unknown[] };

// ---------------------------------------------------------------------------------------------
// The CSV import and export

/**
 * The search index's buffer in a bulk import, smaller than a seed's: the import keeps under 300 MB
 * of memory for a million rows.
 */
export const IMPORT_SEARCH_BUFFER_BYTES = 16 * 1024 * 1024;

/** The values of one staged row, in this order: id, the seven personal fields, spend (paise), visits, last active (ms). */
export const STAGED_VALUES = 11;
/** A customer's seven personal fields, in the order the Customer columns and the CSV files take them. */
export const personalFields = (
  c: Pick<CustomerRow, "firstName" | "lastName" | "email" | "phone" | "address" | "company" | "notes">,
) => [c.firstName, c.lastName, c.email, c.phone, c.address, c.company, c.notes];
/**
 * The columns of those values, as PostgreSQL's COPY names them: a staged row of the import, and
 * (with "createdAt" after them) a batch of the seed's customers.
 */
export const STAGED_COLUMNS = [
  `"id"`,
  `"firstName"`,
  `"lastName"`,
  `"email"`,
  `"phone"`,
  `"address"`,
  `"company"`,
  `"notes"`,
  `"totalSpendPaise"`,
  `"visits"`,
  `"lastActive"`,
];
/** Staged rows a statement: a group of them is STAGE_ROWS * STAGED_VALUES values. */
export const STAGE_ROWS = 50;

/**
 * A file with field or tags columns stages two values more a row, after the STAGED_VALUES: the
 * row's field values as JSON (`{"city": ["Pune", "pune", null], "tier": null}`: each field column
 * of the file, its value as [value, textKey, numberValue] or null to clear it) and its tags as JSON
 * (`[["vip", "VIP", "<new tag id>"], …]`: key, spelling, the id a tag made from it takes; `[]`
 * clears them), each null when the file has no such column. A file without them stages exactly
 * the STAGED_VALUES, into a table without these columns.
 */
export const STAGED_EXTRA_VALUES = 2;
/** The extra staged columns, after STAGED_COLUMNS. */
export const STAGED_EXTRA_COLUMNS = [`"fields"`, `"tags"`];

/** What a staged field value holds: [value, textKey, numberValue], or null (the cell was empty: clear it). */
export type StagedFieldValue = [string, string | null, number | null] | null;
/** What a staged tag holds: its key, its spelling, and the id it takes if the tenant does not have it yet. */
export type StagedTag = [key: string, name: string, id: string];

/**
 * What a merge writes besides the customers: the staged rows' extra columns it carries (`fields`,
 * `tags`), and `defaults`, the values a new customer takes of the fields the file has no column for
 * (JSON as a staged row's fields: `{"tier": ["Bronze", "bronze", null]}`), null when none has a default.
 *
 * `createdEvents`: each new customer gets the product's own customer_created event in the batch's
 * transaction (app/services/own-events.server.ts), as one made on the form does. Asked for only when
 * a live flow starts on that event: a bulk load otherwise writes a million events nobody reads.
 */
export type MergeExtras = { fields: boolean; tags: boolean; defaults: string | null; createdEvents?: boolean };
export const NO_EXTRAS: MergeExtras = { fields: false, tags: false, defaults: null };

/**
 * The customer_created events of a batch's new customers (SQLite; @userId, @before: the largest
 * Customer rowid before the batch, @now): the event's id is the second of now in hex followed by
 * the rest of the customer's id, so it sorts after the events kept before the import commits.
 */
export const CREATED_EVENTS_SQLITE = `INSERT INTO "CustomerEvent" ("id", "userId", "eventId", "name", "customerId", "properties", "occurredAt", "receivedAt")
  SELECT printf('%08x', @now / 1000) || substr(c."id", 9), @userId, 'crm:customer:' || c."id", 'customer_created', c."id",
    '{}', @now, @now
  FROM "Customer" c WHERE c.rowid > @before
  ON CONFLICT DO NOTHING`;

/** The same on PostgreSQL ($1 userId, $2 now as milliseconds, $3 the new customers' ids). */
export const CREATED_EVENTS_PG = `INSERT INTO "CustomerEvent" ("id", "userId", "eventId", "name", "customerId", "properties", "occurredAt", "receivedAt")
  SELECT lpad(to_hex(($2::bigint / 1000)), 8, '0') || substr(c."id", 9), $1, 'crm:customer:' || c."id", 'customer_created', c."id",
    '{}', to_timestamp($2::bigint / 1000.0), to_timestamp($2::bigint / 1000.0)
  FROM unnest($3::text[]) AS c("id")
  ON CONFLICT DO NOTHING`;

/** A field definition as the import and the export read it on their own connection. */
export type CsvFieldRow = {
  name: string;
  label: string;
  type: string;
  /** The choices as stored: a JSON list of text. */
  choices: string;
  defaultValue: string | null;
  retired: boolean;
};

/** The tenant's field definitions in their order (retired ones too), `p` the engine's placeholder. */
export const csvFieldsSql = (p: (n: number) => string) =>
  `SELECT "name", "label", "type", "choices", "defaultValue", ("retiredAt" IS NOT NULL) AS "retired"
   FROM "CustomField" WHERE "userId" = ${p(1)} ORDER BY "position", "createdAt"`;

/** A field the import makes from a column it did not know (a text field). */
export type NewCsvField = { id: string; name: string; label: string };

/**
 * Whether the tenant holds any field value, any tag, any recorded consent or suppressed address:
 * an export reads them per slice only if so.
 */
export type ExportExtras = { values: boolean; tags: boolean; consents: boolean };

/**
 * What an export slice's customer's consent is read from: its record (status null: none) and its
 * address's entry on the suppression list (reason null: none), dates in milliseconds.
 */
export type ExportConsentRow = {
  customerId: string;
  status: "subscribed" | "unsubscribed" | null;
  at: number | null;
  source: string | null;
  text: string | null;
  reason: string | null;
  suppressedAt: number | null;
};

export type { CustomerFieldValueRow, CustomerTagRow };

/** The upsert of staged rows into the tenant's customers, prepared. */
export type CustomerMerge = { batch: (from: number, to: number) => number | Promise<number> };

/**
 * What the import's upsert sets on a customer whose e-mail the tenant has already: only the
 * columns the file has (`mapping`), an empty figure keeping the stored one, and the update time.
 */
export function mergeUpdateSets(mapping: ColumnMapping): string {
  const keep = (field: ImportField, column: string, value = `excluded."${column}"`) =>
    mapping[field] !== undefined ? `"${column}" = ${value}` : null;
  return [
    keep("firstName", "firstName"),
    keep("lastName", "lastName"),
    keep("phone", "phone"),
    keep("address", "address"),
    keep("company", "company"),
    keep("notes", "notes"),
    keep("totalSpend", "totalSpendPaise", `coalesce(excluded."totalSpendPaise", "Customer"."totalSpendPaise")`),
    keep("visits", "visits", `coalesce(excluded."visits", "Customer"."visits")`),
    keep("lastActive", "lastActive", `coalesce(excluded."lastActive", "Customer"."lastActive")`),
    `"updatedAt" = excluded."updatedAt"`,
  ]
    .filter(Boolean)
    .join(", ");
}

/** The upsert's columns of "Customer", in the order both engines insert them. */
export const MERGE_COLUMNS = `"id", "userId", "firstName", "lastName", "email", "phone", "address", "company", "notes",
       "totalSpendPaise", "visits", "lastActive", "createdAt", "updatedAt"`;

/** One customer as the export reads it, with its place `r` (the slices' cursor: the rowid, its id on PostgreSQL). */
export type ExportRow = Omit<CustomerRow, "userId" | "updatedAt"> & { r: RowKey };

/** The export's columns of "Customer" c, after the row's place. */
export const EXPORT_COLUMNS = `c."id", c."firstName", c."lastName", c."email", c."phone", c."address", c."company", c."notes",
               c."totalSpendPaise", c."visits", c."lastActive", c."createdAt"`;
