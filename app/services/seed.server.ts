// Fills a tenant with realistic Indian customers (names, e-mails, phones, cities, spends, dates)
// and orders, for demos and the benchmark (`crm seed`). Names and places come from
// @faker-js/faker's en_IN locale, drawn once into pools and combined with a fast seeded generator,
// so a million customers take seconds. Rows are made here a batch of 100,000 at a time and go in
// a batch per call (~/models/seed/, which also indexes them for search). With orders, every
// customer's totalSpend, visits and lastActive are then computed in SQL from their non-cancelled
// orders. A seed that is a good part of the table builds the segment indexes once at the end.
import { fakerEN_IN } from "@faker-js/faker";
import { type FieldDefinition, readFieldValue } from "~/lib/custom-fields";
import { newId } from "~/lib/id";
import { tags as tagStore } from "~/models/tags/store.server";
import type { SeedCustomerTag, SeedFieldValue } from "~/models/seed/rows";
import { NewFieldSchema } from "~/schemas/custom-field";
import { createField, fieldDefinitions } from "~/services/custom-fields.server";
import { type SeedCustomer, type SeedOrder, seedStore } from "~/models/seed/store.server";
import { recordNewCustomers } from "~/services/customer-events.server";

export type SeedOptions = {
  customers: number;
  orders: number;
  /** Custom fields to define (of SEED_FIELDS, in order) and fill; with any, the built-in fields are filled too. */
  fields?: number;
  /** Tags to spread over the new customers (of SEED_TAGS, in order). */
  tags?: number;
  /** Makes the data repeatable. */
  seed?: number;
  file?: string;
  onProgress?: (stage: "customers" | "orders" | "totals" | "indexes", done: number, total: number) => void;
};

export type SeedResult = { customersCreated: number; ordersCreated: number; durationMs: number };

// Rows a transaction: each commit rewrites the pages of the randomly ordered indexes it touched
// (e-mail, spend, visits, dates), so fewer, larger commits write far less (measured: 10,000 a
// transaction slowed from 5 s to 12 s per 100,000 rows as the table grew).
const BATCH = 100_000;
const DAY = 86_400_000;

/** mulberry32: a small, fast, seeded generator. */
function generator(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (min: number, max: number) => min + Math.floor(next() * (max - min + 1));
  const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)];
  return { next, int, pick };
}

function pools(seed: number) {
  fakerEN_IN.seed(seed);
  const many = <T>(n: number, make: () => T) => Array.from({ length: n }, make);
  const clean = (s: string) =>
    s
      .toLowerCase()
      .normalize("NFKD")
      .replace(/[^a-z]/g, "");
  return {
    firstNames: many(1500, () => fakerEN_IN.person.firstName()),
    lastNames: many(1500, () => fakerEN_IN.person.lastName()),
    streets: many(1500, () => fakerEN_IN.location.streetAddress()),
    places: many(
      600,
      () => `${fakerEN_IN.location.city()}, ${fakerEN_IN.location.state()} ${fakerEN_IN.location.zipCode("######")}`,
    ),
    companies: many(800, () => fakerEN_IN.company.name()),
    products: many(400, () => fakerEN_IN.commerce.productName()),
    descriptions: many(200, () => fakerEN_IN.commerce.productDescription().slice(0, 120)),
    domains: ["gmail.com", "yahoo.co.in", "outlook.com", "hotmail.com", "rediffmail.com", "icloud.com", "proton.me"],
    notes: [
      "Prefers WhatsApp",
      "Call after 6 pm",
      "Festive season buyer",
      "Loyalty member",
      "Asked about EMI options",
      "Corporate account",
      "",
    ],
    clean,
  };
}

/** The custom fields a seed defines, in order: one of each type and a few more, as a shop has them. */
export const SEED_FIELDS = [
  { name: "tier", label: "Loyalty tier", type: "choice", choices: ["Bronze", "Silver", "Gold", "Platinum"] },
  { name: "points", label: "Loyalty points", type: "number" },
  { name: "member_since", label: "Member since", type: "date" },
  { name: "newsletter", label: "Newsletter", type: "boolean" },
  {
    name: "favourite_category",
    label: "Favourite category",
    type: "choice",
    choices: ["Sarees", "Kurtas", "Jewellery", "Footwear", "Home"],
  },
  { name: "preferred_store", label: "Preferred store", type: "text" },
  { name: "shoe_size", label: "Shoe size", type: "number" },
  { name: "anniversary", label: "Anniversary", type: "date" },
  { name: "referral_code", label: "Referral code", type: "text" },
  { name: "credit_limit", label: "Credit limit", type: "number" },
] as const;

/** The tags a seed spreads, the first ones on many customers and the last on few. */
export const SEED_TAGS = [
  "VIP",
  "Diwali 2025",
  "Wholesale",
  "Trade fair Mumbai",
  "Newsletter signup",
  "Instagram",
  "Returning",
  "Wedding season",
  "Corporate gifting",
  "Influencer",
  "Cash on delivery",
  "EMI buyer",
  "Store walk-in",
  "WhatsApp",
  "Referral",
  "Sample request",
  "Complaint resolved",
  "Gift card",
  "Festive sale",
  "Early access",
];

