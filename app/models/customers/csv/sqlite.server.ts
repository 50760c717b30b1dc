// The customers' CSV import and export on SQLite, on a connection of their own which they open
// here: the import stages its good rows in a temporary table of that connection and upserts them
// into "Customer" in batches (a large load with the segment indexes built once at the end,
// ~/db/bulk-load.server); the export reads the tenant's customers a slice at a time, newest added
// first (by rowid).
import type { Statement } from "better-sqlite3";
import { customerTableRows, shouldDeferSegmentIndexes, withSegmentIndexesDeferred } from "~/db/bulk-load.server";
import { sqliteOf } from "~/db/engine.server";
import { afterCustomerBulkLoad, afterCustomerBulkLoadInSteps } from "~/db/planner-statistics.server";
import { openSqlite, type Sqlite } from "~/db/sqlite.server";
import type { CustomerCsvStore, ImportStaging, SqliteStaging } from "./contract";
import {
  ADD_TO_TALLY_SQL,
  csvFieldsSql,
  EXPORT_COLUMNS,
  IMPORT_SEARCH_BUFFER_BYTES,
  MERGE_COLUMNS,
  mergeUpdateSets,
  NO_EXTRAS,
  CREATED_EVENTS_SQLITE,
  STAGE_ROWS,
  STAGED_EXTRA_VALUES,
  STAGED_VALUES,
  type CsvFieldRow,
  type CustomerFieldValueRow,
  type CustomerTagRow,
  type ExportConsentRow,
  type ExportRow,
  type MergeExtras,
} from "../rows";
import { customerMatchSql, INDEX_CUSTOMERS_AFTER_SQL } from "../search-sql";

// ---------------------------------------------------------------------------------------------
// The CSV import

/** The page cache (KiB) of a bulk import: measured at a million rows, 24 MB peaked at 299 MB, 12 MB at 274 MB and as fast. */
const BULK_CACHE_KIB = 12_288;
/** Staged rows a transaction of the temporary database (a multiple of STAGE_ROWS). */
const STAGE_BATCH = 5000;

function sqliteStaging(staging: ImportStaging): SqliteStaging {
  if ("session" in staging) throw new Error("A PostgreSQL staging reached SQLite's implementation.");
  return staging;
}

function stageRows(staging: SqliteStaging, rows: number, run: () => void) {
  if (staging.inBatch === 0) staging.begin.run();
  run();
  staging.inBatch += rows;
  if (staging.inBatch >= STAGE_BATCH) {
    staging.commit.run();
    staging.inBatch = 0;
  }
}

/**
 * The tags cell of the last staged row of each e-mail in a batch (rowids from, to]: the row whose
 * tags a merge row by row would leave (SQLite takes a bare column of a max() aggregate from the row
 * holding the max).
 */
const LAST_TAGS = `(SELECT r.email AS email, r.tags AS v, max(r.rowid) FROM temp.import_rows r
    WHERE r.rowid > @from AND r.rowid <= @to GROUP BY r.email)`;

/**
 * The writes of the staged rows' field values and tags, for a batch (from, to] inside the merge's
 * transaction, after its customers are upserted (so every row's customer is found by e-mail), each
 * one statement over the batch. CROSS JOIN keeps the batch's rows outermost, each customer found by
 * its e-mail: without statistics SQLite walked the tenant's customers and looked the batch up for
 * each (minutes for 60,000 rows).
 *
 * - defaults: the batch's new customers take the defaults of the fields the file has no column for;
 * - field values: each customer's last value of each field column is set, or deleted when its cell
 *   was empty;
 * - tags: the tags the tenant lacks are made (the first spelling in the batch names a new one),
 *   then each customer's tags not in its last row's cell are taken off and the rest put on.
 */
