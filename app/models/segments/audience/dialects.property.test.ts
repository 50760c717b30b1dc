// One segment, two engines, the same audience: generated rule trees (every field and operator the
// rule editor allows, nested AND/OR groups, edge values) run on SQLite (./sqlite.server.ts, with
// each of its count shapes) and on PostgreSQL (./postgres.server.ts) over the same
// generated customers with orders in two tenants, and every answer must be the same: counts, the
// audience's pages (rows and order), the preview's count and rows, the segments of one customer.
// PostgreSQL runs in a database with an ICU en-US collation, not the server's C default, so a
// text comparison that leaned on byte order would show here. Fixed seeds: the same trees and data
// on every run (docs/decisions/0032-segments-on-postgresql.md).
import { createHash } from "node:crypto";
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
import {
  BUILT_IN_FIELDS,
  type FieldDefinition,
  type StoredValue,
  readFieldValue,
  textKeyOf,
} from "~/lib/custom-fields";
import { MAX_DAYS_AGO, type Operator, type SegmentNode } from "~/lib/segments";
import { parseConditions } from "~/lib/segment-parse";
import { toComparison } from "~/lib/segment-dates";
import { tagKey } from "~/lib/tags";
import type { AudienceStore } from "~/models/segments/audience/contract";
import { postgresAudienceOn, postgresCountTuning } from "~/models/segments/audience/postgres.server";
import type { AudienceRow, AudienceTuple } from "~/models/segments/audience/rows";
import { segmentSqlTuning, sqliteAudience } from "~/models/segments/audience/sqlite.server";
import { segmentTreeArb } from "../../../../tests/helpers/segment-trees";

const DAY = 86_400_000;
const IST = 330 * 60_000;
/** The moment every audience is counted at: 2026-11-26 11:30 IST. */
const NOW = Date.UTC(2026, 10, 26, 6, 0);
/** Midnight IST that starts the day `k` days before NOW's (IST) day. */
const istMidnight = (k: number) => Math.floor((NOW + IST) / DAY) * DAY - IST - k * DAY;
const istDay = (ms: number) => new Date(ms + IST).toISOString().slice(0, 10);
const INT4_MAX = 2 ** 31 - 1;

const TENANT_A = "a0000000000000000000000a";
const TENANT_B = "b0000000000000000000000b";
/** A tenant with no customers at all. */
const TENANT_EMPTY = "e0000000000000000000000e";
const hexId = (key: string) => createHash("sha256").update(key).digest("hex").slice(0, 24);

// ---------------------------------------------------------------------------------------------
// The data: customers (as an import leaves them, or with totals that follow their orders)

type Customer = AudienceRow & { userId: string };
type Order = {
  id: string;
  userId: string;
  customerId: string;
  status: string;
  amountPaise: number;
  taxPaise: number;
  createdAt: number;
};

/** Instants at the edges of the windows the trees ask about: IST midnights ± 1 ms, and far ones. */
const edgeInstant = fc.oneof(
  fc
    .record({ k: fc.integer({ min: -2, max: 40 }), d: fc.constantFrom(0, 1, -1, 3_600_000, -3_600_000) })
    .map(({ k, d }) => istMidnight(k) + d),
  fc.constantFrom(
    istMidnight(MAX_DAYS_AGO),
    istMidnight(MAX_DAYS_AGO) - 1,
    0,
    -1,
    -IST,
    Date.UTC(1926, 0, 1),
    Date.UTC(2100, 0, 1),
  ),
  fc.integer({ min: istMidnight(800), max: NOW }),
);
const lastActiveArb = fc.option(edgeInstant, { nil: null, freq: 5 });

