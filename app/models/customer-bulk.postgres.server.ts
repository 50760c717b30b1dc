// The CSV import's and export's queries on PostgreSQL: the twins of ./customer-bulk.server.ts.
//
// The import runs on a session of its own (~/db/bulk-load.postgres.server): its good rows stream
// into a temporary table through one COPY held open while the file is read (nothing of the
// tenant's is written until the whole file has parsed, as on SQLite), then go into "Customer" in
// batches of that table's rows, each one INSERT … SELECT … ON CONFLICT DO UPDATE in a transaction
// of its own. The export reads the tenant's customers a slice at a time, newest added first (by
// id, PostgreSQL's stand-in for the rowid).
import type pg from "pg";
import { inSessionTransaction, openCopy, type CopyWriter, type PostgresSession } from "~/db/bulk-load.postgres.server";
import type { Postgres } from "~/db/postgres.server";
import { afterCustomerBulkLoadPg } from "~/db/planner-statistics.postgres.server";
import type { ColumnMapping, ImportField } from "~/lib/customer-csv";
import type { ExportRow } from "~/models/customer-bulk.server";
import { searchCondition, SqlParams } from "~/models/customer-search.postgres.server";
import { ADD_TO_TALLY_SQL_PG } from "~/models/customers.postgres.server";

