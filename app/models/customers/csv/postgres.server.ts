// The customers' CSV import and export on PostgreSQL. The import runs on a session of its own
// (~/db/bulk-load.postgres.server): its good rows stream into a temporary table through one COPY
// held open while the file is read (nothing of the tenant's is written until the whole file has
// parsed, as on SQLite), then go into "Customer" in batches of that table's rows, each one
// INSERT … SELECT … ON CONFLICT DO UPDATE in a transaction of its own. The export reads the
// tenant's customers a slice at a time, newest added first (by id, PostgreSQL's stand-in for the
// rowid).
import type { Pool, PoolClient } from "pg";
import {
  closePostgresSession,
  inSessionTransaction,
  isPostgresSession,
  openCopy,
  openPostgresSession,
  type PostgresSession,
} from "~/db/bulk-load.postgres.server";
import { openConnection, type AnyConnection } from "~/db/connection.server";
import { postgresOf } from "~/db/engine.server";
import { afterCustomerBulkLoadPg } from "~/db/planner-statistics.postgres.server";
import type { CustomerCsvStore, ImportStaging, PostgresStaging } from "./contract";
import {
  ADD_TO_TALLY_SQL_PG,
  csvFieldsSql,
  EXPORT_COLUMNS,
  MERGE_COLUMNS,
  mergeUpdateSets,
  NO_EXTRAS,
  CREATED_EVENTS_PG,
  STAGE_ROWS,
  STAGED_COLUMNS,
  STAGED_EXTRA_COLUMNS,
  STAGED_EXTRA_VALUES,
  STAGED_VALUES,
  type CsvFieldRow,
  type CustomerFieldValueRow,
  type CustomerTagRow,
  type ExportConsentRow,
  type ExportExtras,
  type ExportRow,
  type MergeExtras,
} from "../rows";
import { searchCondition, SqlParams } from "../search-sql";

// ---------------------------------------------------------------------------------------------
// The CSV import

/** The import's PostgreSQL session (an export's pool takes no import). */
function importSession(connection: AnyConnection): PostgresSession {
  if (isPostgresSession(connection)) return connection;
  throw new Error("An import needs the connection openImportConnection() gives");
}

function postgresStaging(staging: ImportStaging): PostgresStaging {
  if (!("session" in staging)) throw new Error("A SQLite staging reached PostgreSQL's implementation.");
  return staging;
}

/** Rows of flat staged values (`rows` of them, `width` values each): the last active milliseconds as a date. */
function* stagedRows(values: readonly unknown[], rows: number, width: number): Generator<unknown[]> {
  for (let r = 0; r < rows; r++) {
    const row = values.slice(r * width, (r + 1) * width);
    const lastActive = row[10];
    row[10] = typeof lastActive === "number" ? new Date(lastActive) : null;
    yield row;
  }
}

/** The session's client, or the export's pool. */
function readerOf(connection: AnyConnection): Pool | PoolClient {
  const own = postgresOf(connection);
  return isPostgresSession(own) ? own.client : own.pool;
}

/** A statement of the extras and what it is given: $1 the tenant, then these. */
type ExtrasStatement = { sql: string; params: "batch" | "batchAt" };

/**
 * The writes of the staged rows' field values and tags, for a batch inside the merge's transaction,
 * after its customers are upserted, each one statement over the batch ($1 the tenant, $2 and $3
 * the batch's rows (from, to]; `batch` statements take the upsert's customers as $4, their e-mails,
 * and $5, their ids, so no statement looks a customer up again; `batchAt` ones the time as $4):
 *
 * - field values: each customer's last value of each field column is set, or deleted when its cell
 *   was empty (one statement: the delete a CTE of the upsert, on other rows);
 * - tags: the tags the tenant lacks are made (the first spelling in the batch names a new one),
 *   then each customer's tags not in its last row's cell are taken off and the rest put on.
 */
