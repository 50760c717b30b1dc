// `npx tsx bench/standalone/dialects.ts`: the three hot paths of the data layer, each written three ways, on
// SQLite (a temporary file) and on PostgreSQL, printed as JSON. It informs how one set of models
// serves both dialects (docs/decisions/0021-two-sql-dialects.md).
//
// The hot paths:
//   read    one customer by id and tenant (GET /api/customers/{id}'s main read), one at a time
//           and 50 in flight;
//   claim   a batch of 500 due deliveries with a lease, one UPDATE … RETURNING (PostgreSQL adds
//           FOR UPDATE SKIP LOCKED to the inner SELECT), as claimBatch() in app/models/deliveries/claims/;
//   record  100 outcomes in one transaction (100 guarded UPDATEs and the campaign's counters), as
//           recordOutcomes() in app/models/deliveries/receipts/.
// The ways:
//   prisma  Prisma 7: the ORM call for the read, $queryRawUnsafe/$executeRawUnsafe for the claim
//           (the ORM has no UPDATE … LIMIT … RETURNING, nor SKIP LOCKED) and an interactive
//           transaction of updateMany calls for the outcomes. SQLite through the project's own
//           generated client and @prisma/adapter-better-sqlite3; PostgreSQL through a second
//           client generated from the same schema with provider "postgresql" (into
//           bench/results/) and @prisma/adapter-pg.
//   kysely  Kysely's SqliteDialect over better-sqlite3 and PostgresDialect over a pg Pool.
//   sql     SQL text per dialect: better-sqlite3 prepared statements; pg named statements.
//
// Both databases get the same three tables (the columns and indexes of Customer, Campaign and
// Delivery in prisma/schema.prisma, without foreign keys, triggers or the search index) and the
// same rows. Environment: DIALECTS_CUSTOMERS (default 200000, half per tenant), DIALECTS_ROUNDS
// (default 2: every way runs once a round, in a rotated order), PG_URL (default
// postgres://postgres@127.0.0.1:5432/postgres; the script creates and drops its own database,
// crm_dialects), DIALECTS_PG=0 to skip PostgreSQL, PRISMA_ADAPTER_PG=<path of the package's
// entry> when @prisma/adapter-pg is not installed in node_modules.
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import Database from "better-sqlite3";
import { Kysely, PostgresDialect, SqliteDialect } from "kysely";
import pg from "pg";

const root = path.resolve(import.meta.dirname, "../..");
const CUSTOMERS = Number(process.env.DIALECTS_CUSTOMERS ?? 200_000);
const ROUNDS = Number(process.env.DIALECTS_ROUNDS ?? 2);
const PG_URL = process.env.PG_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
const PG_DB = "crm_dialects";
const CLAIM = 500;
const CLAIMS = 40;
const OUTCOMES = 100;
const RECORDS = 100;
const DELIVERIES = CLAIM * CLAIMS + 2_000;
const READS = 3_000;
const CONCURRENT_READS = 6_000;
const IN_FLIGHT = 50;
const TENANT = "tenant-a";
const OTHER = "tenant-b";
const CAMPAIGN = "c".repeat(24);
const LEASE_MS = 60_000;

const log = (m: string) => console.error(`[dialects] ${m}`);

// ---- Schema (the columns and indexes of prisma/schema.prisma for these three tables) ---------

