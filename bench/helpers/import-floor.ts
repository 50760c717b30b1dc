// The floor under any CSV import into this schema: raw better-sqlite3 doing only the database work
// an import of new customers must do, with rows already parsed and validated. The insert and the
// search index are plain SQL here; the segment index drop and rebuild, and the statistics, go
// through the very functions the import's bulk path calls (~/db/bulk-load.server,
// ~/db/planner-statistics.server), so the floor does the same work by construction.
//
// It runs on a copy of the bench database taken before the import, so it sees the same 1,100,000
// customers the import sees. If this floor is under a speed goal, no parser can meet the goal.
import { copyFileSync, rmSync } from "node:fs";
import Database from "better-sqlite3";
import { withSegmentIndexesDeferred } from "../../app/db/bulk-load.server.ts";
import { analyzeCustomers } from "../../app/db/planner-statistics.server.ts";

export type FloorFigures = {
  rows: number;
  seconds: number;
  rowsPerSecond: number;
  phases: {
    insertRows: number;
    searchIndex: number;
    fieldValues?: number;
    tags?: number;
    segmentIndexesAndCommit: number;
    analyze: number;
  };
  what: string;
};

/** A row's field values as the import stores them, and its tags' keys (lower-cased). */
export type FloorExtras = {
  values: (i: number) => { name: string; value: string; textKey: string | null; numberValue: number | null }[];
  tagKeys: (i: number) => string[];
};