const paiseArb = fc.oneof(
  // Past 2^31 too: PostgreSQL keeps totalSpendPaise as bigint (migration money_columns_bigint).
  fc.constantFrom(0, 1, 99, 100, 101, INT4_MAX, INT4_MAX + 1, 1e14, 1e14 + 1, 1e14 - 1),
  fc
    .record({ v: fc.integer({ min: 0, max: 20 }), d: fc.constantFrom(0, 1, -1) })
    .map(({ v, d }) => Math.max(0, v * 50_000 + d)),
  fc.integer({ min: 0, max: INT4_MAX }),
);
const visitsArb = fc.oneof(fc.integer({ min: 0, max: 12 }), fc.constantFrom(INT4_MAX, INT4_MAX - 1, 1000));
/** Names as people type them: empty, plain, accented, Devanagari, emoji, any well-formed text. */
const nameArb = fc.oneof(
  fc.constantFrom("", "Asha", "Zoë", "अनीता", "O'Brien", "ßtraße", "😀", "Ünal", "a", "A", "Z", "z"),
  // PostgreSQL's text holds no NUL character (SQLite's does): the product never stores one either.
  fc.string({ unit: "grapheme", maxLength: 12 }).map((s) => s.split(String.fromCharCode(0)).join("")),
);
const orderArb = fc.record({
  status: fc.constantFrom("Pending", "Completed", "Cancelled"),
  amountPaise: fc.oneof(fc.constantFrom(0, 1, 50_000, 100_000), fc.integer({ min: 0, max: 2_000_000 })),
  taxPaise: fc.integer({ min: 0, max: 1000 }),
  createdAt: edgeInstant,
});
const customerArb = fc.record({
  tenant: fc.constantFrom(TENANT_A, TENANT_A, TENANT_B),
  firstName: nameArb,
  lastName: nameArb,
  phone: fc.oneof(fc.constant(""), fc.constant("+91 98765 43210")),
  totalSpendPaise: paiseArb,
  visits: visitsArb,
  lastActive: lastActiveArb,
  orders: fc.oneof(
    { weight: 2, arbitrary: fc.array(orderArb, { maxLength: 0 }) },
    { weight: 1, arbitrary: fc.array(orderArb, { maxLength: 3 }) },
  ),
});

function generateData(count: number): { customers: Customer[]; orders: Order[] } {
  const customers: Customer[] = [];
  const orders: Order[] = [];
  fc.sample(customerArb, { numRuns: count, seed: 2026_11_26 }).forEach((c, i) => {
    const id = hexId(`customer ${i}`);
    const counting = c.orders.filter((o) => o.status !== "Cancelled");
    // With orders, the totals follow them (docs/rules.md); without, they are what an import set.
    const withOrders = c.orders.length > 0;
    customers.push({
      id,
      userId: c.tenant,
      firstName: c.firstName,
      lastName: c.lastName,
      email: `${c.firstName.replace(/\s/g, "")}.${i}@example.com`,
      phone: c.phone,
      totalSpendPaise: withOrders ? counting.reduce((s, o) => s + o.amountPaise + o.taxPaise, 0) : c.totalSpendPaise,
      visits: withOrders ? counting.length : c.visits,
      lastActive: withOrders
        ? counting.length > 0
          ? Math.max(...counting.map((o) => o.createdAt))
          : null
        : c.lastActive,
    });
    c.orders.forEach((o, j) => orders.push({ ...o, id: hexId(`order ${i} ${j}`), userId: c.tenant, customerId: id }));
  });
  return { customers, orders };
}

const { customers, orders } = generateData(3000);
const customersOf = (userId: string) => customers.filter((c) => c.userId === userId);

// ---------------------------------------------------------------------------------------------
// The customers' fields and tags, stored as the product stores them (readFieldValue, tagKey), from
// a seed of their own so the customers above stay as they were

const field = (name: string, type: FieldDefinition["type"], choices: string[] = []): FieldDefinition => ({
  name,
  label: name,
  type,
  choices,
  defaultValue: null,
  builtIn: false,
  retired: false,
});
const builtIn = (name: string) => BUILT_IN_FIELDS.find((f) => f.name === name) as FieldDefinition;
/** The fields the data holds; "gone" is a field deleted since: no customer has a value of it. */
const FIELDS: FieldDefinition[] = [
  builtIn("city"),
  builtIn("birthday"),
  field("tier", "choice", ["Gold", "Silver", "Bronze"]),
  field("score", "number"),
  field("vip", "boolean"),
  field("renewal", "date"),
];
const TAG_NAMES = ["VIP", "Trade Fair", "wholesale", "Diwali 2026", "Ünïcode"];

