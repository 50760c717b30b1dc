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
  phases: { insertRows: number; searchIndex: number; segmentIndexesAndCommit: number; analyze: number };
  what: string;
};

/** Inserts `rows` customers made by `row` into a copy of `dbFile` and times each step. */
export async function measureImportFloor(
  dbFile: string,
  copyFile: string,
  rows: number,
  row: (i: number) => readonly [string, string, string, string, string, string, string, number, number, number],
  searchBufferBytes: number,
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
    db.transaction(() => {
      for (let i = 0; i < rows; i++) stage.run(prefix + i.toString(16).padStart(12, "0"), ...row(i));
    })();
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
    let rebuildStarted = 0;
    await withSegmentIndexesDeferred(
      db,
      () => {
        const before = db.prepare(`SELECT coalesce(max(rowid), 0) FROM "Customer"`).pluck().get() as number;
        insertRows = timed(() => insert.run());
        searchIndex = timed(() => {
          for (let from = before; from < before + rows; from += 100_000) index.run(from, from + 100_000);
        });
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
      phases: { insertRows, searchIndex, segmentIndexesAndCommit, analyze },
      what: "raw better-sqlite3, rows already parsed and validated in a temporary table (not timed), the database work of the import's bulk path only (insert, search index, segment index builds, commit with its checkpoint, ANALYZE), on a copy of the bench database taken before the import",
    };
  } finally {
    db.close();
    for (const suffix of ["", "-wal", "-shm"]) rmSync(`${copyFile}${suffix}`, { force: true });
  }
}