const sqliteDdl = `
CREATE TABLE "Customer" ("id" TEXT NOT NULL PRIMARY KEY, "userId" TEXT NOT NULL, "firstName" TEXT NOT NULL,
  "lastName" TEXT NOT NULL, "email" TEXT NOT NULL, "phone" TEXT NOT NULL DEFAULT '', "address" TEXT NOT NULL DEFAULT '',
  "company" TEXT NOT NULL DEFAULT '', "notes" TEXT NOT NULL DEFAULT '', "totalSpendPaise" INTEGER NOT NULL DEFAULT 0,
  "visits" INTEGER NOT NULL DEFAULT 0, "lastActive" DATETIME, "createdAt" DATETIME NOT NULL, "updatedAt" DATETIME NOT NULL);
CREATE UNIQUE INDEX "Customer_userId_email_key" ON "Customer"("userId", "email");
CREATE INDEX "Customer_userId_id_idx" ON "Customer"("userId", "id");
CREATE TABLE "Campaign" ("id" TEXT NOT NULL PRIMARY KEY, "userId" TEXT NOT NULL, "segmentId" TEXT, "name" TEXT NOT NULL,
  "subject" TEXT NOT NULL DEFAULT '', "description" TEXT NOT NULL DEFAULT '', "message" TEXT NOT NULL,
  "status" TEXT NOT NULL DEFAULT 'Active', "audienceSize" INTEGER NOT NULL DEFAULT 0, "launchedAt" DATETIME,
  "createdAt" DATETIME NOT NULL, "updatedAt" DATETIME NOT NULL, "segmentName" TEXT NOT NULL DEFAULT '',
  "pendingCount" INTEGER NOT NULL DEFAULT 0, "sentCount" INTEGER NOT NULL DEFAULT 0, "deliveredCount" INTEGER NOT NULL DEFAULT 0,
  "failedCount" INTEGER NOT NULL DEFAULT 0, "bouncedCount" INTEGER NOT NULL DEFAULT 0, "openedCount" INTEGER NOT NULL DEFAULT 0,
  "clickedCount" INTEGER NOT NULL DEFAULT 0, "sendErrors" INTEGER NOT NULL DEFAULT 0, "statusDetail" TEXT NOT NULL DEFAULT '',
  "completedAt" DATETIME, "firstSeq" INTEGER NOT NULL DEFAULT 0, "lastSeq" INTEGER NOT NULL DEFAULT 0,
  "cancelledCount" INTEGER NOT NULL DEFAULT 0);
CREATE TABLE "Delivery" ("seq" INTEGER NOT NULL PRIMARY KEY, "campaignId" TEXT NOT NULL, "userId" TEXT NOT NULL,
  "customerId" TEXT NOT NULL, "name" TEXT NOT NULL DEFAULT '', "email" TEXT NOT NULL DEFAULT '', "phone" TEXT NOT NULL DEFAULT '',
  "status" TEXT NOT NULL DEFAULT 'pending', "attempts" INTEGER NOT NULL DEFAULT 0, "retries" INTEGER NOT NULL DEFAULT 0,
  "nextAttemptAt" BIGINT NOT NULL DEFAULT 0, "details" TEXT NOT NULL DEFAULT '', "updatedAt" BIGINT NOT NULL DEFAULT 0,
  "openedAt" BIGINT, "clickedAt" BIGINT);
CREATE UNIQUE INDEX "Delivery_campaignId_customerId_key" ON "Delivery"("campaignId", "customerId");
CREATE INDEX "Delivery_campaignId_status_nextAttemptAt_idx" ON "Delivery"("campaignId", "status", "nextAttemptAt");
`;

// Prisma's mapping of the same model to PostgreSQL: String → text, Int → integer, BigInt → bigint,
// DateTime → timestamp(3).
const pgDdl = sqliteDdl.replace(/DATETIME/g, "TIMESTAMP(3)");

const HEX = (i: number) => i.toString(16).padStart(24, "0");

// ---- Measuring ----------------------------------------------------------------------------

type Stats = { count: number; p50: number; p99: number; max: number; perSecond: number };

function summarize(samples: number[], wallMs: number): Stats {
  const s = [...samples].sort((a, b) => a - b);
  const at = (p: number) => s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)] ?? 0;
  const r = (n: number) => Math.round(n * 1000) / 1000;
  return {
    count: s.length,
    p50: r(at(50)),
    p99: r(at(99)),
    max: r(s[s.length - 1] ?? 0),
    perSecond: Math.round((s.length / wallMs) * 1000),
  };
}

async function sequential(n: number, run: (i: number) => Promise<unknown>): Promise<Stats> {
  const out: number[] = [];
  const start = performance.now();
  for (let i = 0; i < n; i++) {
    const t = performance.now();
    await run(i);
    out.push(performance.now() - t);
  }
  return summarize(out, performance.now() - start);
}

