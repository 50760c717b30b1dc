// The two engines cannot drift (docs/decisions/0029-postgresql-schema-and-migrations.md): each
// engine's migrations, applied to a fresh real database, leave exactly what prisma/schema.prisma
// describes (Prisma's schema engine finds nothing to change), and the two databases have the same
// tables, columns (type class, nullability), primary keys, unique constraints, foreign keys (with
// their ON DELETE) and indexes, under the type mapping below. A column added to schema.prisma with
// only a SQLite migration fails here.
import Database from "better-sqlite3";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { migrateDatabase, migrationNames } from "../../app/db/migrate.server";
import { POSTGRES_BASELINE, POSTGRES_MIGRATIONS_DIR } from "../../app/db/migrate-postgres.server";
import { diffDatabaseToSchema, isEmptyDiff, openEngine } from "../../prisma/engine";
import { createMigratedPostgresDatabase, type PostgresDatabase } from "../helpers/postgres";

/** SQLite's declared type → PostgreSQL's, as Prisma writes them for schema.prisma's scalars. */
const TYPE_CLASS: Record<string, string> = {
  TEXT: "text",
  text: "text",
  INTEGER: "int",
  integer: "int",
  BIGINT: "bigint",
  bigint: "bigint",
  BOOLEAN: "bool",
  boolean: "bool",
  DATETIME: "datetime",
  "timestamp with time zone": "datetime",
  // Float in schema.prisma (SendRate.tokens).
  REAL: "float",
  "double precision": "float",
  // Bytes in schema.prisma (Image.bytes).
  BLOB: "bytes",
  bytea: "bytes",
};

// Money columns: `Int` in schema.prisma, INTEGER (64-bit) on SQLite, bigint on PostgreSQL, whose
// integer is 32-bit (migration money_columns_bigint, docs/decisions/0031-copy-sqlite-to-postgresql.md).
const POSTGRES_BIGINT_MONEY = new Set([
  "Customer.totalSpendPaise",
  "Order.amountPaise",
  "Order.taxPaise",
  "OrderItem.pricePaise",
  "CustomerActivity.orderSpendPaise",
  "CustomerActivity.averageOrderPaise",
  "FlowEntry.revenuePaise",
]);

// Made by hand on one engine only: SQLite's FTS5 search table (PostgreSQL searches with an index on
// "Customer") and the runners' own table.
const SQLITE_ONLY_TABLES = /^(customer_search.*|_prisma_migrations|sqlite_.*)$/;
const POSTGRES_ONLY_INDEXES = new Set(["Customer_search_idx"]);
// Hand-made indexes over expressions (or partial on PostgreSQL): both engines have them, by name.
const HAND_MADE_INDEXES = [
  "Customer_userId_name_idx",
  "Delivery_attribution_clicked_idx",
  "Delivery_attribution_opened_idx",
  "Order_attribution_idx",
  "OrderItem_name_key_idx",
];

type Layout = {
  tables: Record<
    string,
    {
      columns: Record<string, { type: string; notNull: boolean }>;
      primaryKey: string[];
      foreignKeys: string[]; // "cols -> Table(cols) ON DELETE action"
    }
  >;
  indexes: Record<string, string>; // name → "[UNIQUE ]Table(cols)" for indexes on plain columns
  expressionIndexes: string[]; // names
};

function typeClass(declared: string): string {
  const cls = TYPE_CLASS[declared];
  if (!cls) throw new Error(`No type mapping for ${declared}: add it to TYPE_CLASS and to decision 0029`);
  return cls;
}

function sqliteLayout(file: string): Layout {
  const db = new Database(file, { readonly: true });
  try {
    const layout: Layout = { tables: {}, indexes: {}, expressionIndexes: [] };
    const tables = db.prepare(`SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name`).all() as {
      name: string;
    }[];
    for (const { name } of tables.filter((t) => !SQLITE_ONLY_TABLES.test(t.name))) {
      const cols = db.prepare(`SELECT * FROM pragma_table_info(?)`).all(name) as {
        name: string;
        type: string;
        notnull: number;
        pk: number;
      }[];
      const fks = db.prepare(`SELECT * FROM pragma_foreign_key_list(?) ORDER BY id, seq`).all(name) as {
        id: number;
        table: string;
        from: string;
        to: string;
        on_delete: string;
      }[];
      const byId = new Map<number, typeof fks>();
      for (const fk of fks) byId.set(fk.id, [...(byId.get(fk.id) ?? []), fk]);
      layout.tables[name] = {
        columns: Object.fromEntries(
          cols.map((c) => [
            c.name,
            {
              // What PostgreSQL must have: bigint for the money columns, which are INTEGER here.
              type:
                POSTGRES_BIGINT_MONEY.has(`${name}.${c.name}`) && c.type === "INTEGER" ? "bigint" : typeClass(c.type),
              notNull: c.notnull === 1 || c.pk > 0,
            },
          ]),
        ),
        primaryKey: cols
          .filter((c) => c.pk > 0)
          .sort((a, b) => a.pk - b.pk)
          .map((c) => c.name),
        foreignKeys: [...byId.values()]
          .map(
            (parts) =>
              `${parts.map((p) => p.from).join(",")} -> ${parts[0].table}(${parts.map((p) => p.to).join(",")}) ON DELETE ${parts[0].on_delete}`,
          )
          .sort(),
      };
      const indexes = db.prepare(`SELECT * FROM pragma_index_list(?)`).all(name) as {
        name: string;
        unique: number;
        origin: string;
      }[];
      for (const index of indexes.filter((i) => i.origin === "c")) {
        const keys = db.prepare(`SELECT * FROM pragma_index_xinfo(?) WHERE key = 1`).all(index.name) as {
          cid: number;
          name: string | null;
        }[];
        if (keys.some((k) => k.cid === -2)) layout.expressionIndexes.push(index.name);
        else
          layout.indexes[index.name] = `${index.unique ? "UNIQUE " : ""}${name}(${keys.map((k) => k.name).join(",")})`;
      }
    }
    layout.expressionIndexes.sort();
    return layout;
  } finally {
    db.close();
  }
}