const ORDER_STATUSES = [
  "Completed",
  "Completed",
  "Completed",
  "Completed",
  "Completed",
  "Completed",
  "Pending",
  "Processing",
  "Processing",
  "Cancelled",
] as const;

export async function seedTenant(userId: string, options: SeedOptions): Promise<SeedResult> {
  const started = Date.now();
  const rng = generator(options.seed ?? Date.now());
  const p = pools(options.seed ?? Math.floor(Math.random() * 1e9));
  const connection = await seedStore.openSeedConnection(options.file);
  const now = Date.now();
  let customersCreated = 0;
  let ordersCreated = 0;
  try {
    const { lastRowid: startRow, tenantCustomers: tag } = await seedStore.seedStartingPoint(connection, userId);
    // Field definitions and tags are made before the load: on SQLite the load may hold the
    // database's one write lock in a single transaction.
    const fields = await seedFields(userId, options.fields ?? 0);
    const tagIds = await seedTagIds(userId, options.tags ?? 0);
    const span = 730 * DAY;
    const span0 = now - span - DAY;
    const total = Math.max(1, options.customers);
    const customerIds: string[] = [];
    const customerCreated: number[] = [];
    const withOrders = options.orders > 0;

    const makeCustomers = (from: number, to: number): SeedCustomer[] => {
      const batch: SeedCustomer[] = [];
      for (let i = from; i < to; i++) {
        const first = rng.pick(p.firstNames);
        const last = rng.pick(p.lastNames);
        // Creation dates rise with i (spread over two years, with jitter), so the time-ordered ids
        // append to the primary key instead of landing at random places in it.
        const createdAt = Math.min(now - DAY, span0 + Math.floor((i / total) * span) + rng.int(0, DAY));
        const visits = withOrders ? 0 : Math.floor(-Math.log(1 - rng.next()) * 4);
        const spend = withOrders ? 0 : visits * rng.int(300, 6000) * 100 + rng.int(0, 99);
        const lastActive = withOrders || visits === 0 ? null : Math.min(now, createdAt + rng.int(0, now - createdAt));
        const id = newId(new Date(createdAt));
        const email = `${p.clean(first)}.${p.clean(last)}${tag + i + 1}@${rng.pick(p.domains)}`;
        const phone = `+91 ${rng.int(6, 9)}${String(rng.int(0, 9999)).padStart(4, "0")} ${String(rng.int(0, 99999)).padStart(5, "0")}`;
        const company = rng.next() < 0.4 ? rng.pick(p.companies) : "";
        batch.push({
          id,
          firstName: first,
          lastName: last,
          email,
          phone,
          address: `${rng.pick(p.streets)}, ${rng.pick(p.places)}`,
          company,
          notes: rng.pick(p.notes),
          totalSpendPaise: spend,
          visits,
          lastActive,
          createdAt,
        });
      }
      return batch;
    };

    const makeOrders = (howMany: number): SeedOrder[] => {
      const batch: SeedOrder[] = [];
      for (let n = 0; n < howMany; n++) {
        const c = rng.int(0, customerIds.length - 1);
        const createdAt = Math.min(now, customerCreated[c] + rng.int(0, Math.max(1, now - customerCreated[c])));
        const orderId = newId(new Date(createdAt));
        const count = rng.int(1, 3);
        const items: [number, number][] = [];
        let subtotal = 0;
        for (let position = 0; position < count; position++) {
          const quantity = rng.int(1, 4);
          const price = rng.int(99, 4999) * 100 + (rng.next() < 0.3 ? 0 : 99) - (rng.next() < 0.3 ? 0 : 99);
          subtotal += quantity * price;
          items.push([quantity, price]);
        }
        const tax = Math.round(subtotal * 0.18);
        const status = rng.pick(ORDER_STATUSES);
        batch.push({
          id: orderId,
          customerId: customerIds[c],
          status,
          amountPaise: subtotal,
          taxPaise: tax,
          createdAt,
          items: items.map(([quantity, price]) => ({
            id: newId(new Date(createdAt)),
            name: rng.pick(p.products),
            description: rng.pick(p.descriptions),
            quantity,
            pricePaise: price,
          })),
        });
      }
      return batch;
    };

    const load = async () => {
      for (let from = 0; from < options.customers; from += BATCH) {
        const to = Math.min(options.customers, from + BATCH);
        const inserted = await seedStore.insertSeedCustomers(connection, userId, makeCustomers(from, to));
        customersCreated += inserted.length;
        if (fields.length > 0 || tagIds.length > 0) {
          const extras = makeExtras(inserted, fields, tagIds, rng);
          await seedStore.insertSeedExtras(connection, userId, extras.values, extras.tags);
        }
        if (withOrders) {
          for (const c of inserted) {
            customerIds.push(c.id);
            customerCreated.push(c.createdAt);
          }
        }
        options.onProgress?.("customers", to, options.customers);
      }

      if (withOrders && customerIds.length > 0) {
        for (let done = 0; done < options.orders;) {
          const count = Math.min(BATCH, options.orders - done);
          await seedStore.insertSeedOrders(connection, userId, makeOrders(count));
          done += count;
          ordersCreated = done;
          options.onProgress?.("orders", done, options.orders);
        }
        // The customer totals rule: non-cancelled orders give totalSpend (subtotal + tax), visits
        // and lastActive.
        options.onProgress?.("totals", 0, 1);
        await seedStore.recomputeSeedCustomerTotals(connection, userId, startRow);
        options.onProgress?.("totals", 1, 1);
      }
    };
    const rebuilt = await seedStore.loadSeed(connection, options.customers, load, () =>
      options.onProgress?.("indexes", 0, 1),
    );
    if (rebuilt) options.onProgress?.("indexes", 1, 1);
    await seedStore.afterSeedLoad(connection, customersCreated);
  } finally {
    await seedStore.closeSeedConnection(connection);
  }
  await recordNewCustomers(userId, customersCreated);
  return { customersCreated, ordersCreated, durationMs: Date.now() - started };
}