function prepareExtras(sqlite: Sqlite, userId: string, now: number, extras: MergeExtras) {
  const steps: Statement[] = [];
  if (extras.fields) {
    // Each customer's last value of each field: [value, textKey, numberValue], or NULL to clear.
    const lastValues = `(SELECT r.email AS email, j.key AS name, j.value AS v, max(r.rowid)
      FROM temp.import_rows r, json_each(r.fields) j WHERE r.rowid > @from AND r.rowid <= @to
      GROUP BY r.email, j.key)`;
    steps.push(
      sqlite.prepare(
        `INSERT INTO "CustomerFieldValue" ("userId", "customerId", "name", "value", "textKey", "numberValue")
         SELECT @userId, c."id", l.name, l.v ->> 0, l.v ->> 1, l.v ->> 2
         FROM ${lastValues} l CROSS JOIN "Customer" c ON c."userId" = @userId AND c."email" = l.email
         WHERE l.v IS NOT NULL
         ON CONFLICT ("customerId", "name") DO UPDATE SET
           "value" = excluded."value", "textKey" = excluded."textKey", "numberValue" = excluded."numberValue"`,
      ),
      sqlite.prepare(
        `DELETE FROM "CustomerFieldValue" WHERE rowid IN (
           SELECT f.rowid FROM ${lastValues} l
           CROSS JOIN "Customer" c ON c."userId" = @userId AND c."email" = l.email
           CROSS JOIN "CustomerFieldValue" f ON f."customerId" = c."id" AND f."name" = l.name
           WHERE l.v IS NULL)`,
      ),
    );
  }
  if (extras.tags) {
    steps.push(
      // In file order, so a tag's first spelling names it; a tag the tenant has keeps its name.
      sqlite.prepare(
        `INSERT INTO "Tag" ("id", "userId", "name", "key", "createdAt")
         SELECT t.value ->> 2, @userId, t.value ->> 1, t.value ->> 0, @now
         FROM temp.import_rows r, json_each(r.tags) t
         WHERE r.rowid > @from AND r.rowid <= @to ORDER BY r.rowid, t.key
         ON CONFLICT ("userId", "key") DO NOTHING`,
      ),
      sqlite.prepare(
        `DELETE FROM "CustomerTag" WHERE rowid IN (
           SELECT ct.rowid FROM ${LAST_TAGS} l
           CROSS JOIN "Customer" c ON c."userId" = @userId AND c."email" = l.email
           CROSS JOIN "CustomerTag" ct ON ct."customerId" = c."id"
           CROSS JOIN "Tag" g ON g."id" = ct."tagId"
           WHERE NOT EXISTS (SELECT 1 FROM json_each(l.v) t WHERE t.value ->> 0 = g."key"))`,
      ),
      sqlite.prepare(
        `INSERT INTO "CustomerTag" ("tagId", "customerId", "userId")
         SELECT g."id", c."id", @userId FROM ${LAST_TAGS} l
         CROSS JOIN "Customer" c ON c."userId" = @userId AND c."email" = l.email
         CROSS JOIN json_each(l.v) t
         CROSS JOIN "Tag" g ON g."userId" = @userId AND g."key" = t.value ->> 0
         WHERE true
         ON CONFLICT DO NOTHING`,
      ),
    );
  }
  // A new customer's defaults: the batch's new rows are those past the largest rowid before it.
  const defaults =
    extras.defaults === null
      ? null
      : sqlite.prepare(
          `INSERT INTO "CustomerFieldValue" ("userId", "customerId", "name", "value", "textKey", "numberValue")
           SELECT @userId, c."id", d.key, d.value ->> 0, d.value ->> 1, d.value ->> 2
           FROM "Customer" c, json_each(@defaults) d WHERE c.rowid > @before
           ON CONFLICT DO NOTHING`,
        );
  const events = extras.createdEvents ? sqlite.prepare(CREATED_EVENTS_SQLITE) : null;
  if (steps.length === 0 && defaults === null && events === null) return null;
  return (from: number, to: number, before: number, created: number) => {
    if (defaults && created > 0) defaults.run({ userId, before, defaults: extras.defaults });
    if (events && created > 0) events.run({ userId, before, now });
    for (const step of steps) step.run({ userId, from, to, now });
  };
}