/** Texts as people type them: cases, spaces, LIKE's own characters, accents, Devanagari. */
const CITY_VALUES = [
  "Pune",
  " pune ",
  "PUNE",
  "Mumbai",
  "Navi Mumbai",
  "Zoë",
  "ZOË town",
  "अनीता नगर",
  "100% cotton",
  "a_b",
  "axb",
  "back\\slash",
  "São Paulo",
];
/** Month-days at the anniversary windows' edges (today is 26 November 2026) and 29 February. */
const monthDayArb = fc.oneof(
  fc.constantFrom("11-25", "11-26", "11-27", "12-01", "12-30", "12-31", "01-01", "01-02", "01-05"),
  fc.constantFrom("02-27", "02-28", "02-29", "03-01", "03-02", "11-24", "06-15"),
  fc
    .record({ m: fc.integer({ min: 1, max: 12 }), d: fc.integer({ min: 1, max: 28 }) })
    .map(({ m, d }) => `${String(m).padStart(2, "0")}-${String(d).padStart(2, "0")}`),
);
const birthdayArb = fc
  .record({ year: fc.constantFrom(1980, 1992, 1996, 2000, 2001, 2024), md: monthDayArb })
  // 29 February only in a leap year.
  .map(({ year, md }) => `${md === "02-29" && year % 4 !== 0 ? 2000 : year}-${md}`);
const renewalArb = fc.oneof(
  fc.integer({ min: -60, max: 60 }).map((k) => istDay(istMidnight(k))),
  fc.constantFrom("2000-02-29", "1990-01-01", "2030-12-31", "2027-01-01"),
);
const maybe = <T>(arb: fc.Arbitrary<T>) => fc.option(arb, { nil: undefined, freq: 3 });
const customerValuesArb = fc.record({
  city: maybe(fc.constantFrom(...CITY_VALUES)),
  birthday: maybe(birthdayArb),
  tier: maybe(fc.constantFrom("Gold", "gold", "Silver", "BRONZE")),
  score: maybe(fc.constantFrom(-1, 0, 0.5, 1, 2.5, 3, 10, 1e15, -1e15, "7", "2.25")),
  vip: maybe(fc.constantFrom(true, false, "yes", "no")),
  renewal: maybe(renewalArb),
  tags: fc.subarray(TAG_NAMES, { maxLength: 4 }),
});

type ValueRow = StoredValue & { userId: string; customerId: string; name: string };
type TagRow = { id: string; userId: string; name: string; key: string };
type CustomerTagRow = { tagId: string; customerId: string; userId: string };

function generateValues(): { values: ValueRow[]; tags: TagRow[]; customerTags: CustomerTagRow[] } {
  const values: ValueRow[] = [];
  const tags = [TENANT_A, TENANT_B].flatMap((userId) =>
    TAG_NAMES.map((name) => ({ id: hexId(`tag ${userId} ${name}`), userId, name, key: tagKey(name) })),
  );
  const customerTags: CustomerTagRow[] = [];
  fc.sample(customerValuesArb, { numRuns: customers.length, seed: 2026_11_28 }).forEach((v, i) => {
    const c = customers[i];
    for (const f of FIELDS) {
      const raw = v[f.name as keyof typeof v];
      if (raw === undefined) continue;
      const read = readFieldValue(f, raw);
      if (!read.ok) throw new Error(`${f.name}: ${read.message}`);
      if (read.value) values.push({ ...read.value, userId: c.userId, customerId: c.id, name: f.name });
    }
    for (const name of v.tags) {
      const tag = tags.find((t) => t.userId === c.userId && t.name === name);
      if (tag) customerTags.push({ tagId: tag.id, customerId: c.id, userId: c.userId });
    }
  });
  return { values, tags, customerTags };
}

const { values, tags, customerTags } = generateValues();
const valuesOf = new Map<string, Map<string, StoredValue>>();
for (const v of values) {
  if (!valuesOf.has(v.customerId)) valuesOf.set(v.customerId, new Map());
  valuesOf.get(v.customerId)?.set(v.name, v);
}
const tagKeysOf = new Map<string, Set<string>>();
for (const ct of customerTags) {
  const key = tags.find((t) => t.id === ct.tagId)?.key ?? "";
  if (!tagKeysOf.has(ct.customerId)) tagKeysOf.set(ct.customerId, new Set());
  tagKeysOf.get(ct.customerId)?.add(key);
}

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
// The trees: every field and operator the editor allows, values at the edges

