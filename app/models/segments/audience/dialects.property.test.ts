// One segment, two engines, the same audience: generated rule trees (every field and operator the
// rule editor allows, nested AND/OR groups, edge values) run on SQLite (./sqlite.server.ts, with
// each of its count shapes) and on PostgreSQL (./postgres.server.ts) over the same
// generated customers with orders in two tenants, and every answer must be the same: counts, the
// audience's pages (rows and order), the preview's count and rows, the segments of one customer.
// PostgreSQL runs in a database with an ICU en-US collation, not the server's C default, so a
// text comparison that leaned on byte order would show here. Fixed seeds: the same trees and data
// on every run (docs/decisions/0032-segments-on-postgresql.md).
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import fc from "fast-check";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TEST_POSTGRES_URL, databaseUrl } from "../../../../tests/helpers/postgres";
import { migrateDatabase } from "~/db/migrate.server";
import { migratePostgres } from "~/db/migrate-postgres.server";
import { closeReader } from "~/db/reader.server";
import { resetEnvCache } from "~/env.server";
import { type SegmentNode } from "~/lib/segments";
import type { AudienceStore } from "~/models/segments/audience/contract";
import { postgresAudienceOn, postgresCountTuning } from "~/models/segments/audience/postgres.server";
import { segmentSqlTuning, sqliteAudience } from "~/models/segments/audience/sqlite.server";
import { parsedTree } from "../../../../tests/helpers/segment-trees";
import {
  type Customer,
  NOW,
  type Order,
  TENANT_A,
  TENANT_B,
  TENANT_EMPTY,
  type ValueRow,
  customerTags,
  customers,
  customersOf,
  hexId,
  orders,
  tags,
  values,
} from "./dialect-data";
import {
  byId,
  membershipArb,
  parsedTreeArb,
  plainMatch,
  postgresTuningArb,
  tuningArb,
  tupleIds,
  valueTreeArb,
} from "./dialect-trees";

// ---------------------------------------------------------------------------------------------
// The two databases

let dir = "";
let pool: pg.Pool;
/** The PostgreSQL audience on this test's own pool (the process's engine is SQLite). */
let postgresAudience: AudienceStore;
let pgName = "";

async function onAdmin(sql: string) {
  const admin = new pg.Client({ connectionString: TEST_POSTGRES_URL });
  await admin.connect();
  try {
    await admin.query(sql);
  } finally {
    await admin.end();
  }
}

function loadSqlite(file: string) {
  const db = new Database(file);
  try {
    db.transaction(() => {
      const user = db.prepare(
        `INSERT INTO "User" ("id", "email", "displayName", "createdAt", "updatedAt") VALUES (?, ?, ?, ?, ?)`,
      );
      for (const id of [TENANT_A, TENANT_B, TENANT_EMPTY]) user.run(id, `${id}@example.com`, id, NOW, NOW);
      const customer = db.prepare(
        `INSERT INTO "Customer" ("id", "userId", "firstName", "lastName", "email", "phone", "totalSpendPaise", "visits", "lastActive", "createdAt", "updatedAt")
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      );
      for (const c of customers)
        customer.run(
          c.id,
          c.userId,
          c.firstName,
          c.lastName,
          c.email,
          c.phone,
          c.totalSpendPaise,
          c.visits,
          c.lastActive,
          NOW,
          NOW,
        );
      const order = db.prepare(
        `INSERT INTO "Order" ("id", "userId", "customerId", "status", "amountPaise", "taxPaise", "createdAt", "updatedAt")
         VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
      );
      for (const o of orders)
        order.run(o.id, o.userId, o.customerId, o.status, o.amountPaise, o.taxPaise, o.createdAt, o.createdAt);
      const value = db.prepare(
        `INSERT INTO "CustomerFieldValue" ("userId", "customerId", "name", "value", "textKey", "numberValue") VALUES (?, ?, ?, ?, ?, ?)`,
      );
      for (const v of values) value.run(v.userId, v.customerId, v.name, v.value, v.textKey, v.numberValue);
      const tag = db.prepare(`INSERT INTO "Tag" ("id", "userId", "name", "key", "createdAt") VALUES (?, ?, ?, ?, ?)`);
      for (const t of tags) tag.run(t.id, t.userId, t.name, t.key, NOW);
      const tagged = db.prepare(`INSERT INTO "CustomerTag" ("tagId", "customerId", "userId") VALUES (?, ?, ?)`);
      for (const ct of customerTags) tagged.run(ct.tagId, ct.customerId, ct.userId);
    })();
    db.exec("ANALYZE");
  } finally {
    db.close();
  }
}

