// The customers on SQLite. The reads on every customer request are prepared statements on the read
// connection (~/db/reader.server); the writes go through Prisma (./common.server.ts). The search is
// the FTS5 trigram table (./search-sql.ts); the CSV import and export run on a connection of their
// own, which they open here.
import type { Statement } from "better-sqlite3";
import { customerTableRows, shouldDeferSegmentIndexes, withSegmentIndexesDeferred } from "~/db/bulk-load.server";
import { sqliteOf } from "~/db/engine.server";
import { afterCustomerBulkLoad, afterCustomerBulkLoadInSteps } from "~/db/planner-statistics.server";
import { db } from "~/db/prisma.server";
import { readStatement } from "~/db/reader.server";
import { openSqlite } from "~/db/sqlite.server";
import type { CustomerSort, SortOrder } from "~/lib/customers";
import { orders } from "~/models/orders/store.server";
import { storedSegments } from "~/models/segments/store.server";
import { commonCustomers } from "./common.server";
import type { CustomersStore, ImportStaging, SqliteStaging } from "./contract";
import {
  ADD_TO_TALLY_SQL,
  CUSTOMER_COLUMNS,
  EXPORT_COLUMNS,
  IMPORT_SEARCH_BUFFER_BYTES,
  MERGE_COLUMNS,
  mergeUpdateSets,
  SORT_KEY_NAMES,
  SORT_KEYS,
  STAGE_ROWS,
  STAGED_VALUES,
  type CustomerRow,
  type ExportRow,
  type KeyValue,
  type ListQuery,
  type ListRow,
  type Position,
  type RowKey,
  type SortKeyName,
  type SortKeyType,
} from "./rows";
import { customerMatchSql, INDEX_CUSTOMER_SQL, INDEX_CUSTOMERS_AFTER_SQL, ROW_MATCH_SQL } from "./search-sql";

// ---------------------------------------------------------------------------------------------
// The list's pages
//
// A row's place is its rowid, the order customers were added in (docs/decisions/0014-customer-sorting.md).

type SortKey = SortKeyType & { sql: string };
type SortSpec = { index: string; keys: SortKey[] };

/** Each key as SQLite sorts it. The name: the shown "First Last", lower-cased, as its index holds it. */
const KEY_SQL: Record<SortKeyName, string> = {
  name: `lower(c."firstName" || ' ' || c."lastName")`,
  spend: `c."totalSpendPaise"`,
  visits: `c."visits"`,
  /** NULL (never active) sorts before every date, as SQLite orders NULLs: first ascending, last descending. */
  lastActive: `c."lastActive"`,
};

/** Each sort's index, and its keys (SORT_KEY_NAMES) in SQLite's SQL. */
function sortSpec(sort: CustomerSort, index: string): SortSpec {
  return { index, keys: SORT_KEY_NAMES[sort].map((name, i) => ({ ...SORT_KEYS[sort][i], sql: KEY_SQL[name] })) };
}

const SORTS: Record<CustomerSort, SortSpec> = {
  createdAt: sortSpec("createdAt", "Customer_userId_idx"),
  name: sortSpec("name", "Customer_userId_name_idx"),
  totalSpend: sortSpec("totalSpend", "Customer_userId_totalSpendPaise_visits_lastActive_idx"),
  visits: sortSpec("visits", "Customer_userId_visits_totalSpendPaise_lastActive_idx"),
  lastActive: sortSpec("lastActive", "Customer_userId_lastActive_totalSpendPaise_visits_idx"),
};

/** A condition on the rows, its parameters, and how many leading keys it holds equal. */
type Piece = { where: string; params: KeyValue[]; equal: number };

/**
 * The rows after `from` in `order`, as conditions whose rows follow one another in that order:
 * all keys equal and a rowid beyond, then the last key beyond with the others equal, and so on to
 * the first key beyond. Each is one range of the sort's index.
 */
