// The floor under any CSV import into this schema: raw better-sqlite3 doing only the database work
// an import of new customers must do, with rows already parsed and validated, the way the
// import's bulk path does it (one transaction; segment indexes dropped and built again with helper
// threads; the trigram search index filled in 100,000-row statements with the import's buffer; the
// commit, whose WAL checkpoint writes the pages into the database file; ANALYZE for the planner).
//
// It runs on a copy of the bench database taken before the import, so it sees the same 1,100,000
// customers the import sees. If this floor is under a speed goal, no parser can meet the goal.
import { copyFileSync, rmSync } from "node:fs";
import os from "node:os";
import Database from "better-sqlite3";

export type FloorFigures = {
  rows: number;
  seconds: number;
  rowsPerSecond: number;
  phases: { insertRows: number; searchIndex: number; segmentIndexes: number; commit: number; analyze: number };
  what: string;
};

/** Inserts `rows` customers made by `row` into a copy of `dbFile` and times each step. */
export function measureImportFloor(
  dbFile: string,
  copyFile: string,
  rows: number,
  row: (i: number) => readonly [string, string, string, string, string, string, string, number, number, number],
  searchBufferBytes: number,
  segmentIndexes: readonly string[],
): FloorFigures {
  const source = new Database(dbFile);
  source.pragma("wal_checkpoint(TRUNCATE)");
  source.close();
  for (const suffix of ["", "-wal", "-shm"]) rmSync(`${copyFile}${suffix}`, { force: true });
  copyFileSync(dbFile, copyFile);
  const db = new Database(copyFile);
  try {
    db.pragma("journal_mode = WAL");
    db.pragma("synchronous = NORMAL");
    db.pragma("cache_size = -12288");
    db.prepare(`INSERT INTO "User" ("id", "email", "displayName", "updatedAt") VALUES ('ffffffffffffffffffffffff', 'floor@example.com', 'Floor', 0)`).run();
    const indexes = db
      .prepare(`SELECT "name", "sql" FROM sqlite_schema WHERE "type" = 'index' AND "name" IN (${segmentIndexes.map(() => "?").join(", ")})`)
      .all(...segmentIndexes) as { name: string; sql: string }[];
    // The rows, already parsed, wait in a temporary table (not timed): one INSERT ... SELECT moves
    // them, faster than a statement a row.
    db.exec(`CREATE TEMP TABLE floor_rows (id TEXT, firstName TEXT, lastName TEXT, email TEXT, phone TEXT, address TEXT,
      company TEXT, notes TEXT, totalSpendPaise INTEGER, visits INTEGER, lastActive INTEGER)`);
    const stage = db.prepare(`INSERT INTO temp.floor_rows VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`);
    const prefix = Date.now().toString(16).padStart(12, "0");
    db.transaction(() => {
      for (let i = 0; i < rows; i++) stage.run(prefix + i.toString(16).padStart(12, "0"), ...row(i));
    })();
    const insert = db.prepare(`INSERT INTO "Customer" ("id", "userId", "firstName", "lastName", "email", "phone", "address", "company", "notes",
      "totalSpendPaise", "visits", "lastActive", "createdAt", "updatedAt")
      SELECT id, 'ffffffffffffffffffffffff', firstName, lastName, email, phone, address, company, notes, totalSpendPaise, visits, lastActive, 0, 0
      FROM temp.floor_rows ORDER BY rowid`);
    const index = db.prepare(`INSERT INTO "customer_search" (rowid, name, email)
      SELECT rowid, "firstName" || ' ' || "lastName", "email" FROM "Customer" WHERE rowid > ? AND rowid <= ?`);
    const timed = (run: () => void) => {
      const t = performance.now();
      run();
      return (performance.now() - t) / 1000;
    };
    const started = performance.now();
    db.exec("BEGIN IMMEDIATE");
    for (const ix of indexes) db.exec(`DROP INDEX "${ix.name}"`);
    db.exec(`INSERT INTO "customer_search" ("customer_search", rank) VALUES ('hashsize', ${searchBufferBytes})`);
    const firstRowid = (db.prepare(`SELECT coalesce(max(rowid), 0) FROM "Customer"`).pluck().get() as number) + 1;
    const insertRows = timed(() => insert.run());
    const searchIndex = timed(() => {
      for (let from = firstRowid - 1; from < firstRowid - 1 + rows; from += 100_000) index.run(from, from + 100_000);
    });
    db.pragma(`threads = ${Math.min(4, os.availableParallelism())}`);
    db.pragma("cache_size = -4096");
    const segment = timed(() => {
      for (const ix of indexes) db.exec(ix.sql);
    });
    db.exec(`INSERT INTO "customer_search" ("customer_search", rank) VALUES ('hashsize', 1048576)`);
    const commit = timed(() => db.exec("COMMIT"));
    const analyze = timed(() => db.exec(`ANALYZE "Customer"`));
    const seconds = (performance.now() - started) / 1000;
    return {
      rows,
      seconds,
      rowsPerSecond: Math.round(rows / seconds),
      phases: { insertRows, searchIndex, segmentIndexes: segment, commit, analyze },
      what: "raw better-sqlite3, rows already parsed and validated in a temporary table (not timed), the database work of the import's bulk path only (insert, search index, segment index builds, commit with its checkpoint, ANALYZE), on a copy of the bench database taken before the import",
    };
  } finally {
    db.close();
    for (const suffix of ["", "-wal", "-shm"]) rmSync(`${copyFile}${suffix}`, { force: true });
  }
}