async function inFlight(n: number, width: number, run: (i: number) => Promise<unknown>): Promise<Stats> {
  const out: number[] = [];
  let next = 0;
  const start = performance.now();
  await Promise.all(
    Array.from({ length: width }, async () => {
      while (next < n) {
        const i = next++;
        const t = performance.now();
        await run(i);
        out.push(performance.now() - t);
      }
    }),
  );
  return summarize(out, performance.now() - start);
}

/** The ids the reads ask for: spread over tenant A (odd numbers), the same on both databases. */
const readIds = Array.from({ length: 4096 }, (_, i) => HEX(1 + 2 * ((i * 7919) % Math.floor(CUSTOMERS / 2))));

// ---- One way of writing the three paths ----------------------------------------------------

type Outcome = { seq: number; attempts: number };
type Way = {
  read(id: string, userId: string): Promise<unknown>;
  claim(now: number): Promise<{ seq: number; attempts: number }[]>;
  record(outcomes: Outcome[], now: number): Promise<void>;
  close(): Promise<void>;
};

type DB = {
  Customer: {
    id: string;
    userId: string;
    firstName: string;
    lastName: string;
    email: string;
    phone: string;
    address: string;
    company: string;
    notes: string;
    totalSpendPaise: number;
    visits: number;
    lastActive: unknown;
    createdAt: unknown;
    updatedAt: unknown;
  };
  Campaign: {
    id: string;
    pendingCount: number;
    sentCount: number;
    updatedAt: unknown;
  };
  Delivery: {
    seq: number;
    campaignId: string;
    userId: string;
    customerId: string;
    name: string;
    email: string;
    phone: string;
    status: string;
    attempts: number;
    retries: number;
    nextAttemptAt: number | string;
    details: string;
    updatedAt: number | string;
  };
};

const CLAIM_COLUMNS = `"seq", "campaignId", "customerId", "name", "email", "phone", "attempts", "retries"`;
const claimSql = (dialect: "sqlite" | "pg", p: (n: number) => string) =>
  `UPDATE "Delivery" SET "nextAttemptAt" = ${p(1)}, "attempts" = "attempts" + 1
   WHERE "seq" IN (
     SELECT "seq" FROM "Delivery"
     WHERE "campaignId" = ${p(2)} AND "status" = 'pending' AND "nextAttemptAt" <= ${p(3)}
     ORDER BY "nextAttemptAt" LIMIT ${CLAIM}${dialect === "pg" ? " FOR UPDATE SKIP LOCKED" : ""}
   )
   RETURNING ${CLAIM_COLUMNS}`;
const FINISH_SQL = (p: (n: number) => string) =>
  `UPDATE "Delivery" SET "status" = 'sent', "details" = '', "updatedAt" = ${p(1)}, "nextAttemptAt" = 0
   WHERE "seq" = ${p(2)} AND "status" = 'pending' AND "attempts" = ${p(3)}`;
const COUNTERS_SQL = (p: (n: number) => string, dialect: "sqlite" | "pg") =>
  `UPDATE "Campaign" SET "pendingCount" = "pendingCount" - ${p(1)}, "sentCount" = "sentCount" + ${p(1)}, "updatedAt" = ${
    dialect === "pg" ? `to_timestamp(${p(2)}::double precision / 1000)` : p(2)
  } WHERE "id" = ${p(3)}`;
const q = () => "?";
const dollar = (n: number) => `$${n}`;

