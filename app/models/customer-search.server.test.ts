// The migration to a tenant-keyed search index, on a database that already holds customers of
// two tenants: every customer stays findable, by its own tenant only.
import Database from "better-sqlite3";
import { cpSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, expect, it } from "vitest";
import { MIGRATIONS_DIR, migrateDatabase, migrationNames } from "~/db/migrate.server";
import { customerSearchSql, ftsPhrase, INDEX_CUSTOMER_SQL } from "~/models/customer-search.server";

const scratch = mkdtempSync(path.join(tmpdir(), "crm-search-migration-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

it("rebuilds the index of existing customers by tenant, and its triggers keep it", () => {
  const names = migrationNames();
  const mine = names.indexOf("20261123201402_customer_search_by_tenant");
  expect(mine).toBeGreaterThan(0);
  const before = path.join(scratch, "before");
  for (const name of names.slice(0, mine))
    cpSync(path.join(MIGRATIONS_DIR, name), path.join(before, name), { recursive: true });
  const file = path.join(scratch, "existing.db");
  migrateDatabase(file, { dir: before });

  // Customers of two tenants, interleaved in rowid order, indexed the way the services did before.
  const sqlite = new Database(file);
  sqlite.exec(
    `INSERT INTO "User" ("id", "email", "displayName", "updatedAt") VALUES ('ua', 'a@example.com', 'A', 0), ('ub', 'b@example.com', 'B', 0)`,
  );
  const add = sqlite.prepare(
    `INSERT INTO "Customer" ("id", "userId", "firstName", "lastName", "email", "createdAt", "updatedAt") VALUES (?, ?, ?, ?, ?, 0, 0)`,
  );
  for (let i = 0; i < 300; i++) {
    const userId = i % 3 === 0 ? "ua" : "ub";
    add.run(`c${i}`, userId, i % 2 ? "Lakshmi" : "Gopal", `Iyer${i}`, `x${i}@${userId}.in`);
    sqlite
      .prepare(
        `INSERT INTO "customer_search" (rowid, name, email) SELECT rowid, "firstName" || ' ' || "lastName", "email" FROM "Customer" WHERE "id" = ?`,
      )
      .run(`c${i}`);
  }
  sqlite.close();

  migrateDatabase(file);
  const db = new Database(file);
  db.pragma("foreign_keys = ON");
  const found = (userId: string, term: string) => {
    const search = customerSearchSql(userId, ftsPhrase(term));
    return (
      db
        .prepare(`SELECT c."id" FROM ${search.sql} ORDER BY s.rowid DESC`)
        .pluck()
        .all(...search.params) as string[]
    ).sort();
  };
  const expected = (pred: (i: number) => boolean) =>
    Array.from({ length: 300 }, (_, i) => i)
      .filter(pred)
      .map((i) => `c${i}`)
      .sort();
  expect(found("ua", "lakshmi")).toEqual(expected((i) => i % 3 === 0 && i % 2 === 1));
  expect(found("ub", "gopal")).toEqual(expected((i) => i % 3 !== 0 && i % 2 === 0));
  expect(found("ua", "@ub.in")).toEqual([]);
  expect(found("ub", "iyer12")).toEqual(expected((i) => i % 3 !== 0 && String(i).startsWith("12")));
  expect(found("nobody", "iyer")).toEqual([]);
  // Every customer once, nothing else.
  expect(
    db.prepare(`SELECT count(*) FROM "customer_search" WHERE "customer_search" MATCH '"iyer"'`).pluck().get(),
  ).toBe(300);

  // A new customer is indexed by the services' statement; a rename and a delete by the triggers.
  db.prepare(
    `INSERT INTO "Customer" ("id", "userId", "firstName", "lastName", "email", "createdAt", "updatedAt") VALUES ('new', 'ua', 'Zoya', 'Khan', 'z@ua.in', 0, 0)`,
  ).run();
  db.prepare(INDEX_CUSTOMER_SQL).run("new");
  expect(found("ua", "zoya")).toEqual(["new"]);
  db.prepare(`UPDATE "Customer" SET "firstName" = 'Zara' WHERE "id" = 'new'`).run();
  expect(found("ua", "zoya")).toEqual([]);
  expect(found("ua", "zara")).toEqual(["new"]);
  db.prepare(`DELETE FROM "Customer" WHERE "id" = 'c0'`).run();
  expect(found("ua", "iyer0")).toEqual([]);
  // A deleted user takes its entries along (its customers go by the foreign key's cascade).
  db.prepare(`DELETE FROM "User" WHERE "id" = 'ub'`).run();
  expect(
    db.prepare(`SELECT count(*) FROM "customer_search" WHERE "customer_search" MATCH '"iyer"'`).pluck().get(),
  ).toBe(99);
  db.exec(`INSERT INTO "customer_search" ("customer_search", rank) VALUES ('integrity-check', 0)`);
  db.close();
});