const numberOp = fc.constantFrom("$gt", "$gte", "$lt", "$lte", "$eq");
const dateOp = fc.constantFrom("$gt", "$gte", "$lt", "$lte");
const rupeesArb = fc.oneof(
  fc
    .record({ v: fc.integer({ min: 0, max: 20 }), d: fc.constantFrom(0, 0.01, -0.01) })
    .map(({ v, d }) => Math.round((v * 500 + d) * 100) / 100),
  fc.constantFrom(0, -0.01, 0.005, 0.994, 12.345, 21_474_836.47, 21_474_836.48, 999_999_999_999.99, 1e12, -1e12),
  // The API also takes a number as its digits.
  fc.constantFrom("1000", " 0.5 ", "-0"),
);
const visitsValueArb = fc.oneof(
  fc.integer({ min: -1, max: 13 }),
  fc.constantFrom(2.5, -0.5, 0.999, INT4_MAX, INT4_MAX + 1, 1e12, "3"),
);
const dateValueArb = fc.oneof(
  fc.integer({ min: -2, max: 40 }).map((k) => istDay(istMidnight(k))),
  fc
    .record({ k: fc.integer({ min: -2, max: 40 }), d: fc.constantFrom(0, 1, -1) })
    .map(({ k, d }) => new Date(istMidnight(k) + d).toISOString()),
  fc.integer({ min: -2, max: 40 }).map((k) => `${istDay(istMidnight(k))}T00:00:00+05:30`),
  fc.constantFrom(0, 1, 7, 30, 365, MAX_DAYS_AGO).map((n) => ({ $daysAgo: n })),
  fc.constantFrom(
    "1970-01-01",
    "1926-01-01",
    "0100-01-01",
    "9999-12-31",
    "2100-01-01T00:00:00.000Z",
    "1970-01-01T05:30:00+05:30",
  ),
);
const conditionArb: fc.Arbitrary<Record<string, unknown>> = fc.oneof(
  fc.record({ op: numberOp, v: rupeesArb }).map(({ op, v }) => ({ totalSpend: { [op]: v } })),
  fc.record({ op: numberOp, v: visitsValueArb }).map(({ op, v }) => ({ visits: { [op]: v } })),
  fc.record({ op: dateOp, v: dateValueArb }).map(({ op, v }) => ({ lastActiveDate: { [op]: v } })),
);
const treeArb = segmentTreeArb(conditionArb, { depthSize: "small", maxDepth: 4 });

const parsedTreeArb = treeArb
  .map((conditions) => parseConditions(conditions))
  .filter((p) => p.ok)
  .map((p) => (p.ok ? p.tree : (undefined as never)));

/** Conditions on the customer's fields and tags, with the values the segments service leaves them (its type's). */
const cityText = fc.constantFrom("Pune", " pune ", "PUNE", "mumbai", "Navi Mumbai", "ZOË", "अनीता नगर", "nowhere");
const cityPiece = fc.constantFrom("pu", "UM", "%", "_", "a_", "\\", "back\\", "ö", "zoë", "100%", "अ", "navi", "x");
const scoreValue = fc.constantFrom(-1, 0, 0.5, 1, 2.4999, 2.5, 3, 7, 10, 1e15, -1e15);
const dayValue = fc.oneof(
  fc.integer({ min: -40, max: 40 }).map((k) => istDay(istMidnight(k))),
  fc.constantFrom("2000-02-29", "1990-01-01", "2030-12-31"),
  fc.constantFrom(0, 1, 7, 30, 365).map((n) => ({ $daysAgo: n })),
  fc.constantFrom(0, 1, 7, 30, 365).map((n) => ({ $daysAhead: n })),
);
const rangeOp = fc.constantFrom("$gt", "$gte", "$lt", "$lte");
const anniversaryDays = fc.constantFrom(0, 1, 5, 34, 35, 36, 37, 40, 93, 94, 95, 100, 364, 365, 366);
const valueConditionArb: fc.Arbitrary<Record<string, unknown>> = fc.oneof(
  fc.record({ op: fc.constantFrom("$eq", "$ne"), v: cityText }).map(({ op, v }) => ({ "field:city": { [op]: v } })),
  fc
    .record({ op: fc.constantFrom("$contains", "$startsWith"), v: cityPiece })
    .map(({ op, v }) => ({ "field:city": { [op]: v } })),
  fc
    .record({ name: fc.constantFrom("city", "tier", "score", "vip", "birthday", "gone"), v: fc.boolean() })
    .map(({ name, v }) => ({ [`field:${name}`]: { $exists: v } })),
  fc.subarray(["Gold", "silver", "BRONZE"], { minLength: 1 }).map((v) => ({ "field:tier": { $in: v } })),
  fc
    .record({ op: fc.constantFrom("$eq", "$ne"), v: fc.constantFrom("Gold", "Silver", "Bronze") })
    .map(({ op, v }) => ({ "field:tier": { [op]: v } })),
  fc
    .record({ op: fc.constantFrom("$gt", "$gte", "$lt", "$lte", "$eq", "$ne"), v: scoreValue })
    .map(({ op, v }) => ({ "field:score": { [op]: v } })),
  fc.boolean().map((v) => ({ "field:vip": { $eq: v } })),
  fc
    .record({ name: fc.constantFrom("birthday", "renewal"), op: rangeOp, v: dayValue })
    .map(({ name, op, v }) => ({ [`field:${name}`]: { [op]: v } })),
  fc
    .record({ name: fc.constantFrom("birthday", "renewal"), n: anniversaryDays })
    .map(({ name, n }) => ({ [`field:${name}`]: { $anniversaryWithinDays: n } })),
  // A field deleted since: its conditions meet no value.
  fc.constantFrom({ "field:gone": { $eq: "x" } }, { "field:gone": { $ne: "x" } }, { "field:gone": { $gt: 3 } }),
  fc
    .record({
      op: fc.constantFrom("$in", "$all", "$nin"),
      v: fc.subarray(["vip", "VIP", "trade fair", "Wholesale", "diwali 2026", "ÜNÏCODE", "none such"], {
        minLength: 1,
        maxLength: 3,
      }),
    })
    .map(({ op, v }) => ({ tags: { [op]: v } })),
);
const valueTreeArb = segmentTreeArb(fc.oneof({ weight: 3, arbitrary: valueConditionArb }, conditionArb), {
  depthSize: "small",
  maxDepth: 3,
})
  .map((conditions) => parseConditions(conditions))
  .filter((p) => p.ok)
  .map((p) => (p.ok ? p.tree : (undefined as never)));