function sqlOnSqlite(file: string): Way {
  const sqlite = new Database(file);
  sqlite.pragma("journal_mode = WAL");
  sqlite.pragma("synchronous = NORMAL");
  const read = sqlite.prepare(`SELECT * FROM "Customer" WHERE "id" = ? AND "userId" = ?`);
  const claim = sqlite.prepare(claimSql("sqlite", (n) => ["", "@lease", "@campaignId", "@now"][n]));
  const finish = sqlite.prepare(FINISH_SQL(q));
  const counters = sqlite.prepare(
    `UPDATE "Campaign" SET "pendingCount" = "pendingCount" - @n, "sentCount" = "sentCount" + @n, "updatedAt" = @now WHERE "id" = @id`,
  );
  const record = sqlite.transaction((outcomes: Outcome[], now: number) => {
    let n = 0;
    for (const o of outcomes) n += finish.run(now, o.seq, o.attempts).changes;
    counters.run({ n, now, id: CAMPAIGN });
  });
  return {
    read: async (id, userId) => read.get(id, userId),
    claim: async (now) => claim.all({ lease: now + LEASE_MS, campaignId: CAMPAIGN, now }) as Outcome[],
    record: async (outcomes, now) => record.immediate(outcomes, now),
    close: async () => {
      sqlite.close();
    },
  };
}

function sqlOnPg(url: string): Way {
  const pool = new pg.Pool({ connectionString: url, max: 10 });
  pool.on("error", () => {});
  const claimText = claimSql("pg", dollar);
  const finishText = FINISH_SQL(dollar);
  const countersText = COUNTERS_SQL(dollar, "pg");
  return {
    read: async (id, userId) =>
      (
        await pool.query({
          name: "read",
          text: `SELECT * FROM "Customer" WHERE "id" = $1 AND "userId" = $2`,
          values: [id, userId],
        })
      ).rows[0],
    claim: async (now) =>
      (await pool.query({ name: "claim", text: claimText, values: [now + LEASE_MS, CAMPAIGN, now] })).rows,
    record: async (outcomes, now) => {
      const client = await pool.connect();
      try {
        await client.query("BEGIN");
        let n = 0;
        // One round trip per row, as a model written statement by statement would (the pg driver
        // sends them one after another on the connection).
        for (const o of outcomes)
          n +=
            (await client.query({ name: "finish", text: finishText, values: [now, o.seq, o.attempts] })).rowCount ?? 0;
        await client.query({ name: "counters", text: countersText, values: [n, now, CAMPAIGN] });
        await client.query("COMMIT");
      } catch (error) {
        await client.query("ROLLBACK");
        throw error;
      } finally {
        client.release();
      }
    },
    close: () => pool.end(),
  };
}

function kyselyWay(db: Kysely<DB>, dialect: "sqlite" | "pg", close: () => Promise<void>): Way {
  return {
    read: (id, userId) =>
      db.selectFrom("Customer").selectAll().where("id", "=", id).where("userId", "=", userId).executeTakeFirst(),
    claim: (now) => {
      let due = db
        .selectFrom("Delivery")
        .select("seq")
        .where("campaignId", "=", CAMPAIGN)
        .where("status", "=", "pending")
        .where("nextAttemptAt", "<=", now)
        .orderBy("nextAttemptAt")
        .limit(CLAIM);
      if (dialect === "pg") due = due.forUpdate().skipLocked();
      return db
        .updateTable("Delivery")
        .set({ nextAttemptAt: now + LEASE_MS, attempts: (eb) => eb("attempts", "+", 1) })
        .where("seq", "in", due)
        .returning(["seq", "campaignId", "customerId", "name", "email", "phone", "attempts", "retries"])
        .execute();
    },
    record: (outcomes, now) =>
      db.transaction().execute(async (trx) => {
        let n = 0;
        for (const o of outcomes) {
          const r = await trx
            .updateTable("Delivery")
            .set({ status: "sent", details: "", updatedAt: now, nextAttemptAt: 0 })
            .where("seq", "=", o.seq)
            .where("status", "=", "pending")
            .where("attempts", "=", o.attempts)
            .executeTakeFirst();
          n += Number(r.numUpdatedRows);
        }
        await trx
          .updateTable("Campaign")
          .set({
            pendingCount: (eb) => eb("pendingCount", "-", n),
            sentCount: (eb) => eb("sentCount", "+", n),
            updatedAt: dialect === "pg" ? new Date(now) : now,
          })
          .where("id", "=", CAMPAIGN)
          .execute();
      }),
    close,
  };
}

function kyselyOnSqlite(file: string): Way {
  const sqlite = new Database(file);
  sqlite.pragma("journal_mode = WAL");
  sqlite.pragma("synchronous = NORMAL");
  const db = new Kysely<DB>({ dialect: new SqliteDialect({ database: sqlite }) });
  return kyselyWay(db, "sqlite", () => db.destroy());
}