/** Defines the first `n` of SEED_FIELDS the tenant lacks; returns the fields the seed fills (built-in ones too when n > 0). */
async function seedFields(userId: string, n: number): Promise<FieldDefinition[]> {
  if (n <= 0) return [];
  const have = new Set((await fieldDefinitions(userId)).map((f) => f.name));
  for (const field of SEED_FIELDS.slice(0, n)) {
    if (!have.has(field.name)) await createField(userId, NewFieldSchema.parse(field));
  }
  const wanted = new Set<string>([
    ...SEED_FIELDS.slice(0, n).map((f) => f.name),
    "city",
    "state",
    "country",
    "birthday",
    "time_zone",
  ]);
  return (await fieldDefinitions(userId)).filter((f) => wanted.has(f.name));
}

async function seedTagIds(userId: string, n: number): Promise<string[]> {
  if (n <= 0) return [];
  const names = Array.from({ length: n }, (_, i) => SEED_TAGS[i] ?? `Tag ${i + 1}`);
  const made = await tagStore.ensureTags(userId, names);
  const byKey = new Map(made.map((t) => [t.key, t.id]));
  return names.map((name) => byKey.get(name.toLowerCase()) ?? "").filter(Boolean);
}

type Rng = ReturnType<typeof generator>;

/**
 * A made-up value of a field for one customer, in the field's canonical form; null for none. The
 * city and state are those of the customer's address ("…, City, State PIN"), so the two agree.
 */
function seedValue(field: FieldDefinition, rng: Rng, address: string): string | null {
  const parts = address.split(", ");
  const city = parts.at(-2) ?? "Pune";
  const state = (parts.at(-1) ?? "").replace(/\s+\d+$/, "");
  const date = (fromYear: number, toYear: number) =>
    `${rng.int(fromYear, toYear)}-${String(rng.int(1, 12)).padStart(2, "0")}-${String(rng.int(1, 28)).padStart(2, "0")}`;
  switch (field.name) {
    case "city":
      return city;
    case "state":
      return state || null;
    case "country":
      return "India";
    case "birthday":
      return rng.next() < 0.8 ? date(1955, 2006) : null;
    case "time_zone":
      return "Asia/Kolkata";
  }
  if (rng.next() < 0.3) return null;
  switch (field.type) {
    case "choice":
      return rng.pick(field.choices);
    case "number":
      return String(rng.int(0, 5000));
    case "date":
      return date(2005, 2025);
    case "boolean":
      return rng.next() < 0.5 ? "true" : "false";
    case "text":
      return `${field.name.slice(0, 3).toUpperCase()}-${rng.int(100, 999)}`;
  }
}

/** Field values and tags for customers the seed just inserted: every field often, tags skewed to the first ones. */
function makeExtras(
  customers: readonly { id: string; address: string }[],
  fields: readonly FieldDefinition[],
  tagIds: readonly string[],
  rng: Rng,
): { values: SeedFieldValue[]; tags: SeedCustomerTag[] } {
  const values: SeedFieldValue[] = [];
  const tags: SeedCustomerTag[] = [];
  for (const c of customers) {
    for (const field of fields) {
      const raw = seedValue(field, rng, c.address);
      if (raw === null) continue;
      const read = readFieldValue(field, raw);
      if (read.ok && read.value) values.push({ customerId: c.id, name: field.name, ...read.value });
    }
    if (tagIds.length > 0) {
      const howMany = Math.floor(-Math.log(1 - rng.next()) * 1.2);
      const chosen = new Set<string>();
      for (let i = 0; i < howMany; i++) {
        // Skewed: a low index is far likelier, so the first tags are common and the last rare.
        chosen.add(tagIds[Math.min(tagIds.length - 1, Math.floor(tagIds.length * rng.next() * rng.next()))]);
      }
      for (const tagId of chosen) tags.push({ tagId, customerId: c.id });
    }
  }
  return { values, tags };
}
