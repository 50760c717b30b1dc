// The search index of two tenants' customers: every customer findable, by its own tenant only, as
// the table changes. On SQLite, the migration to a tenant-keyed FTS5 index on a database that
// already holds customers, and the triggers that keep it; on PostgreSQL (the postgres project),
// the trigram index of "Customer" itself, which the table's own writes keep.
import Database from "better-sqlite3";
import { cpSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, expect, it } from "vitest";
import { createTestUser, TEST_ENGINE, useTestConnection, useTestDatabase } from "../../../tests/helpers/db";
import { sqlRow } from "../../../tests/helpers/sql";
import { db } from "~/db/prisma.server";
import { MIGRATIONS_DIR, migrateDatabase, migrationNames } from "~/db/migrate.server";
import { customerSearchSql, ftsPhrase, INDEX_CUSTOMER_SQL, likePattern } from "~/models/customers/search-sql";
import { customers } from "~/models/customers/store.server";
import { seedCustomer, seedCustomers } from "~/models/seed/test-customers";

// eslint-disable-next-line react-hooks/rules-of-hooks -- a test helper named use*, not a React hook
useTestDatabase();
// eslint-disable-next-line react-hooks/rules-of-hooks -- a test helper named use*, not a React hook
const connection = useTestConnection();

const scratch = mkdtempSync(path.join(tmpdir(), "crm-search-migration-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

it.runIf(TEST_ENGINE === "postgres")("finds every customer by its own tenant only, as the table changes", async () => {
  const a = (await createTestUser("A")).id;
  const b = (await createTestUser("B")).id;
  const customer = (i: number) =>
    seedCustomer(5_000_000 + i, {
      firstName: i % 2 ? "Lakshmi" : "Gopal",
      lastName: `Iyer${i}`,
      email: `x${i}@${i % 3 === 0 ? "ua" : "ub"}.in`,
    });
  const all = Array.from({ length: 300 }, (_, i) => customer(i));
  await seedCustomers([
    [a, all.filter((_, i) => i % 3 === 0)],
    [b, all.filter((_, i) => i % 3 !== 0)],
  ]);
  const found = async (userId: string, term: string) =>
    (await customers.findSearchMatches(userId, term, 1000)).map(String).sort();
  const expected = (pred: (i: number) => boolean) =>
    all
      .filter((_, i) => pred(i))
      .map((c) => c.id)
      .sort();
  const everyTenant = async (term: string) =>
    (
      await sqlRow<{ n: number }>(
        connection(),
        `SELECT count(*) AS n FROM "Customer" c WHERE lower(c."firstName" || ' ' || c."lastName") LIKE ? OR c."email" LIKE ?`,
        [likePattern(term), likePattern(term)],
      )
    )?.n;
  expect(await found(a, "lakshmi")).toEqual(expected((i) => i % 3 === 0 && i % 2 === 1));
  expect(await found(b, "gopal")).toEqual(expected((i) => i % 3 !== 0 && i % 2 === 0));
  expect(await found(a, "@ub.in")).toEqual([]);
  expect(await found(b, "iyer12")).toEqual(expected((i) => i % 3 !== 0 && String(i).startsWith("12")));
  expect(await found("nobody", "iyer")).toEqual([]);
  expect(await everyTenant("iyer")).toBe(300);

  // A rename and a delete are the table's own writes: the index follows them.
  const zero = all[0];
  await customers.updateCustomerRow(zero.id, {
    firstName: "Zara",
    lastName: zero.lastName,
    email: zero.email,
    phone: "",
    address: "",
    company: "",
    notes: "",
  });
  expect(await found(a, "zara")).toEqual([zero.id]);
  expect(await found(a, "gopal iyer0")).toEqual([]);
  expect(await customers.deleteCustomerRow(a, all[3].id)).toBe(true);
  expect(await customers.deleteCustomerRow(a, all[3].id)).toBe(false);
  expect(await found(a, "iyer3")).toEqual(expected((i) => i % 3 === 0 && String(i).startsWith("3") && i !== 3));
  // A deleted user takes its customers along (the foreign key's cascade), and so their entries.
  await db().user.delete({ where: { id: b } });
  expect(await everyTenant("iyer")).toBe(99);
});

it.runIf(TEST_ENGINE === "sqlite")(
  "rebuilds the index of existing customers by tenant, and its triggers keep it",
  () => {
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
  },
);