const PG_ON_DELETE: Record<string, string> = {
  a: "NO ACTION",
  r: "RESTRICT",
  c: "CASCADE",
  n: "SET NULL",
  d: "SET DEFAULT",
};

async function postgresLayout(url: string): Promise<Layout> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const layout: Layout = { tables: {}, indexes: {}, expressionIndexes: [] };
    const cols = await client.query<{
      table_name: string;
      column_name: string;
      data_type: string;
      is_nullable: string;
    }>(
      `SELECT table_name, column_name, data_type, is_nullable FROM information_schema.columns
        WHERE table_schema = 'public' AND table_name <> '_prisma_migrations' ORDER BY table_name, ordinal_position`,
    );
    for (const c of cols.rows) {
      layout.tables[c.table_name] ??= { columns: {}, primaryKey: [], foreignKeys: [] };
      layout.tables[c.table_name].columns[c.column_name] = {
        type: typeClass(c.data_type),
        notNull: c.is_nullable === "NO",
      };
    }
    const indexes = await client.query<{
      table: string;
      index: string;
      primary: boolean;
      unique: boolean;
      columns: (string | null)[];
      partial: boolean;
    }>(
      `SELECT t.relname AS table, i.relname AS index, x.indisprimary AS primary, x.indisunique AS unique,
              ARRAY(SELECT a.attname::text FROM unnest(x.indkey::int2[]) WITH ORDINALITY AS k(attnum, n)
                    LEFT JOIN pg_attribute a ON a.attrelid = t.oid AND a.attnum = k.attnum AND k.attnum > 0
                    WHERE k.n <= x.indnkeyatts ORDER BY k.n) AS columns,
              x.indpred IS NOT NULL AS partial
         FROM pg_index x JOIN pg_class i ON i.oid = x.indexrelid JOIN pg_class t ON t.oid = x.indrelid
         JOIN pg_namespace s ON s.oid = t.relnamespace
        WHERE s.nspname = 'public' AND t.relname <> '_prisma_migrations'`,
    );
    for (const ix of indexes.rows) {
      if (ix.primary) {
        layout.tables[ix.table].primaryKey = ix.columns.map(String);
      } else if (POSTGRES_ONLY_INDEXES.has(ix.index)) {
        continue;
      } else if (ix.columns.includes(null) || ix.partial || HAND_MADE_INDEXES.includes(ix.index)) {
        layout.expressionIndexes.push(ix.index);
      } else {
        layout.indexes[ix.index] = `${ix.unique ? "UNIQUE " : ""}${ix.table}(${ix.columns.join(",")})`;
      }
    }
    layout.expressionIndexes.sort();
    const fks = await client.query<{ table: string; from: string[]; to_table: string; to: string[]; del: string }>(
      `SELECT t.relname AS table, f.relname AS to_table, c.confdeltype::text AS del,
              ARRAY(SELECT a.attname::text FROM unnest(c.conkey) WITH ORDINALITY k(n, o) JOIN pg_attribute a ON a.attrelid = c.conrelid AND a.attnum = k.n ORDER BY k.o) AS from,
              ARRAY(SELECT a.attname::text FROM unnest(c.confkey) WITH ORDINALITY k(n, o) JOIN pg_attribute a ON a.attrelid = c.confrelid AND a.attnum = k.n ORDER BY k.o) AS to
         FROM pg_constraint c JOIN pg_class t ON t.oid = c.conrelid JOIN pg_class f ON f.oid = c.confrelid
        WHERE c.contype = 'f'`,
    );
    for (const fk of fks.rows) {
      layout.tables[fk.table].foreignKeys.push(
        `${fk.from.join(",")} -> ${fk.to_table}(${fk.to.join(",")}) ON DELETE ${PG_ON_DELETE[fk.del]}`,
      );
    }
    for (const table of Object.values(layout.tables)) table.foreignKeys.sort();
    return layout;
  } finally {
    await client.end();
  }
}