async function loadPostgres(client: pg.Pool) {
  const ms = (column: string) => `to_timestamp(${column}::float8 / 1000)`;
  await client.query(
    `INSERT INTO "User" ("id", "email", "displayName", "createdAt", "updatedAt")
     SELECT id, id || '@example.com', id, ${ms("$2")}, ${ms("$2")} FROM unnest($1::text[]) AS id`,
    [[TENANT_A, TENANT_B, TENANT_EMPTY], NOW],
  );
  const col = <K extends keyof Customer>(k: K) => customers.map((c) => c[k]);
  await client.query(
    `INSERT INTO "Customer" ("id", "userId", "firstName", "lastName", "email", "phone", "totalSpendPaise", "visits", "lastActive", "createdAt", "updatedAt")
     SELECT i, u, f, l, e, p, s, v, ${ms("a")}, ${ms("$10")}, ${ms("$10")}
     FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::int8[], $8::int[], $9::float8[])
       AS t(i, u, f, l, e, p, s, v, a)`,
    [
      col("id"),
      col("userId"),
      col("firstName"),
      col("lastName"),
      col("email"),
      col("phone"),
      col("totalSpendPaise"),
      col("visits"),
      col("lastActive"),
      NOW,
    ],
  );
  const ocol = <K extends keyof Order>(k: K) => orders.map((o) => o[k]);
  await client.query(
    `INSERT INTO "Order" ("id", "userId", "customerId", "status", "amountPaise", "taxPaise", "createdAt", "updatedAt")
     SELECT i, u, c, s, a, t, ${ms("d")}, ${ms("d")}
     FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::int8[], $6::int8[], $7::float8[]) AS x(i, u, c, s, a, t, d)`,
    [
      ocol("id"),
      ocol("userId"),
      ocol("customerId"),
      ocol("status"),
      ocol("amountPaise"),
      ocol("taxPaise"),
      ocol("createdAt"),
    ],
  );
  const vcol = <K extends keyof ValueRow>(k: K) => values.map((v) => v[k]);
  await client.query(
    `INSERT INTO "CustomerFieldValue" ("userId", "customerId", "name", "value", "textKey", "numberValue")
     SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::float8[])`,
    [vcol("userId"), vcol("customerId"), vcol("name"), vcol("value"), vcol("textKey"), vcol("numberValue")],
  );
  await client.query(
    `INSERT INTO "Tag" ("id", "userId", "name", "key", "createdAt")
     SELECT i, u, n, k, ${ms("$5")} FROM unnest($1::text[], $2::text[], $3::text[], $4::text[]) AS t(i, u, n, k)`,
    [tags.map((t) => t.id), tags.map((t) => t.userId), tags.map((t) => t.name), tags.map((t) => t.key), NOW],
  );
  await client.query(
    `INSERT INTO "CustomerTag" ("tagId", "customerId", "userId") SELECT * FROM unnest($1::text[], $2::text[], $3::text[])`,
    [customerTags.map((t) => t.tagId), customerTags.map((t) => t.customerId), customerTags.map((t) => t.userId)],
  );
  await client.query(`VACUUM ANALYZE "CustomerFieldValue", "Tag", "CustomerTag"`);
  // Tenant A has its tally (the complement count subtracts from it); B has none, as a tenant whose
  // tally was never written, so its complement count must fall back to the plain one.
  await client.query(`INSERT INTO "CustomerTally" ("userId", "customers") VALUES ($1, $2)`, [
    TENANT_A,
    customersOf(TENANT_A).length,
  ]);
  await client.query(`VACUUM ANALYZE "Customer"`);
}

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), "crm-dialects-"));
  const file = path.join(dir, "test.db");
  process.env.DATABASE_URL = `file:${file}`;
  process.env.DATA_DIR = dir;
  process.env.SESSION_SECRET ??= "test-secret-that-is-at-least-32-characters-long";
  resetEnvCache();
  migrateDatabase(file);
  loadSqlite(file);

  pgName = `crm_dialects_${hexId(String(Math.random())).slice(0, 12)}`;
  // ICU's en-US collation, as a hosted PostgreSQL often has, where the server here defaults to C.
  await onAdmin(
    `CREATE DATABASE "${pgName}" TEMPLATE template0 ENCODING 'UTF8' LOCALE_PROVIDER icu ICU_LOCALE 'en-US' LOCALE 'C.UTF-8'`,
  );
  const url = databaseUrl(pgName);
  await migratePostgres(url);
  // pg's own type parsers (timestamptz as Date, bigint as string): the functions must not need others.
  pool = new pg.Pool({ connectionString: url, max: 2 });
  await loadPostgres(pool);
  postgresAudience = postgresAudienceOn(pool);
});