function kyselyOnPg(url: string): Way {
  const db = new Kysely<DB>({
    dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: url, max: 10 }) }),
  });
  return kyselyWay(db, "pg", () => db.destroy());
}

// Prisma: the structural slice of a generated client the bench calls (both clients have it).
type PrismaLike = {
  customer: { findFirst(args: { where: { id: string; userId: string } }): Promise<unknown> };
  $queryRawUnsafe<T>(sql: string, ...values: unknown[]): Promise<T>;
  $transaction<T>(fn: (tx: PrismaTx) => Promise<T>, options?: { maxWait?: number; timeout?: number }): Promise<T>;
  $disconnect(): Promise<void>;
};
type PrismaTx = {
  delivery: {
    updateMany(args: {
      where: { seq: number; status: string; attempts: number };
      data: { status: string; details: string; updatedAt: bigint; nextAttemptAt: bigint };
    }): Promise<{ count: number }>;
  };
  campaign: {
    update(args: {
      where: { id: string };
      data: { pendingCount: { decrement: number }; sentCount: { increment: number }; updatedAt: Date };
    }): Promise<unknown>;
  };
};

function prismaWay(client: PrismaLike, dialect: "sqlite" | "pg"): Way {
  const claimText = claimSql(dialect, dialect === "pg" ? dollar : q);
  return {
    read: (id, userId) => client.customer.findFirst({ where: { id, userId } }),
    claim: (now) =>
      client.$queryRawUnsafe<Outcome[]>(
        claimText,
        ...(dialect === "pg" ? [BigInt(now + LEASE_MS), CAMPAIGN, BigInt(now)] : [now + LEASE_MS, CAMPAIGN, now]),
      ),
    record: (outcomes, now) =>
      client.$transaction(
        async (tx) => {
          let n = 0;
          for (const o of outcomes) {
            const r = await tx.delivery.updateMany({
              where: { seq: o.seq, status: "pending", attempts: o.attempts },
              data: { status: "sent", details: "", updatedAt: BigInt(now), nextAttemptAt: 0n },
            });
            n += r.count;
          }
          await tx.campaign.update({
            where: { id: CAMPAIGN },
            data: { pendingCount: { decrement: n }, sentCount: { increment: n }, updatedAt: new Date(now) },
          });
        },
        { maxWait: 10_000, timeout: 10_000 },
      ),
    close: () => client.$disconnect(),
  };
}

async function prismaOnSqlite(file: string): Promise<Way> {
  const { PrismaClient } = await import("../../app/generated/prisma/client.ts");
  const { PrismaBetterSqlite3 } = await import("@prisma/adapter-better-sqlite3");
  const client = new PrismaClient({
    adapter: new PrismaBetterSqlite3({ url: file }, { timestampFormat: "unixepoch-ms" }),
  });
  await client.$queryRawUnsafe("PRAGMA journal_mode = WAL");
  await client.$executeRawUnsafe("PRAGMA synchronous = NORMAL");
  return prismaWay(client as unknown as PrismaLike, "sqlite");
}