function piecesAfter(spec: SortSpec, order: SortOrder, from: Position): Piece[] {
  const asc = order === "asc";
  const pieces: Piece[] = [];
  const prefix = (j: number): Piece => {
    const where: string[] = [];
    const params: KeyValue[] = [];
    for (let i = 0; i < j; i++) {
      const value = from.keys[i] ?? null;
      if (value === null) where.push(`${spec.keys[i].sql} IS NULL`);
      else {
        where.push(`${spec.keys[i].sql} = ?`);
        params.push(value);
      }
    }
    return { where: where.join(" AND "), params, equal: j };
  };
  const add = (base: Piece, condition: string, params: KeyValue[]) =>
    pieces.push({
      where: base.where ? `${base.where} AND ${condition}` : condition,
      params: [...base.params, ...params],
      equal: base.equal,
    });
  // better-sqlite3 binds numbers as REAL; the rowid range needs an INTEGER bound.
  add(prefix(spec.keys.length), `c.rowid ${asc ? ">" : "<"} CAST(? AS INTEGER)`, [from.r]);
  for (let j = spec.keys.length - 1; j >= 0; j--) {
    const key = spec.keys[j];
    const value = from.keys[j] ?? null;
    const base = prefix(j);
    if (asc) {
      // After NULL (the first values ascending) comes every value; the bound skips the NULLs in the index.
      if (value === null) add(base, `${key.sql} > -9223372036854775808`, []);
      else add(base, `${key.sql} > ?`, [value]);
    } else if (value !== null) {
      add(base, `${key.sql} < ?`, [value]);
      if (key.nullable) add(base, `${key.sql} IS NULL`, []);
    }
  }
  return pieces;
}

/**
 * The ORDER BY of a sort, without the `equal` leading keys a piece holds equal (SQLite does not
 * see that an expression held equal needs no ordering, and would sort the page).
 */
function orderBy(spec: SortSpec, order: SortOrder, equal = 0): string {
  const dir = order === "asc" ? "ASC" : "DESC";
  return [...spec.keys.slice(equal).map((k) => `${k.sql} ${dir}`), `c.rowid ${dir}`].join(", ");
}

function keyColumns(spec: SortSpec): string {
  return spec.keys.map((k, i) => `, ${k.sql} AS k${i}`).join("");
}

/** The statement of one piece of a walk, its limit the last parameter (after the term's). */
function pieceStatement(spec: SortSpec, order: SortOrder, piece: Piece, term: string): string {
  const filter = term ? ` AND ${ROW_MATCH_SQL}` : "";
  return `SELECT c.rowid AS r${keyColumns(spec)}, ${CUSTOMER_COLUMNS} FROM "Customer" c INDEXED BY "${spec.index}"
       WHERE c."userId" = ?${piece.where ? ` AND ${piece.where}` : ""}${filter}
       ORDER BY ${orderBy(spec, order, piece.equal)} LIMIT ?`;
}

function walkPieces(spec: SortSpec, order: SortOrder, from: Position | null): Piece[] {
  return from ? piecesAfter(spec, order, from) : [{ where: "", params: [], equal: 0 }];
}

function termParams(term: string): string[] {
  return term ? [term.toLowerCase(), term.toLowerCase()] : [];
}

/**
 * Up to `n` of the tenant's rows after `from` in `order`, walking the sort's index; with a term,
 * only the rows it matches (for searches too common to sort in memory).
 */
function walkIndex(
  userId: string,
  spec: SortSpec,
  order: SortOrder,
  from: Position | null,
  n: number,
  term: string,
): ListRow[] {
  const filterParams = termParams(term);
  const rows: ListRow[] = [];
  for (const piece of walkPieces(spec, order, from)) {
    const st = readStatement<ListRow>(pieceStatement(spec, order, piece, term));
    rows.push(...st.all(userId, ...piece.params, ...filterParams, n - rows.length));
    if (rows.length >= n) break;
  }
  return rows;
}

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