/** The staged values of one row, in this order (STAGED_VALUES of them, as SQLite stages them). */
const STAGED_COLUMNS = [
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
const STAGED_VALUES = STAGED_COLUMNS.length;

/** The staging of an import's good rows on PostgreSQL, in progress. */
export type PostgresStaging = { session: PostgresSession; copy: CopyWriter };

/** Empties the staging table (creating it the first time) and opens the COPY into it. */
export async function startStagingPg(session: PostgresSession): Promise<PostgresStaging> {
  // "n" numbers the rows in file order, from 1 (merged in that order, a later row of an e-mail
  // updates the earlier one, as an upsert row by row would).
  await session.client.query(`CREATE TEMP TABLE IF NOT EXISTS "import_rows" (
    "n" bigserial, "id" text NOT NULL, "firstName" text NOT NULL, "lastName" text NOT NULL, "email" text NOT NULL,
    "phone" text NOT NULL, "address" text NOT NULL, "company" text NOT NULL, "notes" text NOT NULL,
    "totalSpendPaise" bigint, "visits" integer, "lastActive" timestamptz)`);
  await session.client.query(`TRUNCATE "import_rows" RESTART IDENTITY`);
  return { session, copy: openCopy(session.client, `"import_rows"`, STAGED_COLUMNS) };
}

/** Rows of flat staged values (`rows` of them): the last active milliseconds as a date. */
function* stagedRows(values: readonly unknown[], rows: number): Generator<unknown[]> {
  for (let r = 0; r < rows; r++) {
    const row = values.slice(r * STAGED_VALUES, (r + 1) * STAGED_VALUES);
    const lastActive = row[10];
    row[10] = typeof lastActive === "number" ? new Date(lastActive) : null;
    yield row;
  }
}

export async function stageImportGroupsPg(
  staging: PostgresStaging,
  groups: readonly unknown[][],
  rowsPerGroup: number,
): Promise<void> {
  for (const group of groups) await staging.copy.write(stagedRows(group, rowsPerGroup));
}

export async function finishStagingPg(
  staging: PostgresStaging,
  values: readonly unknown[],
  rows: number,
): Promise<void> {
  await staging.copy.write(stagedRows(values, rows));
  await staging.copy.end();
}

export async function discardStagingPg(staging: PostgresStaging): Promise<void> {
  await staging.copy.abort();
  await clearStagedRowsPg(staging.session);
}

export async function clearStagedRowsPg(session: PostgresSession): Promise<void> {
  await session.client.query(`TRUNCATE "import_rows"`);
}

export async function lastStagedRowPg(session: PostgresSession): Promise<number> {
  const { rows } = await session.client.query<{ n: string | number }>(
    `SELECT coalesce(max("n"), 0) AS n FROM "import_rows"`,
  );
  return Number(rows[0]?.n ?? 0);
}

/**
 * The upsert of the staged rows (from, to] into the tenant's customers on e-mail; resolves with
 * how many were new. One statement may not update a row twice, so the batch's rows of one e-mail
 * are folded first into what merging them one by one (SQLite's upsert) leaves: the first row's id
 * (the row that would have been inserted), the last row's text, spend and visits (an empty cell
 * there is 0, as SQLite's insert values make it), and the last last-active date given.
 */
export function prepareMergePg(
  session: PostgresSession,
  userId: string,
  mapping: ColumnMapping,
  now: number,
): (from: number, to: number) => Promise<number> {
  const keep = (field: ImportField, column: string, value = `excluded."${column}"`) =>
    mapping[field] !== undefined ? `"${column}" = ${value}` : null;
  const sets = [
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
  ].filter(Boolean);
  const last = (column: string) => `(array_agg("${column}" ORDER BY "n" DESC))[1] AS "${column}"`;
  const lastGiven = (column: string) =>
    `(array_agg("${column}" ORDER BY "n" DESC) FILTER (WHERE "${column}" IS NOT NULL))[1] AS "${column}"`;
  const upsert = `WITH "folded" AS (
      SELECT "email", min("n") AS "n", (array_agg("id" ORDER BY "n"))[1] AS "id",
        ${["firstName", "lastName", "phone", "address", "company", "notes", "totalSpendPaise", "visits"].map(last).join(", ")},
        ${lastGiven("lastActive")}
      FROM "import_rows" WHERE "n" > $2 AND "n" <= $3 GROUP BY "email")
    INSERT INTO "Customer" ("id", "userId", "firstName", "lastName", "email", "phone", "address", "company", "notes",
      "totalSpendPaise", "visits", "lastActive", "createdAt", "updatedAt")
    SELECT "id", $1, "firstName", "lastName", "email", "phone", "address", "company", "notes",
      coalesce("totalSpendPaise", 0), coalesce("visits", 0), "lastActive", $4, $4
    FROM "folded" ORDER BY "n"
    ON CONFLICT ("userId", "email") DO UPDATE SET ${sets.join(", ")}
    RETURNING ("xmax" = 0) AS "created"`;
  const at = new Date(now);
  return (from, to) =>
    inSessionTransaction(session, async () => {
      const { rows } = await session.client.query<{ created: boolean }>(upsert, [userId, from, to, at]);
      const created = rows.filter((r) => r.created).length;
      if (created > 0) await session.client.query(ADD_TO_TALLY_SQL_PG, [userId, created]);
      return created;
    });
}

export async function refreshStatisticsAfterImportPg(session: PostgresSession, created: number): Promise<void> {
  await afterCustomerBulkLoadPg(session.client, created);
}

/** Up to `limit` of the tenant's customers (all, or those matching `term`) before id `after`, newest added first. */
export async function readExportSlicePg(
  db: Postgres | pg.PoolClient,
  userId: string,
  term: string,
  after: string | null,
  limit: number,
): Promise<ExportRow[]> {
  const params = new SqlParams([userId]);
  const where = [`c."userId" = $1`];
  if (after !== null) where.push(`c."id" < ${params.add(after)}`);
  if (term) where.push(searchCondition(params, term));
  const target = "engine" in db ? db.pool : db;
  const { rows } = await target.query<ExportRow>(
    `SELECT c."id" AS r, c."id", c."firstName", c."lastName", c."email", c."phone", c."address", c."company", c."notes",
       c."totalSpendPaise", c."visits", c."lastActive", c."createdAt"
     FROM "Customer" c WHERE ${where.join(" AND ")} ORDER BY c."id" DESC LIMIT ${params.add(Math.trunc(limit))}`,
    params.values,
  );
  return rows;
}