export const sqliteCustomerCsv: CustomerCsvStore = {
  async openImportConnection(file) {
    const sqlite = openSqlite(file);
    // Room for the indexes the upsert walks in random order (e-mail, spend, dates).
    sqlite.pragma("cache_size = -49152");
    // Staging only appends: the temporary database needs little cache of its own.
    sqlite.pragma("temp.cache_size = -4096");
    return sqlite;
  },

  async openExportConnection(file) {
    return openSqlite(file, { readonly: true });
  },

  async closeConnection(connection) {
    sqliteOf(connection).close();
  },

  async startStaging(connection, extras) {
    const sqlite = sqliteOf(connection);
    // Staged rows are appended in file order; merged in that order, a later row of the same e-mail
    // updates the earlier one, as an upsert row by row would. The table is made for this import:
    // the extra columns only when its file has field or tags columns.
    sqlite.exec(`DROP TABLE IF EXISTS temp.import_rows`);
    sqlite.exec(`CREATE TEMP TABLE import_rows (
    id TEXT NOT NULL, firstName TEXT NOT NULL, lastName TEXT NOT NULL, email TEXT NOT NULL,
    phone TEXT NOT NULL, address TEXT NOT NULL, company TEXT NOT NULL, notes TEXT NOT NULL,
    totalSpendPaise INTEGER, visits INTEGER, lastActive INTEGER${extras ? ", fields TEXT, tags TEXT" : ""})`);
    const width = STAGED_VALUES + (extras ? STAGED_EXTRA_VALUES : 0);
    const row = `(${Array.from({ length: width }, () => "?").join(",")})`;
    return {
      sqlite,
      width,
      stageOne: sqlite.prepare(`INSERT INTO temp.import_rows VALUES ${row}`),
      // Rows go in STAGE_ROWS at a statement: a call into SQLite a row cost as much as the rest of
      // reading the row (measured 7.8 of 16 µs a row).
      stageMany: sqlite.prepare(
        `INSERT INTO temp.import_rows VALUES ${Array.from({ length: STAGE_ROWS }, () => row).join(",")}`,
      ),
      // Only the temporary database is written while the file is read: the tenant's data is
      // untouched until the whole file has parsed.
      begin: sqlite.prepare("BEGIN"),
      commit: sqlite.prepare("COMMIT"),
      inBatch: 0,
    };
  },

  async stageImportGroups(staging, groups) {
    const own = sqliteStaging(staging);
    for (const group of groups) stageRows(own, STAGE_ROWS, () => own.stageMany.run(group));
  },

  async finishStaging(staging, values, rows) {
    const own = sqliteStaging(staging);
    for (let r = 0; r < rows; r++)
      stageRows(own, 1, () => own.stageOne.run(values.slice(r * own.width, (r + 1) * own.width)));
    if (own.inBatch > 0) {
      own.commit.run();
      own.inBatch = 0;
    }
  },

  async discardStaging(staging) {
    const own = sqliteStaging(staging);
    if (own.sqlite.inTransaction) own.sqlite.exec("ROLLBACK");
    own.inBatch = 0;
    await sqliteCustomerCsv.clearStagedRows(own.sqlite);
  },

  async clearStagedRows(connection) {
    sqliteOf(connection).exec("DELETE FROM temp.import_rows");
  },

  async prepareMerge(connection, userId, mapping, now, extras = NO_EXTRAS) {
    const sqlite = sqliteOf(connection);
    const writeExtras = prepareExtras(sqlite, userId, now, extras);
    const maxRowid = sqlite.prepare<unknown[], number>(`SELECT coalesce(max(rowid), 0) AS m FROM "Customer"`).pluck();
    const upsert: Statement = sqlite.prepare(
      `INSERT INTO "Customer" (${MERGE_COLUMNS})
     SELECT id, ?, firstName, lastName, email, phone, address, company, notes,
       coalesce(totalSpendPaise, 0), coalesce(visits, 0), lastActive, ?, ?
     FROM temp.import_rows WHERE rowid > ? AND rowid <= ? ORDER BY rowid
     ON CONFLICT ("userId", "email") DO UPDATE SET ${mergeUpdateSets(mapping)}`,
    );
    const index = sqlite.prepare(INDEX_CUSTOMERS_AFTER_SQL);
    const tally = sqlite.prepare(ADD_TO_TALLY_SQL);
    const batch = sqlite.transaction((from: number, to: number) => {
      const before = maxRowid.get()!;
      upsert.run(userId, now, now, from, to);
      const created = maxRowid.get()! - before;
      if (created > 0) {
        index.run(before);
        tally.run(userId, created);
      }
      writeExtras?.(from, to, before, created);
      return created;
    });
    return { batch: (from, to) => batch.immediate(from, to) };
  },

  async lastStagedRow(connection) {
    return sqliteOf(connection)
      .prepare<unknown[], number>(`SELECT coalesce(max(rowid), 0) FROM temp.import_rows`)
      .pluck()
      .get()!;
  },

  async isBulkLoad(connection, adding) {
    return shouldDeferSegmentIndexes(adding, customerTableRows(sqliteOf(connection)));
  },

  async withIndexesDeferred(connection, save, onIndexing) {
    const sqlite = sqliteOf(connection);
    // Without the segment indexes the save walks only the e-mail index at random; the index
    // builds at the end sort in memory of the cache's size, so a smaller cache keeps the peak down.
    sqlite.pragma(`cache_size = -${BULK_CACHE_KIB}`);
    return withSegmentIndexesDeferred(sqlite, save, onIndexing, IMPORT_SEARCH_BUFFER_BYTES);
  },

  async refreshStatisticsAfterImport(connection, created, pauseMs) {
    const sqlite = sqliteOf(connection);
    if (pauseMs === undefined) afterCustomerBulkLoad(sqlite, created);
    else await afterCustomerBulkLoadInSteps(sqlite, created, pauseMs);
  },

  async readExportSlice(connection, userId, term, after, limit) {
    const match = customerMatchSql(userId, term, after === null ? null : Number(after));
    return sqliteOf(connection)
      .prepare<unknown[], ExportRow>(
        `WITH m AS (${match.sql} LIMIT ${limit})
             SELECT m.r AS r, ${EXPORT_COLUMNS}
             FROM m JOIN "Customer" c ON c.rowid = m.r ORDER BY m.r DESC`,
      )
      .all(...match.params);
  },

  async readCsvFields(connection, userId) {
    return sqliteOf(connection)
      .prepare<unknown[], Omit<CsvFieldRow, "retired"> & { retired: number }>(csvFieldsSql(() => "?"))
      .all(userId)
      .map((row) => ({ ...row, retired: row.retired === 1 }));
  },

  async createCsvFields(connection, userId, fields, now) {
    const sqlite = sqliteOf(connection);
    const insert = sqlite.prepare(
      `INSERT INTO "CustomField" ("id", "userId", "name", "label", "type", "choices", "defaultValue", "position", "createdAt", "updatedAt")
       SELECT @id, @userId, @name, @label, 'text', '[]', NULL, coalesce(max("position"), 0) + 1, @now, @now
       FROM "CustomField" WHERE "userId" = @userId
       ON CONFLICT ("userId", "name") DO NOTHING`,
    );
    return sqlite
      .transaction(() =>
        fields
          .filter((f) => insert.run({ id: f.id, userId, name: f.name, label: f.label, now }).changes === 1)
          .map((f) => f.name),
      )
      .immediate();
  },

  async readExportExtras(connection, userId) {
    const row = sqliteOf(connection)
      .prepare<unknown[], { values: number; tags: number; consents: number }>(
        `SELECT EXISTS (SELECT 1 FROM "CustomerFieldValue" WHERE "userId" = @userId) AS "values",
                EXISTS (SELECT 1 FROM "Tag" WHERE "userId" = @userId) AS "tags",
                EXISTS (SELECT 1 FROM "CustomerConsent" WHERE "userId" = @userId)
                  OR EXISTS (SELECT 1 FROM "Suppression" WHERE "userId" = @userId) AS "consents"`,
      )
      .get({ userId })!;
    return { values: row.values === 1, tags: row.tags === 1, consents: row.consents === 1 };
  },

  // The slice's ids drive both reads (CROSS JOIN keeps them outermost), each found by its customer
  // ("+" keeps SQLite off the tenant-first indexes of the values, which would walk every value of
  // the tenant for each id: minutes for a slice of a tenant with 60,000 customers).
  async readExportFieldValues(connection, userId, customerIds) {
    if (customerIds.length === 0) return [];
    return sqliteOf(connection)
      .prepare<unknown[], CustomerFieldValueRow>(
        `SELECT f."customerId", f."name", f."value" FROM json_each(?) s
         CROSS JOIN "CustomerFieldValue" f ON f."customerId" = s.value WHERE +f."userId" = ?`,
      )
      .all(JSON.stringify(customerIds), userId);
  },

  async readExportTags(connection, userId, customerIds) {
    if (customerIds.length === 0) return [];
    return sqliteOf(connection)
      .prepare<unknown[], CustomerTagRow>(
        `SELECT ct."customerId", t."name" FROM json_each(?) s
         CROSS JOIN "CustomerTag" ct ON ct."customerId" = s.value CROSS JOIN "Tag" t ON t."id" = ct."tagId"
         WHERE ct."userId" = ? ORDER BY ct."customerId", t."key"`,
      )
      .all(JSON.stringify(customerIds), userId);
  },

  // The slice's ids outermost again, each customer found by its id ("+" keeps SQLite off the
  // tenant-first index), its record by its key and its address's entry by the list's.
  async readExportConsents(connection, userId, customerIds) {
    if (customerIds.length === 0) return [];
    return sqliteOf(connection)
      .prepare<unknown[], ExportConsentRow>(
        `SELECT c."id" AS "customerId", cc."status", cc."at", cc."source", cc."text",
                su."reason", su."createdAt" AS "suppressedAt"
         FROM json_each(?) s CROSS JOIN "Customer" c ON c."id" = s.value
         LEFT JOIN "CustomerConsent" cc ON cc."customerId" = c."id"
         LEFT JOIN "Suppression" su ON su."userId" = c."userId" AND su."email" = c."email"
         WHERE +c."userId" = ? AND (cc."customerId" IS NOT NULL OR su."email" IS NOT NULL)`,
      )
      .all(JSON.stringify(customerIds), userId);
  },
};