/** The customer columns a comparison of the three figures reads. */
const compare = (a: number, op: Operator, b: number) =>
  op === "$gt" ? a > b : op === "$gte" ? a >= b : op === "$lt" ? a < b : op === "$lte" ? a <= b : a === b;
const compareText = (a: string, op: string, b: string) =>
  op === "$gt" ? a > b : op === "$gte" ? a >= b : op === "$lt" ? a < b : a <= b;
const isLeap = (y: number) => (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;

/** The month-days whose anniversary falls on a day from today to N days later (29 February on 28 February of other years). */
function anniversaryDaysOf(n: number): Set<number> {
  const days = new Set<number>();
  for (let k = 0; k <= n; k++) {
    const day = istDay(istMidnight(-k));
    const md = Number(day.slice(5, 7)) * 100 + Number(day.slice(8, 10));
    days.add(md);
    if (md === 228 && !isLeap(Number(day.slice(0, 4)))) days.add(229);
  }
  return days;
}

/** What a tree means, evaluated plainly over the rows written above. */
function plainMatch(node: SegmentNode, c: Customer): boolean {
  switch (node.kind) {
    case "group":
      return node.logic === "AND"
        ? node.children.every((n) => plainMatch(n, c))
        : node.children.some((n) => plainMatch(n, c));
    case "condition": {
      const cmp = toComparison(node, NOW);
      const value = c[cmp.column];
      return value !== null && compare(value, cmp.op, cmp.value);
    }
    case "tags": {
      const has = tagKeysOf.get(c.id) ?? new Set<string>();
      const keys = node.value.map(tagKey);
      if (node.op === "$all") return keys.every((k) => has.has(k));
      const any = keys.some((k) => has.has(k));
      return node.op === "$in" ? any : !any;
    }
    case "field": {
      const stored = valuesOf.get(c.id)?.get(node.name);
      const v = node.value;
      const key = stored?.textKey ?? null;
      const number = stored?.numberValue ?? null;
      switch (node.op) {
        case "$exists":
          return (stored !== undefined) === v;
        case "$eq":
        case "$ne": {
          const equal =
            typeof v === "number" ? number === v : key === (typeof v === "boolean" ? String(v) : textKeyOf(String(v)));
          return node.op === "$eq" ? equal : !equal;
        }
        case "$contains":
          return key !== null && key.includes(textKeyOf(String(v)));
        case "$startsWith":
          return key !== null && key.startsWith(textKeyOf(String(v)));
        case "$in":
          return key !== null && (v as string[]).map(textKeyOf).includes(key);
        case "$anniversaryWithinDays":
          return number !== null && anniversaryDaysOf(Number(v)).has(number);
        default: {
          if (typeof v === "number") return number !== null && compare(number, node.op as Operator, v);
          const day =
            typeof v === "object" && v !== null && "$daysAgo" in v
              ? istDay(istMidnight(v.$daysAgo))
              : typeof v === "object" && v !== null && "$daysAhead" in v
                ? istDay(istMidnight(-v.$daysAhead))
                : String(v);
          return key !== null && compareText(key, node.op, day);
        }
      }
    }
    case "segment": {
      // In a segment: its tree holds; not in it: it does not. A segment no longer there holds nobody.
      const inIt = node.target ? plainMatch(node.target.tree, c) : false;
      return node.op === "$eq" ? inIt : !inIt;
    }
    default:
      throw new Error(`No plain evaluation of a ${node.kind} condition here`);
  }
}

/**
 * Trees that include other segments: a membership condition (is in, is not in, of a segment whose
 * tree is generated, or of one deleted since), alone or in a group beside another tree, nested in
 * turn. The service sets each target before anything is compiled (segment-references.server.ts).
 */
const membershipArb: fc.Arbitrary<SegmentNode> = fc.letrec<{ node: SegmentNode }>((tie) => ({
  node: fc.oneof(
    { depthSize: "small", maxDepth: 2 },
    fc
      .record({
        op: fc.constantFrom("$eq" as const, "$ne" as const),
        target: fc.option(fc.record({ name: fc.constant("Included"), tree: fc.oneof(valueTreeArb, tie("node")) }), {
          nil: null,
          freq: 6,
        }),
      })
      .map(({ op, target }): SegmentNode => ({ kind: "segment", op, segmentId: hexId("included"), target })),
    fc
      .record({ logic: fc.constantFrom("AND" as const, "OR" as const), a: tie("node"), b: valueTreeArb })
      .map(({ logic, a, b }): SegmentNode => ({ kind: "group", logic, children: [a, b] })),
  ),
})).node;

/** The SQLite count's shapes (decision 0004), each forced in turn: all must agree with PostgreSQL's. */
const sqliteTuningArb = fc.constantFrom(
  { sampleSize: 2000, narrowOr: 0.35, broadAnd: 0.2, forceAnd: null },
  { sampleSize: 1e9, narrowOr: 0.35, broadAnd: 0.2, forceAnd: "plain" as const },
  { sampleSize: 1, narrowOr: Infinity, broadAnd: Infinity, forceAnd: null },
  { sampleSize: 1, narrowOr: 0, broadAnd: 0, forceAnd: "complement" as const },
  { sampleSize: 1, narrowOr: 0, broadAnd: 0, forceAnd: "anchored" as const },
);
/** PostgreSQL's shapes (decision 0032): forced, or chosen from the planner's estimates. */
const postgresTuningArb = fc.constantFrom(
  { minTenant: 20_000, broad: 0.4, narrowOr: 0.35, force: null },
  { minTenant: 0, broad: 0.4, narrowOr: 0.35, force: null },
  { minTenant: 0, broad: 0.9, narrowOr: 1, force: null },
  { minTenant: 0, broad: 0.4, narrowOr: 0.35, force: "plain" as const },
  { minTenant: 0, broad: 0.4, narrowOr: 0.35, force: "complement" as const },
  { minTenant: 0, broad: 0.4, narrowOr: 0.35, force: "disjoint" as const },
  { minTenant: 0, broad: 0.4, narrowOr: 0.35, force: "ranges" as const },
  { minTenant: 0, broad: 0.4, narrowOr: 0.35, force: "rangeComplement" as const },
);
const tuningArb = fc.tuple(sqliteTuningArb, postgresTuningArb).map(([sqliteTuning, postgresTuning]) => ({
  sqliteTuning,
  postgresTuning,
}));

const byId = (a: { id: string }, b: { id: string }) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
const tupleIds = (t: AudienceTuple) => t[0];

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

function parsedTree(conditions: unknown): SegmentNode {
  const parsed = parseConditions(conditions);
  if (!parsed.ok) throw new Error(parsed.message);
  return parsed.tree;
}