afterAll(async () => {
  closeReader();
  await pool?.end();
  if (pgName) await onAdmin(`DROP DATABASE IF EXISTS "${pgName}" WITH (FORCE)`);
  if (dir) rmSync(dir, { recursive: true, force: true });
});

// ---------------------------------------------------------------------------------------------

/**
 * The property of the value and membership tests: a tree's count, pages, previews and matches on
 * both engines are the customers a plain evaluation of the rows finds (`tuning` forces each count
 * shape in turn; `pick` chooses the customers matched one by one, another tenant's among them).
 */
async function agreesWithPlainEvaluation(
  tree: SegmentNode,
  tuning: { sqliteTuning: object; postgresTuning: object },
  pick: number,
) {
  Object.assign(segmentSqlTuning, tuning.sqliteTuning);
  Object.assign(postgresCountTuning, tuning.postgresTuning);
  for (const userId of [TENANT_A, TENANT_B]) {
    const own = customersOf(userId);
    const expected = own
      .filter((c) => plainMatch(tree, c))
      .map((c) => c.id)
      .sort();
    expect(await sqliteAudience.sqlAudienceCount(userId, tree, NOW)).toBe(expected.length);
    expect(await postgresAudience.sqlAudienceCount(userId, tree, NOW)).toBe(expected.length);
    const ids = (rows: { id: string }[]) => rows.map((r) => r.id);
    expect(ids(await sqliteAudience.sqlAudiencePage(userId, tree, 5000, undefined, NOW))).toEqual(expected);
    expect(ids(await postgresAudience.sqlAudiencePage(userId, tree, 5000, undefined, NOW))).toEqual(expected);
    for (const audience of [sqliteAudience, postgresAudience]) {
      const preview = await audience.sqlAudiencePreview(userId, tree, 10, NOW);
      expect(preview.count).toBe(expected.length);
      expect(preview.rows).toHaveLength(Math.min(10, expected.length));
      for (const row of preview.rows) expect(expected).toContain(row.id);
    }
    for (const customer of [own[pick % own.length], customers[(pick * 7 + 1) % customers.length]]) {
      const inIt = customer.userId === userId && plainMatch(tree, customer);
      expect(await sqliteAudience.sqlMatchesForCustomer(userId, customer.id, [tree], NOW)).toEqual([inIt]);
      expect(await postgresAudience.sqlMatchesForCustomer(userId, customer.id, [tree], NOW)).toEqual([inIt]);
    }
  }
}