function extrasStatements(extras: MergeExtras): ExtrasStatement[] {
  const statements: ExtrasStatement[] = [];
  const customersOf = `unnest($4::text[], $5::text[]) AS c("email", "id")`;
  if (extras.fields) {
    statements.push({
      params: "batch",
      sql: `WITH "last" AS (
        SELECT DISTINCT ON (r."email", j."key") r."email", j."key" AS "name", j."value" AS "v"
        FROM "import_rows" r CROSS JOIN LATERAL jsonb_each(r."fields") j
        WHERE r."n" > $2 AND r."n" <= $3
        ORDER BY r."email", j."key", r."n" DESC),
      "target" AS (
        SELECT c."id" AS "customerId", l."name", l."v" FROM "last" l JOIN ${customersOf} ON c."email" = l."email"),
      "cleared" AS (
        DELETE FROM "CustomerFieldValue" f USING "target" t
        WHERE jsonb_typeof(t."v") = 'null' AND f."customerId" = t."customerId" AND f."name" = t."name")
      INSERT INTO "CustomerFieldValue" ("userId", "customerId", "name", "value", "textKey", "numberValue")
      SELECT $1::text, t."customerId", t."name", t."v" ->> 0, t."v" ->> 1, (t."v" ->> 2)::double precision
      FROM "target" t WHERE jsonb_typeof(t."v") = 'array'
      ON CONFLICT ("customerId", "name") DO UPDATE SET
        "value" = excluded."value", "textKey" = excluded."textKey", "numberValue" = excluded."numberValue"`,
    });
  }
  if (extras.tags) {
    const target = `WITH "last" AS (
        SELECT DISTINCT ON (r."email") r."email", r."tags" FROM "import_rows" r
        WHERE r."n" > $2 AND r."n" <= $3 ORDER BY r."email", r."n" DESC),
      "target" AS (
        SELECT c."id" AS "customerId", l."tags" FROM "last" l JOIN ${customersOf} ON c."email" = l."email")`;
    statements.push(
      // The first spelling in file order names a new tag; a tag the tenant has keeps its name.
      {
        params: "batchAt",
        sql: `INSERT INTO "Tag" ("id", "userId", "name", "key", "createdAt")
        SELECT DISTINCT ON (e."tag" ->> 0) e."tag" ->> 2, $1::text, e."tag" ->> 1, e."tag" ->> 0, $4::timestamptz
        FROM "import_rows" r CROSS JOIN LATERAL jsonb_array_elements(r."tags") WITH ORDINALITY AS e("tag", "i")
        WHERE r."n" > $2 AND r."n" <= $3
        ORDER BY e."tag" ->> 0, r."n", e."i"
        ON CONFLICT ("userId", "key") DO NOTHING`,
      },
      {
        params: "batch",
        sql: `${target}
      DELETE FROM "CustomerTag" ct USING "target" t, "Tag" g
      WHERE ct."customerId" = t."customerId" AND g."id" = ct."tagId" AND g."userId" = $1
        AND NOT EXISTS (SELECT 1 FROM jsonb_array_elements(t."tags") e("tag") WHERE e."tag" ->> 0 = g."key")`,
      },
      {
        params: "batch",
        sql: `${target}
      INSERT INTO "CustomerTag" ("tagId", "customerId", "userId")
      SELECT g."id", t."customerId", $1::text
      FROM "target" t CROSS JOIN LATERAL jsonb_array_elements(t."tags") e("tag")
      JOIN "Tag" g ON g."userId" = $1 AND g."key" = e."tag" ->> 0
      ON CONFLICT DO NOTHING`,
      },
    );
  }
  return statements;
}