export const sqliteCustomers: CustomersStore = {
  ...commonCustomers,

  async indexCustomerForSearch(id, tx = db()) {
    await tx.$executeRawUnsafe(INDEX_CUSTOMER_SQL, id);
  },

  async addToCustomerTally(userId, n, tx = db()) {
    await tx.$executeRawUnsafe(ADD_TO_TALLY_SQL, userId, n);
  },

  async findCustomerForUser(userId, id) {
    return readStatement<CustomerRow>(
      `SELECT ${CUSTOMER_COLUMNS} FROM "Customer" c WHERE c."userId" = ? AND c."id" = ?`,
    ).get(userId, id);
  },

  async findCustomerDetail(userId, id, ordersLimit) {
    const customer = await sqliteCustomers.findCustomerForUser(userId, id);
    if (!customer) return undefined;
    const [recent, segments] = await Promise.all([
      orders.recentOrdersOfCustomer(userId, id, ordersLimit),
      storedSegments.segmentConditionsOfUser(userId),
    ]);
    return { customer, orders: recent, segments };
  },

  async readCustomerTally(userId) {
    const tally = readStatement<{ customers: number }>(
      `SELECT "customers" FROM "CustomerTally" WHERE "userId" = ?`,
    ).get(userId);
    return tally ? tally.customers : null;
  },

  async recountCustomerTally(userId) {
    const client = db();
    const n = await client.customer.count({ where: { userId } });
    await client.$executeRawUnsafe(
      `INSERT INTO "CustomerTally" ("userId", "customers") VALUES (?, ?) ON CONFLICT ("userId") DO UPDATE SET "customers" = excluded."customers"`,
      userId,
      n,
    );
    return n;
  },

  // The list's pages

  isRowKey(value): value is RowKey {
    return typeof value === "number" && Number.isSafeInteger(value) && value >= 1;
  },

  async readCustomersInOrder(userId, sort, order, from, n, q) {
    const spec = SORTS[sort];
    if (q && spec.keys.length === 0 && order === "desc" && [...q].length >= 3) {
      // Newest first through the trigram index, in its own rowid order: a common term's page costs
      // the same as a rare one's.
      const match = customerMatchSql(userId, q, from ? Number(from.r) : null);
      return readStatement<ListRow>(
        `WITH m AS (${match.sql} LIMIT ?)
       SELECT m.r AS r, ${CUSTOMER_COLUMNS} FROM m JOIN "Customer" c ON c.rowid = m.r ORDER BY m.r DESC`,
      ).all(...match.params, n);
    }
    return walkIndex(userId, spec, order, from, n, q);
  },

  async readMatchedCustomers(userId, sort, order, from, n, matches) {
    const spec = SORTS[sort];
    const pieces = from ? piecesAfter(spec, order, from) : [];
    const where = pieces.length ? ` AND (${pieces.map((p) => `(${p.where})`).join(" OR ")})` : "";
    // The matches drive the join (CROSS JOIN keeps them outermost): a sort index would walk the tenant.
    return readStatement<ListRow>(
      `SELECT c.rowid AS r${keyColumns(spec)}, ${CUSTOMER_COLUMNS} FROM json_each(?) m CROSS JOIN "Customer" c
     ON c.rowid = m.value WHERE c."userId" = ?${where} ORDER BY ${orderBy(spec, order)} LIMIT ?`,
    ).all(JSON.stringify(matches), userId, ...pieces.flatMap((p) => p.params), n);
  },

  async findSearchMatches(userId, q, limit) {
    const match = customerMatchSql(userId, q, null, false);
    return readStatement<number>(`SELECT r FROM (${match.sql}) LIMIT ${limit}`)
      .pluck()
      .all(...match.params);
  },

  walkQueries(userId, sort, order, from, n, term = ""): ListQuery[] {
    const spec = SORTS[sort];
    return walkPieces(spec, order, from).map((piece) => ({
      sql: pieceStatement(spec, order, piece, term),
      params: [userId, ...piece.params, ...termParams(term), n],
    }));
  },

  // The CSV import and export

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

  async startStaging(connection) {
    const sqlite = sqliteOf(connection);
    // Staged rows are appended in file order; merged in that order, a later row of the same e-mail
    // updates the earlier one, as an upsert row by row would.
    sqlite.exec(`CREATE TEMP TABLE IF NOT EXISTS import_rows (
    id TEXT NOT NULL, firstName TEXT NOT NULL, lastName TEXT NOT NULL, email TEXT NOT NULL,
    phone TEXT NOT NULL, address TEXT NOT NULL, company TEXT NOT NULL, notes TEXT NOT NULL,
    totalSpendPaise INTEGER, visits INTEGER, lastActive INTEGER)`);
    sqlite.exec("DELETE FROM temp.import_rows");
    return {
      sqlite,
      stageOne: sqlite.prepare(`INSERT INTO temp.import_rows VALUES (?,?,?,?,?,?,?,?,?,?,?)`),
      // Rows go in STAGE_ROWS at a statement: a call into SQLite a row cost as much as the rest of
      // reading the row (measured 7.8 of 16 µs a row).
      stageMany: sqlite.prepare(
        `INSERT INTO temp.import_rows VALUES ${Array.from({ length: STAGE_ROWS }, () => "(?,?,?,?,?,?,?,?,?,?,?)").join(",")}`,
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
      stageRows(own, 1, () => own.stageOne.run(values.slice(r * STAGED_VALUES, (r + 1) * STAGED_VALUES)));
    if (own.inBatch > 0) {
      own.commit.run();
      own.inBatch = 0;
    }
  },

  async discardStaging(staging) {
    const own = sqliteStaging(staging);
    if (own.sqlite.inTransaction) own.sqlite.exec("ROLLBACK");
    own.inBatch = 0;
    await sqliteCustomers.clearStagedRows(own.sqlite);
  },

  async clearStagedRows(connection) {
    sqliteOf(connection).exec("DELETE FROM temp.import_rows");
  },

  async prepareMerge(connection, userId, mapping, now) {
    const sqlite = sqliteOf(connection);
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
};
