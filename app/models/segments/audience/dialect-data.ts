// The data of the dialects property test (./dialects.property.test.ts): customers with orders in two
// tenants (as an import leaves them, or with totals that follow their orders), their field values
// and tags stored as the product stores them, at the edges of the windows the trees ask about.
// Fixed seeds: the same data on every run.
import { createHash } from "node:crypto";
import fc from "fast-check";
import { BUILT_IN_FIELDS, type FieldDefinition, type StoredValue, readFieldValue } from "~/lib/custom-fields";
import { MAX_DAYS_AGO } from "~/lib/segments";
import { tagKey } from "~/lib/tags";
import type { AudienceRow } from "~/models/segments/audience/rows";

const DAY = 86_400_000;
const IST = 330 * 60_000;
/** The moment every audience is counted at: 2026-11-26 11:30 IST. */
export const NOW = Date.UTC(2026, 10, 26, 6, 0);
/** Midnight IST that starts the day `k` days before NOW's (IST) day. */
export const istMidnight = (k: number) => Math.floor((NOW + IST) / DAY) * DAY - IST - k * DAY;
export const istDay = (ms: number) => new Date(ms + IST).toISOString().slice(0, 10);
export const INT4_MAX = 2 ** 31 - 1;

export const TENANT_A = "a0000000000000000000000a";
export const TENANT_B = "b0000000000000000000000b";
/** A tenant with no customers at all. */
export const TENANT_EMPTY = "e0000000000000000000000e";
export const hexId = (key: string) => createHash("sha256").update(key).digest("hex").slice(0, 24);

// ---------------------------------------------------------------------------------------------
// The data: customers (as an import leaves them, or with totals that follow their orders)

export type Customer = AudienceRow & { userId: string };
export type Order = {
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

export const { customers, orders } = generateData(3000);
export const customersOf = (userId: string) => customers.filter((c) => c.userId === userId);

// ---------------------------------------------------------------------------------------------
// The customers' fields and tags, stored as the product stores them (readFieldValue, tagKey), from
// a seed of their own so the customers above stay as they were

export const field = (name: string, type: FieldDefinition["type"], choices: string[] = []): FieldDefinition => ({
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

export type ValueRow = StoredValue & { userId: string; customerId: string; name: string };
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

export const { values, tags, customerTags } = generateValues();
export const valuesOf = new Map<string, Map<string, StoredValue>>();
for (const v of values) {
  if (!valuesOf.has(v.customerId)) valuesOf.set(v.customerId, new Map());
  valuesOf.get(v.customerId)?.set(v.name, v);
}
export const tagKeysOf = new Map<string, Set<string>>();
for (const ct of customerTags) {
  const key = tags.find((t) => t.id === ct.tagId)?.key ?? "";
  if (!tagKeysOf.has(ct.customerId)) tagKeysOf.set(ct.customerId, new Set());
  tagKeysOf.get(ct.customerId)?.add(key);
}