describe("a segment on SQLite and on PostgreSQL", () => {
  it("holds the same customers on both engines, read back as they were written", async () => {
    const everyone = parsedTree({ visits: { $gte: 0 } });
    const expected = customers.map(({ userId: _, ...row }) => row).sort(byId);
    const onSqlite = [TENANT_A, TENANT_B].map((u) => sqliteAudience.sqlAudiencePage(u, everyone, 5000, undefined, NOW));
    const onPostgres = [TENANT_A, TENANT_B].map((u) =>
      postgresAudience.sqlAudiencePage(u, everyone, 5000, undefined, NOW),
    );
    expect((await Promise.all(onSqlite)).flat().sort(byId)).toEqual(expected);
    expect((await Promise.all(onPostgres)).flat().sort(byId)).toEqual(expected);
  });

  it("gives the same counts, pages, previews and matches for generated trees", async () => {
    await fc.assert(
      fc.asyncProperty(parsedTreeArb, parsedTreeArb, tuningArb, fc.nat(), async (tree, other, tuning, pick) => {
        Object.assign(segmentSqlTuning, tuning.sqliteTuning);
        Object.assign(postgresCountTuning, tuning.postgresTuning);
        for (const userId of [TENANT_A, TENANT_B]) {
          const count = await sqliteAudience.sqlAudienceCount(userId, tree, NOW);
          expect(await postgresAudience.sqlAudienceCount(userId, tree, NOW)).toBe(count);

          // The whole audience in id order, row for row (the same values, types and order).
          const audience = await sqliteAudience.sqlAudiencePage(userId, tree, 5000, undefined, NOW);
          expect(audience).toHaveLength(count);
          expect(await postgresAudience.sqlAudiencePage(userId, tree, 5000, undefined, NOW)).toEqual(audience);

          // Pages after a cursor.
          const first = await postgresAudience.sqlAudiencePage(userId, tree, 7, undefined, NOW);
          expect(first).toEqual(await sqliteAudience.sqlAudiencePage(userId, tree, 7, undefined, NOW));
          if (first.length === 7) {
            const cursor = first[6].id;
            expect(await postgresAudience.sqlAudiencePage(userId, tree, 7, cursor, NOW)).toEqual(
              await sqliteAudience.sqlAudiencePage(userId, tree, 7, cursor, NOW),
            );
          }

          // The preview: the same count, and 10 customers of the audience (which 10 is each
          // plan's choice: the sample is unsorted on both engines), all of them when 10 or fewer.
          const fromSqlite = await sqliteAudience.sqlAudiencePreview(userId, tree, 10, NOW);
          const fromPostgres = await postgresAudience.sqlAudiencePreview(userId, tree, 10, NOW);
          expect(fromPostgres.count).toBe(fromSqlite.count);
          expect(fromPostgres.rows).toHaveLength(fromSqlite.rows.length);
          expect(fromPostgres.rows).toHaveLength(Math.min(10, count));
          const inAudience = new Map(audience.map((r) => [r.id, r]));
          for (const row of fromPostgres.rows) expect(row).toEqual(inAudience.get(row.id));
          if (count <= 10) expect([...fromPostgres.rows].sort(byId)).toEqual([...fromSqlite.rows].sort(byId));
          const mapped = await postgresAudience.sqlAudiencePreviewAs(userId, tree, 3, tupleIds, NOW);
          expect(mapped.count).toBe(count);
          for (const id of mapped.rows) expect(inAudience.has(id)).toBe(true);

          // Several segments at once, and which of them one customer is in.
          expect(await postgresAudience.sqlAudienceCounts(userId, [tree, other, tree], NOW)).toEqual(
            await sqliteAudience.sqlAudienceCounts(userId, [tree, other, tree], NOW),
          );
          const own = customersOf(userId);
          for (const customer of [
            own[pick % own.length],
            own[(pick * 7 + 1) % own.length],
            customers[pick % customers.length],
          ]) {
            expect(await postgresAudience.sqlMatchesForCustomer(userId, customer.id, [tree, other], NOW)).toEqual(
              await sqliteAudience.sqlMatchesForCustomer(userId, customer.id, [tree, other], NOW),
            );
          }
        }
      }),
      { seed: 26, numRuns: 200 },
    );
  });

  it("answers conditions on fields and tags as a plain evaluation of the rows does, on both engines", async () => {
    // The data holds what the conditions probe: several customers on each side of each kind.
    expect(values.filter((v) => v.name === "birthday").length).toBeGreaterThan(500);
    expect(customerTags.length).toBeGreaterThan(1000);
    await fc.assert(fc.asyncProperty(valueTreeArb, tuningArb, fc.nat(), agreesWithPlainEvaluation), {
      seed: 28,
      numRuns: 150,
    });
    // About 20 s on an idle machine: the limit leaves room for a busy one.
  }, 120_000);

  it("answers membership of other segments as a plain evaluation of the rows does, on both engines", async () => {
    await fc.assert(fc.asyncProperty(membershipArb, tuningArb, fc.nat(), agreesWithPlainEvaluation), {
      seed: 36,
      numRuns: 80,
    });
  }, 120_000);

  it("chooses PostgreSQL's count shape from the planner's estimates", async () => {
    Object.assign(postgresCountTuning, { minTenant: 0, broad: 0.4, narrowOr: 0.35, force: null });
    const shape = (conditions: unknown) => postgresAudience.audienceCountShape(TENANT_A, parsedTree(conditions));
    // Disjoint ranges, or the tally minus those of the complement, whichever the planner costs lower.
    expect(await shape({ visits: { $gte: 0 } })).toBe("rangeComplement");
    expect(await shape({ $or: [{ visits: { $eq: 1000 } }, { totalSpend: { $gt: 1e10 } }] })).toBe("ranges");
    expect(await shape({ visits: { $eq: 1000 } })).toBe("ranges");
    // A tree of more ranges than allowed gets the estimates' shapes: here a narrow OR, disjoint parts.
    const many = { $or: Array.from({ length: 13 }, (_, i) => ({ visits: { $eq: 1000 + 2 * i } })) };
    expect(await shape(many)).toBe("disjoint");
    // A tenant the planner thinks small is counted plainly whatever the tree.
    Object.assign(postgresCountTuning, { minTenant: 1e9 });
    expect(await shape({ $and: [{ visits: { $gte: 0 } }, { totalSpend: { $gte: 0 } }] })).toBe("plain");
  });

  it("never shows another tenant's customers", async () => {
    const everyone = parsedTree({ $or: [{ visits: { $gte: 0 } }, { lastActiveDate: { $lt: "9999-12-31" } }] });
    await fc.assert(
      fc.asyncProperty(parsedTreeArb, postgresTuningArb, async (tree, tuning) => {
        Object.assign(postgresCountTuning, tuning);
        for (const [userId, other] of [
          [TENANT_A, TENANT_B],
          [TENANT_B, TENANT_A],
        ]) {
          const own = new Set(customersOf(userId).map((c) => c.id));
          const page = await postgresAudience.sqlAudiencePage(userId, tree, 5000, undefined, NOW);
          for (const row of page) expect(own.has(row.id)).toBe(true);
          const preview = await postgresAudience.sqlAudiencePreview(userId, tree, 10, NOW);
          for (const row of preview.rows) expect(own.has(row.id)).toBe(true);
          expect(preview.count).toBe(page.length);
          const theirs = customersOf(other).slice(0, 3);
          for (const customer of theirs) {
            expect(await postgresAudience.sqlMatchesForCustomer(userId, customer.id, [tree, everyone], NOW)).toEqual([
              false,
              false,
            ]);
          }
        }
        // A tenant without customers has an empty audience, whatever the tree.
        expect(await postgresAudience.sqlAudiencePreview(TENANT_EMPTY, tree, 10, NOW)).toEqual({ count: 0, rows: [] });
        expect(await postgresAudience.sqlAudienceCounts(TENANT_EMPTY, [tree, everyone], NOW)).toEqual([0, 0]);
      }),
      { seed: 2611, numRuns: 40 },
    );
    // Everyone of a tenant is counted, and nobody else.
    expect(await postgresAudience.sqlAudienceCount(TENANT_A, everyone, NOW)).toBe(customersOf(TENANT_A).length);
    expect(await postgresAudience.sqlAudienceCount(TENANT_B, everyone, NOW)).toBe(customersOf(TENANT_B).length);
  });
});