const scratch = mkdtempSync(path.join(tmpdir(), "crm-schema-drift-"));
const sqliteFile = path.join(scratch, "drift.db");
let postgres: PostgresDatabase;

beforeAll(async () => {
  migrateDatabase(sqliteFile);
  postgres = await createMigratedPostgresDatabase("crm_drift");
}, 120_000);
afterAll(async () => {
  await postgres?.drop();
  rmSync(scratch, { recursive: true, force: true });
});

describe("the SQLite and PostgreSQL schemas cannot drift", () => {
  it("every SQLite migration after the PostgreSQL baseline has a PostgreSQL twin of the same name", () => {
    const sqlite = migrationNames();
    const postgresNames = migrationNames(POSTGRES_MIGRATIONS_DIR);
    expect(postgresNames[0]).toBe(POSTGRES_BASELINE.name);
    expect(sqlite, "the baseline covers SQLite migrations that exist").toContain(POSTGRES_BASELINE.coversThrough);
    const after = sqlite.filter((n) => n > POSTGRES_BASELINE.coversThrough);
    const missing = after.filter((n) => !existsSync(path.join(POSTGRES_MIGRATIONS_DIR, n, "migration.sql")));
    expect(
      missing,
      `SQLite migrations without a PostgreSQL twin in prisma/migrations-postgres (write both with npm run db:migration -- <name>)`,
    ).toEqual([]);
  });

  it("PostgreSQL: the migrations leave nothing for schema.prisma to change", async () => {
    const sql = await diffDatabaseToSchema(await openEngine(postgres.url));
    expect(
      isEmptyDiff(sql),
      `schema.prisma and prisma/migrations-postgres differ; run npm run db:migration -- <name>:\n${sql}`,
    ).toBe(true);
  }, 120_000);

  it("SQLite: the migrations leave nothing for schema.prisma to change", async () => {
    const sql = await diffDatabaseToSchema(await openEngine(sqliteFile));
    expect(isEmptyDiff(sql), `schema.prisma and prisma/migrations differ:\n${sql}`).toBe(true);
  }, 120_000);

  it("both databases have the same tables, columns, keys, foreign keys and indexes", async () => {
    const fromSqlite = sqliteLayout(sqliteFile);
    const fromPostgres = await postgresLayout(postgres.url);
    expect(Object.keys(fromSqlite.tables).length).toBeGreaterThan(10);
    expect(fromPostgres.tables).toEqual(fromSqlite.tables);
    expect(fromPostgres.indexes).toEqual(fromSqlite.indexes);
    expect(fromSqlite.expressionIndexes).toEqual([...HAND_MADE_INDEXES].sort());
    expect(fromPostgres.expressionIndexes).toEqual([...HAND_MADE_INDEXES].sort());
  });

  it("PostgreSQL has the search index and the tally trigger that mirror SQLite's", async () => {
    const client = new pg.Client({ connectionString: postgres.url });
    await client.connect();
    try {
      const ext = await client.query(`SELECT extname FROM pg_extension WHERE extname IN ('pg_trgm', 'btree_gin')`);
      expect(ext.rows.map((r: { extname: string }) => r.extname).sort()).toEqual(["btree_gin", "pg_trgm"]);
      await client.query(
        `INSERT INTO "User" (id, email, "displayName", "updatedAt") VALUES ('u1', 'a@x.in', 'A', now())`,
      );
      await client.query(
        `INSERT INTO "Customer" (id, "userId", "firstName", "lastName", email, "updatedAt")
         VALUES ('c1', 'u1', 'Asha', 'Iyer', 'asha@x.in', now()), ('c2', 'u1', 'Ravi', 'Nair', 'ravi@x.in', now())`,
      );
      await client.query(`INSERT INTO "CustomerTally" ("userId", customers) VALUES ('u1', 2)`);
      await client.query(`DELETE FROM "Customer" WHERE id = 'c2'`);
      const tally = await client.query(`SELECT customers FROM "CustomerTally" WHERE "userId" = 'u1'`);
      expect(tally.rows[0].customers).toBe(1);
      const index = await client.query(`SELECT indexdef FROM pg_indexes WHERE indexname = 'Customer_search_idx'`);
      expect(index.rows[0].indexdef).toMatch(/USING gin \("userId", lower\(.*gin_trgm_ops, email gin_trgm_ops\)/);
      const found = await client.query(
        `SELECT id FROM "Customer" WHERE "userId" = $1
           AND (lower("firstName" || ' ' || "lastName") LIKE $2 OR "email" LIKE $2)`,
        ["u1", "%a iy%"],
      );
      expect(found.rows).toEqual([{ id: "c1" }]);
    } finally {
      await client.end();
    }
  });
});