/** Inserts `rows` customers made by `row` into a copy of `dbFile` and times each step. */
export async function measureImportFloor(
  dbFile: string,
  copyFile: string,
  rows: number,
  row: (i: number) => readonly [string, string, string, string, string, string, string, number, number, number],
  searchBufferBytes: number,
  extras?: FloorExtras,
): Promise<FloorFigures> {
  const source = new Database(dbFile);
  source.pragma("wal_checkpoint(TRUNCATE)");
  source.close();
  for (const suffix of ["", "-wal", "-shm"]) rmSync(`${copyFile}${suffix}`, { force: true });
  copyFileSync(dbFile, copyFile);
  const db = new Database(copyFile);
  try {
    db.pragma("journal_mode = WAL");
    db.pragma("synchronous = NORMAL");
    // The import's page cache in a bulk load (BULK_CACHE_KIB).
    db.pragma("cache_size = -12288");
    db.prepare(
      `INSERT INTO "User" ("id", "email", "displayName", "updatedAt") VALUES ('ffffffffffffffffffffffff', 'floor@example.com', 'Floor', 0)`,
    ).run();
    // The rows, already parsed, wait in a temporary table (not timed): one INSERT ... SELECT moves
    // them, faster than a statement a row.
    db.exec(`CREATE TEMP TABLE floor_rows (id TEXT, firstName TEXT, lastName TEXT, email TEXT, phone TEXT, address TEXT,
      company TEXT, notes TEXT, totalSpendPaise INTEGER, visits INTEGER, lastActive INTEGER)`);
    const stage = db.prepare(`INSERT INTO temp.floor_rows VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`);
    const prefix = Date.now().toString(16).padStart(12, "0");
    const customerId = (i: number) => prefix + i.toString(16).padStart(12, "0");
    db.transaction(() => {
      for (let i = 0; i < rows; i++) stage.run(customerId(i), ...row(i));
    })();
    // With extras, each row's field values and tags wait the same way, parsed by the product's own
    // rules (not timed).
    if (extras) {
      db.exec(`CREATE TEMP TABLE floor_values (customerId TEXT, name TEXT, value TEXT, textKey TEXT, numberValue REAL);
        CREATE TEMP TABLE floor_tags (customerId TEXT, key TEXT)`);
      const value = db.prepare(`INSERT INTO temp.floor_values VALUES (?, ?, ?, ?, ?)`);
      const tag = db.prepare(`INSERT INTO temp.floor_tags VALUES (?, ?)`);
      db.transaction(() => {
        for (let i = 0; i < rows; i++) {
          for (const v of extras.values(i)) value.run(customerId(i), v.name, v.value, v.textKey, v.numberValue);
          for (const key of extras.tagKeys(i)) tag.run(customerId(i), key);
        }
      })();
    }
    // The timed writes of the staged values and tags (prepared only when there are some).
    const extraWrites = extras
      ? {
          values:
            db.prepare(`INSERT INTO "CustomerFieldValue" ("userId", "customerId", "name", "value", "textKey", "numberValue")
            SELECT 'ffffffffffffffffffffffff', customerId, name, value, textKey, numberValue FROM temp.floor_values ORDER BY rowid`),
          tags: db.prepare(`INSERT INTO "Tag" ("id", "userId", "name", "key", "createdAt")
            SELECT 'floor-' || key, 'ffffffffffffffffffffffff', key, key, 0 FROM temp.floor_tags GROUP BY key`),
          customerTags: db.prepare(`INSERT INTO "CustomerTag" ("tagId", "customerId", "userId")
            SELECT 'floor-' || key, customerId, 'ffffffffffffffffffffffff' FROM temp.floor_tags ORDER BY rowid`),
        }
      : null;
    const insert =
      db.prepare(`INSERT INTO "Customer" ("id", "userId", "firstName", "lastName", "email", "phone", "address", "company", "notes",
      "totalSpendPaise", "visits", "lastActive", "createdAt", "updatedAt")
      SELECT id, 'ffffffffffffffffffffffff', firstName, lastName, email, phone, address, company, notes, totalSpendPaise, visits, lastActive, 0, 0
      FROM temp.floor_rows ORDER BY rowid`);
    // The import's key: the tenant's User rowid above the Customer rowid (~/models/customers/search-sql).
    const index = db.prepare(`INSERT INTO "customer_search" (rowid, name, email)
      SELECT (u.rowid << 40) | c.rowid, c."firstName" || ' ' || c."lastName", c."email"
      FROM "Customer" c JOIN "User" u ON u."id" = c."userId" WHERE c.rowid > ? AND c.rowid <= ? ORDER BY c.rowid`);
    const timed = (run: () => void) => {
      const t = performance.now();
      run();
      return (performance.now() - t) / 1000;
    };
    const started = performance.now();
    let insertRows = 0;
    let searchIndex = 0;
    let fieldValues = 0;
    let tags = 0;
    let rebuildStarted = 0;
    await withSegmentIndexesDeferred(
      db,
      () => {
        const before = db.prepare(`SELECT coalesce(max(rowid), 0) FROM "Customer"`).pluck().get() as number;
        insertRows = timed(() => insert.run());
        searchIndex = timed(() => {
          for (let from = before; from < before + rows; from += 100_000) index.run(from, from + 100_000);
        });
        if (extraWrites) {
          fieldValues = timed(() => extraWrites.values.run());
          tags = timed(() => {
            extraWrites.tags.run();
            extraWrites.customerTags.run();
          });
        }
      },
      () => {
        rebuildStarted = performance.now();
      },
      searchBufferBytes,
    );
    const segmentIndexesAndCommit = (performance.now() - rebuildStarted) / 1000;
    const analyze = timed(() => analyzeCustomers(db));
    const seconds = (performance.now() - started) / 1000;
    return {
      rows,
      seconds,
      rowsPerSecond: Math.round(rows / seconds),
      phases: {
        insertRows,
        searchIndex,
        ...(extras ? { fieldValues, tags } : {}),
        segmentIndexesAndCommit,
        analyze,
      },
      what: `raw better-sqlite3, rows already parsed and validated in a temporary table (not timed), the database work of the import's bulk path only (insert, search index, ${extras ? "field values, tags, " : ""}segment index builds, commit with its checkpoint, ANALYZE), on a copy of the bench database taken before the import`,
    };
  } finally {
    db.close();
    for (const suffix of ["", "-wal", "-shm"]) rmSync(`${copyFile}${suffix}`, { force: true });
  }
}