/** A client generated from prisma/schema.prisma with provider "postgresql", under bench/results/. */
async function prismaOnPg(url: string): Promise<Way | { skipped: string }> {
  let adapterModule: { PrismaPg: new (config: { connectionString: string; max?: number }) => unknown };
  try {
    adapterModule = process.env.PRISMA_ADAPTER_PG
      ? await import(pathToFileURL(process.env.PRISMA_ADAPTER_PG).href)
      : await import(/* not a dependency of the project */ "@prisma/adapter-pg" as string);
  } catch {
    return { skipped: "@prisma/adapter-pg is not installed (or PRISMA_ADAPTER_PG does not point at it)" };
  }
  const dir = path.join(root, "bench/results/prisma-pg-schema");
  mkdirSync(dir, { recursive: true });
  const schema = readFileSync(path.join(root, "prisma/schema.prisma"), "utf8")
    .replace(/provider\s*=\s*"sqlite"/, 'provider = "postgresql"')
    .replace(/output\s*=\s*"[^"]*"/, 'output = "../prisma-pg"');
  writeFileSync(path.join(dir, "schema.prisma"), schema);
  log("generating the PostgreSQL Prisma client");
  execFileSync("npx", ["--no-install", "prisma", "generate", "--schema", path.join(dir, "schema.prisma")], {
    cwd: root,
    stdio: ["ignore", "ignore", "inherit"],
    env: {
      ...process.env,
      PRISMA_HIDE_UPDATE_MESSAGE: "1",
      CHECKPOINT_DISABLE: "1",
      // generate needs no schema engine: any file satisfies the CLI's check (scripts/prisma-generate.mjs).
      PRISMA_SCHEMA_ENGINE_BINARY: process.env.PRISMA_SCHEMA_ENGINE_BINARY ?? path.join(root, "package.json"),
    },
  });
  const generated = pathToFileURL(path.join(root, "bench/results/prisma-pg/client.ts")).href;
  const { PrismaClient } = (await import(generated)) as {
    PrismaClient: new (options: { adapter: unknown }) => PrismaLike;
  };
  const client = new PrismaClient({ adapter: new adapterModule.PrismaPg({ connectionString: url, max: 10 }) });
  return prismaWay(client, "pg");
}

// ---- Databases ------------------------------------------------------------------------------