export const postgresCustomerCsv: CustomerCsvStore = {
  async openImportConnection() {
    return openPostgresSession("crm import");
  },

  async openExportConnection() {
    return openConnection({ poolSize: 1, applicationName: "crm export" });
  },

  async closeConnection(connection) {
    if (isPostgresSession(connection)) return closePostgresSession(connection);
    await postgresOf(connection).pool.end();
  },

  async startStaging(connection, extras) {
    const session = importSession(connection);
    // "n" numbers the rows in file order, from 1 (merged in that order, a later row of an e-mail
    // updates the earlier one, as an upsert row by row would). The table is made for this import:
    // the extra columns only when its file has field or tags columns.
    await session.client.query(`DROP TABLE IF EXISTS "import_rows"`);
    await session.client.query(`CREATE TEMP TABLE "import_rows" (
    "n" bigserial, "id" text NOT NULL, "firstName" text NOT NULL, "lastName" text NOT NULL, "email" text NOT NULL,
    "phone" text NOT NULL, "address" text NOT NULL, "company" text NOT NULL, "notes" text NOT NULL,
    "totalSpendPaise" bigint, "visits" integer, "lastActive" timestamptz${extras ? `, "fields" jsonb, "tags" jsonb` : ""})`);
    const columns = extras ? [...STAGED_COLUMNS, ...STAGED_EXTRA_COLUMNS] : STAGED_COLUMNS;
    return {
      session,
      copy: openCopy(session.client, `"import_rows"`, columns),
      width: STAGED_VALUES + (extras ? STAGED_EXTRA_VALUES : 0),
    };
  },

  async stageImportGroups(staging, groups) {
    const own = postgresStaging(staging);
    for (const group of groups) await own.copy.write(stagedRows(group, STAGE_ROWS, own.width));
  },

  async finishStaging(staging, values, rows) {
    const own = postgresStaging(staging);
    await own.copy.write(stagedRows(values, rows, own.width));
    await own.copy.end();
    if (own.width > STAGED_VALUES) {
      // A file with field or tags columns is read four or five times a batch (the customers, the
      // values, the tags): each a range of "n" rather than a scan of the whole table. Built once
      // the rows are in (one sort), with the statistics the planner then needs of a temporary table.
      await own.session.client.query(`CREATE INDEX ON "import_rows" ("n")`);
      await own.session.client.query(`ANALYZE "import_rows"`);
    }
  },

  async discardStaging(staging) {
    const own = postgresStaging(staging);
    await own.copy.abort();
    await postgresCustomerCsv.clearStagedRows(own.session);
  },

  async clearStagedRows(connection) {
    await importSession(connection).client.query(`TRUNCATE "import_rows"`);
  },

  /**
   * The upsert of the staged rows (from, to] into the tenant's customers on e-mail; a batch resolves
   * with how many were new. One statement may not update a row twice, so the batch's rows of one
   * e-mail are folded first into what merging them one by one (SQLite's upsert) leaves: the first
   * row's id (the row that would have been inserted), the last row's text, spend and visits (an
   * empty cell there is 0, as SQLite's insert values make it), and the last last-active date given.
   */
  async prepareMerge(connection, userId, mapping, now, extras = NO_EXTRAS) {
    const session = importSession(connection);
    const extraStatements = extrasStatements(extras);
    // The extras' statements are estimated dear enough for JIT compilation, which then costs more
    // than it saves in every batch; the session is the import's own.
    if (extraStatements.length > 0) await session.client.query(`SET jit = off`);
    const last = (column: string) => `(array_agg("${column}" ORDER BY "n" DESC))[1] AS "${column}"`;
    const lastGiven = (column: string) =>
      `(array_agg("${column}" ORDER BY "n" DESC) FILTER (WHERE "${column}" IS NOT NULL))[1] AS "${column}"`;
    const upsert = `WITH "folded" AS (
      SELECT "email", min("n") AS "n", (array_agg("id" ORDER BY "n"))[1] AS "id",
        ${["firstName", "lastName", "phone", "address", "company", "notes", "totalSpendPaise", "visits"].map(last).join(", ")},
        ${lastGiven("lastActive")}
      FROM "import_rows" WHERE "n" > $2 AND "n" <= $3 GROUP BY "email")
    INSERT INTO "Customer" (${MERGE_COLUMNS})
    SELECT "id", $1, "firstName", "lastName", "email", "phone", "address", "company", "notes",
      coalesce("totalSpendPaise", 0), coalesce("visits", 0), "lastActive", $4, $4
    FROM "folded" ORDER BY "n"
    ON CONFLICT ("userId", "email") DO UPDATE SET ${mergeUpdateSets(mapping)}
    RETURNING ("xmax" = 0) AS "created"${extras.defaults === null && extraStatements.length === 0 && !extras.createdEvents ? "" : `, "id", "email"`}`;
    // A new customer's defaults (the fields the file has no column for), for the ids just inserted.
    const defaults = `INSERT INTO "CustomerFieldValue" ("userId", "customerId", "name", "value", "textKey", "numberValue")
    SELECT $1::text, c."id", d."key", d."value" ->> 0, d."value" ->> 1, (d."value" ->> 2)::double precision
    FROM unnest($2::text[]) AS c("id"), jsonb_each($3::jsonb) AS d
    ON CONFLICT DO NOTHING`;
    const at = new Date(now);
    return {
      batch: (from, to) =>
        inSessionTransaction(session, async () => {
          const { rows } = await session.client.query<{ created: boolean; id?: string; email?: string }>(upsert, [
            userId,
            from,
            to,
            at,
          ]);
          const created = rows.filter((r) => r.created).length;
          if (created > 0) await session.client.query(ADD_TO_TALLY_SQL_PG, [userId, created]);
          if (created > 0 && extras.defaults !== null) {
            const ids = rows.filter((r) => r.created).map((r) => r.id);
            await session.client.query(defaults, [userId, ids, extras.defaults]);
          }
          if (created > 0 && extras.createdEvents) {
            const made = rows.filter((r) => r.created);
            await session.client.query(CREATED_EVENTS_PG, [userId, now, made.map((r) => r.id)]);
          }
          if (extraStatements.length > 0) {
            const emails = rows.map((r) => r.email);
            const ids = rows.map((r) => r.id);
            for (const { sql, params } of extraStatements) {
              await session.client.query(
                sql,
                params === "batch" ? [userId, from, to, emails, ids] : [userId, from, to, at],
              );
            }
          }
          return created;
        }),
    };
  },

  async lastStagedRow(connection) {
    const { rows } = await importSession(connection).client.query<{ n: string | number }>(
      `SELECT coalesce(max("n"), 0) AS n FROM "import_rows"`,
    );
    return Number(rows[0]?.n ?? 0);
  },

  async isBulkLoad(connection) {
    importSession(connection);
    return false;
  },

  async withIndexesDeferred(connection, save) {
    importSession(connection);
    return save();
  },

  async refreshStatisticsAfterImport(connection, created) {
    await afterCustomerBulkLoadPg(importSession(connection).client, created);
  },

  async readExportSlice(connection, userId, term, after, limit) {
    const target = readerOf(connection);
    const params = new SqlParams([userId]);
    const where = [`c."userId" = $1`];
    if (after !== null) where.push(`c."id" < ${params.add(String(after))}`);
    if (term) where.push(searchCondition(params, term));
    const { rows } = await target.query<ExportRow>(
      `SELECT c."id" AS r, ${EXPORT_COLUMNS}
     FROM "Customer" c WHERE ${where.join(" AND ")} ORDER BY c."id" DESC LIMIT ${params.add(Math.trunc(limit))}`,
      params.values,
    );
    return rows;
  },
  async readCsvFields(connection, userId) {
    const { rows } = await readerOf(connection).query<CsvFieldRow>(
      csvFieldsSql((n) => `$${n}`),
      [userId],
    );
    return rows;
  },

  async createCsvFields(connection, userId, fields, now) {
    const session = importSession(connection);
    const at = new Date(now);
    return inSessionTransaction(session, async () => {
      const made: string[] = [];
      for (const field of fields) {
        const { rowCount } = await session.client.query(
          `INSERT INTO "CustomField" ("id", "userId", "name", "label", "type", "choices", "defaultValue", "position", "createdAt", "updatedAt")
           SELECT $1::text, $2::text, $3::text, $4::text, 'text', '[]', NULL, coalesce(max("position"), 0) + 1, $5::timestamptz, $5::timestamptz
           FROM "CustomField" WHERE "userId" = $2
           ON CONFLICT ("userId", "name") DO NOTHING`,
          [field.id, userId, field.name, field.label, at],
        );
        if (rowCount === 1) made.push(field.name);
      }
      return made;
    });
  },

  async readExportExtras(connection, userId) {
    const { rows } = await readerOf(connection).query<ExportExtras>(
      `SELECT EXISTS (SELECT 1 FROM "CustomerFieldValue" WHERE "userId" = $1) AS "values",
              EXISTS (SELECT 1 FROM "Tag" WHERE "userId" = $1) AS "tags",
              EXISTS (SELECT 1 FROM "CustomerConsent" WHERE "userId" = $1)
                OR EXISTS (SELECT 1 FROM "Suppression" WHERE "userId" = $1) AS "consents"`,
      [userId],
    );
    return rows[0];
  },

  async readExportFieldValues(connection, userId, customerIds) {
    if (customerIds.length === 0) return [];
    const { rows } = await readerOf(connection).query<CustomerFieldValueRow>(
      `SELECT f."customerId", f."name", f."value" FROM "CustomerFieldValue" f
       WHERE f."customerId" = ANY($1::text[]) AND f."userId" = $2`,
      [customerIds, userId],
    );
    return rows;
  },

  async readExportTags(connection, userId, customerIds) {
    if (customerIds.length === 0) return [];
    const { rows } = await readerOf(connection).query<CustomerTagRow>(
      `SELECT ct."customerId", t."name" FROM "CustomerTag" ct JOIN "Tag" t ON t."id" = ct."tagId"
       WHERE ct."customerId" = ANY($1::text[]) AND ct."userId" = $2
       ORDER BY ct."customerId", t."key" COLLATE "C"`,
      [customerIds, userId],
    );
    return rows;
  },

  async readExportConsents(connection, userId, customerIds) {
    if (customerIds.length === 0) return [];
    const { rows } = await readerOf(connection).query<ExportConsentRow>(
      `SELECT c."id" AS "customerId", cc."status", cc."at", cc."source", cc."text",
              su."reason", su."createdAt" AS "suppressedAt"
       FROM "Customer" c
       LEFT JOIN "CustomerConsent" cc ON cc."customerId" = c."id"
       LEFT JOIN "Suppression" su ON su."userId" = c."userId" AND su."email" = c."email"
       WHERE c."id" = ANY($1::text[]) AND c."userId" = $2 AND (cc."customerId" IS NOT NULL OR su."email" IS NOT NULL)`,
      [customerIds, userId],
    );
    return rows;
  },
};