function seedSqlite(file: string) {
  const sqlite = new Database(file);
  sqlite.pragma("journal_mode = WAL");
  sqlite.exec(sqliteDdl);
  const now = Date.now();
  const insert = sqlite.prepare(
    `INSERT INTO "Customer" ("id", "userId", "firstName", "lastName", "email", "phone", "address", "totalSpendPaise", "visits", "lastActive", "createdAt", "updatedAt")
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  sqlite.transaction(() => {
    for (let i = 1; i <= CUSTOMERS; i++) insert.run(...customerRow(i, now));
  })();
  sqlite
    .prepare(
      `INSERT INTO "Campaign" ("id", "userId", "name", "message", "createdAt", "updatedAt", "pendingCount") VALUES (?, ?, 'Bench', 'Hello', ?, ?, ?)`,
    )
    .run(CAMPAIGN, TENANT, now, now, DELIVERIES);
  const delivery = sqlite.prepare(
    `INSERT INTO "Delivery" ("seq", "campaignId", "userId", "customerId", "name", "email") VALUES (?, ?, ?, ?, ?, ?)`,
  );
  sqlite.transaction(() => {
    for (let i = 1; i <= DELIVERIES; i++)
      delivery.run(i, CAMPAIGN, TENANT, HEX(2 * i - 1), `Customer ${i}`, `c${i}@example.in`);
  })();
  sqlite.exec("ANALYZE");
  sqlite.close();
}

function customerRow(i: number, now: number): unknown[] {
  return [
    HEX(i),
    i % 2 ? TENANT : OTHER,
    `First${i % 997}`,
    `Last${i % 991}`,
    `c${i}@example.in`,
    `+91 9${String(i).padStart(9, "0")}`,
    `${i % 400}, MG Road, Pune 4110${i % 100}`,
    (i * 37) % 250_000,
    i % 25,
    now - (i % 365) * 86_400_000,
    now,
    now,
  ];
}

async function seedPg(url: string) {
  const client = new pg.Client({ connectionString: url });
  client.on("error", () => {});
  await client.connect();
  await client.query(pgDdl);
  const now = Date.now();
  // Same rows as SQLite, written by PostgreSQL itself.
  await client.query(
    `INSERT INTO "Customer" ("id", "userId", "firstName", "lastName", "email", "phone", "address", "totalSpendPaise", "visits", "lastActive", "createdAt", "updatedAt")
     SELECT lpad(to_hex(i), 24, '0'), CASE WHEN i % 2 = 1 THEN $2 ELSE $3 END, 'First' || (i % 997), 'Last' || (i % 991),
       'c' || i || '@example.in', '+91 9' || lpad(i::text, 9, '0'), (i % 400) || ', MG Road, Pune 4110' || (i % 100),
       (i * 37) % 250000, i % 25, to_timestamp(($4::bigint - (i % 365)::bigint * 86400000)::double precision / 1000),
       to_timestamp($4::double precision / 1000), to_timestamp($4::double precision / 1000)
     FROM generate_series(1, $1::int) AS i`,
    [CUSTOMERS, TENANT, OTHER, now],
  );
  await client.query(
    `INSERT INTO "Campaign" ("id", "userId", "name", "message", "createdAt", "updatedAt", "pendingCount") VALUES ($1, $2, 'Bench', 'Hello', now(), now(), $3)`,
    [CAMPAIGN, TENANT, DELIVERIES],
  );
  await client.query(
    `INSERT INTO "Delivery" ("seq", "campaignId", "userId", "customerId", "name", "email")
     SELECT i, $1, $2, lpad(to_hex(2 * i - 1), 24, '0'), 'Customer ' || i, 'c' || i || '@example.in' FROM generate_series(1, $3::int) AS i`,
    [CAMPAIGN, TENANT, DELIVERIES],
  );
  await client.query("VACUUM ANALYZE");
  await client.end();
}

/** Every delivery back in the queue and the counters back to the start, between two ways. */
async function resetSqlite(file: string) {
  const sqlite = new Database(file);
  sqlite.exec(
    `UPDATE "Delivery" SET "status" = 'pending', "attempts" = 0, "nextAttemptAt" = 0, "updatedAt" = 0, "details" = ''`,
  );
  sqlite.prepare(`UPDATE "Campaign" SET "pendingCount" = ?, "sentCount" = 0`).run(DELIVERIES);
  sqlite.pragma("wal_checkpoint(TRUNCATE)");
  sqlite.close();
}

async function resetPg(url: string) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  await client.query(
    `UPDATE "Delivery" SET "status" = 'pending', "attempts" = 0, "nextAttemptAt" = 0, "updatedAt" = 0, "details" = ''`,
  );
  await client.query(`UPDATE "Campaign" SET "pendingCount" = $1, "sentCount" = 0`, [DELIVERIES]);
  await client.query(`VACUUM ANALYZE "Delivery"`);
  await client.query(`VACUUM ANALYZE "Campaign"`);
  await client.query("CHECKPOINT");
  await client.end();
}

// ---- One way, measured ----------------------------------------------------------------------

async function measure(way: Way) {
  // Warm up: statement caches, the query compilers, the pools' connections.
  for (let i = 0; i < 300; i++) await way.read(readIds[i % readIds.length], TENANT);
  const found = await way.read(readIds[0], TENANT);
  if (!found) throw new Error("the read found nothing");
  if (await way.read(readIds[0], OTHER)) throw new Error("the read crossed tenants");
  const read = await sequential(READS, (i) => way.read(readIds[i % readIds.length], TENANT));
  const read50 = await inFlight(CONCURRENT_READS, IN_FLIGHT, (i) =>
    way.read(readIds[(i * 31) % readIds.length], TENANT),
  );

  const claimed: Outcome[] = [];
  const now = Date.now();
  const claim = await sequential(CLAIMS, async () => {
    const rows = await way.claim(now);
    if (rows.length !== CLAIM) throw new Error(`a claim took ${rows.length} rows, not ${CLAIM}`);
    for (const r of rows) claimed.push({ seq: Number(r.seq), attempts: Number(r.attempts) });
  });
  claimed.sort((a, b) => a.seq - b.seq);
  const record = await sequential(RECORDS, (i) => way.record(claimed.slice(i * OUTCOMES, (i + 1) * OUTCOMES), now + 1));
  return {
    readOne: read,
    read50InFlight: read50,
    claim500: claim,
    record100: record,
  };
}

type Result = Awaited<ReturnType<typeof measure>>;

async function main() {
  const tmp = mkdtempSync(path.join(os.tmpdir(), "crm-dialects-"));
  const file = path.join(tmp, "dialects.db");
  const usePg = process.env.DIALECTS_PG !== "0";
  const pgUrl = (() => {
    const u = new URL(PG_URL);
    u.pathname = `/${PG_DB}`;
    return u.toString();
  })();
  const results: Record<string, Record<string, Result[] | { skipped: string }>> = { sqlite: {}, postgresql: {} };
  let admin: pg.Client | null = null;
  try {
    log(`seeding SQLite with ${CUSTOMERS} customers and ${DELIVERIES} deliveries (${file})`);
    seedSqlite(file);
    if (usePg) {
      admin = new pg.Client({ connectionString: PG_URL });
      admin.on("error", () => {});
      await admin.connect();
      await admin.query(`DROP DATABASE IF EXISTS ${PG_DB}`);
      await admin.query(`CREATE DATABASE ${PG_DB}`);
      log(`seeding PostgreSQL (${PG_DB}) with the same rows`);
      await seedPg(pgUrl);
    }
    const sqliteWays: Record<string, () => Promise<Way>> = {
      prisma: () => prismaOnSqlite(file),
      kysely: async () => kyselyOnSqlite(file),
      sql: async () => sqlOnSqlite(file),
    };
    let pgPrisma: Way | { skipped: string } | null = null;
    const pgWays: Record<string, () => Promise<Way | { skipped: string }>> = {
      prisma: async () => (pgPrisma ??= await prismaOnPg(pgUrl)),
      kysely: async () => kyselyOnPg(pgUrl),
      sql: async () => sqlOnPg(pgUrl),
    };
    const names = ["prisma", "kysely", "sql"];
    for (let round = 0; round < ROUNDS; round++) {
      const order = names.map((_, i) => names[(i + round) % names.length]);
      for (const name of order) {
        log(`round ${round + 1}: SQLite, ${name}`);
        await resetSqlite(file);
        const way = await sqliteWays[name]();
        ((results.sqlite[name] ??= []) as Result[]).push(await measure(way));
        await way.close();
      }
      if (!usePg) continue;
      for (const name of order) {
        log(`round ${round + 1}: PostgreSQL, ${name}`);
        await resetPg(pgUrl);
        const way = await pgWays[name]();
        if ("skipped" in way) {
          results.postgresql[name] = way;
          continue;
        }
        ((results.postgresql[name] ??= []) as Result[]).push(await measure(way));
        // The generated PostgreSQL client is made once; its connections stay open across rounds.
        if (name !== "prisma") await way.close();
      }
    }
    const prismaPg = pgPrisma as Way | { skipped: string } | null;
    if (prismaPg && !("skipped" in prismaPg)) await prismaPg.close();
  } catch (error) {
    // Said before the database is dropped under any connection still open.
    console.error(error);
    throw error;
  } finally {
    if (admin) {
      await admin.query(`DROP DATABASE IF EXISTS ${PG_DB} WITH (FORCE)`);
      await admin.end();
    }
    rmSync(tmp, { recursive: true, force: true });
  }
  const versions = Object.fromEntries(
    ["@prisma/client", "@prisma/adapter-better-sqlite3", "kysely", "better-sqlite3", "pg"].map((name) => {
      try {
        const pkg = JSON.parse(readFileSync(path.join(root, "node_modules", name, "package.json"), "utf8")) as {
          version: string;
        };
        return [name, pkg.version];
      } catch {
        return [name, null];
      }
    }),
  );
  console.log(
    JSON.stringify(
      {
        startedAt: new Date().toISOString(),
        machine: {
          cpus: os.cpus().length,
          cpuModel: os.cpus()[0]?.model,
          node: process.version,
          loadAverage: os.loadavg(),
        },
        versions,
        sizes: {
          customers: CUSTOMERS,
          deliveries: DELIVERIES,
          claim: CLAIM,
          claims: CLAIMS,
          outcomesPerTransaction: OUTCOMES,
          transactions: RECORDS,
          reads: READS,
          concurrentReads: CONCURRENT_READS,
          inFlight: IN_FLIGHT,
        },
        unit: "ms per operation (p50, p99, max); perSecond is operations a second",
        results,
      },
      null,
      2,
    ),
  );
}

await main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
