import cliProgress from "cli-progress";
import type { Command } from "commander";
import { z } from "zod";
import { copySqliteToPostgres, type CopyResult } from "../../app/db/copy-to-postgres.server.ts";
import { migrateDatabase } from "../../app/db/migrate.server.ts";
import { migratePostgres } from "../../app/db/migrate-postgres.server.ts";
import { getEnv } from "../../app/env.server.ts";
import { parseCliInput } from "../validate.ts";

const postgresUrl = (flag: string) =>
  z
    .string()
    .refine((v) => /^postgres(ql)?:\/\//.test(v), {
      message: `${flag} must be a PostgreSQL URL like postgres://user:password@host:5432/crm`,
    })
    .refine((v) => URL.canParse(v) && new URL(v).hostname !== "" && new URL(v).pathname.length > 1, {
      message: `${flag} must name a host and a database, like postgres://user:password@host:5432/crm`,
    });
const PostgresUrl = postgresUrl("--url");

/** The URL without its password, for messages. */
function shown(url: string): string {
  const u = new URL(url);
  if (u.password) u.password = "***";
  return u.toString();
}

/** The SQLite file to copy: --from, or the one DATABASE_URL (or DATA_DIR) names for the server. */
function sourceFile(from: string | undefined): string {
  if (from !== undefined) {
    if (from.trim() === "") throw new Error("--from must name the SQLite file, like ./data/crm.db");
    return from.replace(/^file:/, "");
  }
  const { databaseUrl } = getEnv();
  if (!databaseUrl.startsWith("file:"))
    throw new Error(
      "DATABASE_URL names PostgreSQL already: name the SQLite file to copy with --from <file> (by default DATA_DIR/crm.db).",
    );
  return databaseUrl.replace(/^file:/, "");
}

const count = (value: number | string) => BigInt(value).toLocaleString("en-IN");

/** What was checked, one line a table: its rows and the sums of its number columns on both sides. */
function printChecks(result: CopyResult) {
  const width = Math.max(...result.tables.map((t) => t.table.length));
  const rowsWidth = Math.max(...result.tables.map((t) => count(t.rows).length));
  console.log("Checked on both sides (SQLite = PostgreSQL):");
  for (const { table } of result.tables) {
    const figures = result.figures.filter((f) => f.table === table);
    const rows = figures.find((f) => f.figure === "rows")!;
    const sums = figures
      .filter((f) => f.figure.startsWith("sum of ") && !f.figure.endsWith("(ms)"))
      .map((f) => `${f.figure.slice("sum of ".length)} ${count(f.postgres)}`);
    console.log(
      `  ${table.padEnd(width)}  ${count(rows.postgres).padStart(rowsWidth)} rows${sums.length ? `; ${sums.join(", ")}` : ""}`,
    );
  }
  console.log(
    `  All ${count(result.figures.length)} figures equal: rows, and each column's sum (numbers, dates in milliseconds, true flags, text lengths).`,
  );
}

export function registerDbCommands(program: Command) {
  const db = program.command("db").description("Database maintenance");
  db.command("migrate")
    .description(
      "Apply pending migrations to the database named by DATABASE_URL (SQLite, default ./data/crm.db, or PostgreSQL), or with --url to a PostgreSQL database",
    )
    .option(
      "--url <postgres-url>",
      "a PostgreSQL database (postgres://user:password@host:5432/name) to apply prisma/migrations-postgres to",
    )
    .action(async (options: { url?: string }) => {
      // Without --url, the server's own database: PostgreSQL when DATABASE_URL names it.
      const url =
        options.url !== undefined
          ? parseCliInput(PostgresUrl, options.url)
          : getEnv().databaseEngine === "postgres"
            ? getEnv().databaseUrl
            : undefined;
      if (url !== undefined) {
        const { applied, total } = await migratePostgres(url, {
          onApply: (name) => console.log(`Applied ${name}`),
        });
        console.log(
          applied.length
            ? `Applied ${applied.length} of ${total} PostgreSQL migrations to ${shown(url)}.`
            : `${shown(url)} is up to date (${total} PostgreSQL migrations).`,
        );
        return;
      }
      const env = getEnv();
      const { applied, total } = migrateDatabase(env.databaseFile, {
        onApply: (name) => console.log(`Applied ${name}`),
      });
      console.log(
        applied.length
          ? `Applied ${applied.length} of ${total} migrations to ${env.databaseFile}.`
          : `${env.databaseFile} is up to date (${total} migrations).`,
      );
    });

  db.command("copy")
    .description(
      "Copy this SQLite install, every table, into an empty PostgreSQL database (migrated first if it has no tables), then check both sides add up",
    )
    .requiredOption("--to <postgres-url>", "the empty PostgreSQL database (postgres://user:password@host:5432/name)")
    .option("--from <sqlite-file>", "the SQLite file to copy (default: the one DATABASE_URL or DATA_DIR names)")
    .action(async (options: { to: string; from?: string }) => {
      const url = parseCliInput(postgresUrl("--to"), options.to);
      const file = sourceFile(options.from);
      const bars = new cliProgress.MultiBar(
        {
          format: "{stage} [{bar}] {percentage}% | {value}/{total}",
          hideCursor: true,
          noTTYOutput: true,
          notTTYSchedule: 5000,
        },
        cliProgress.Presets.shades_classic,
      );
      const tableBars = new Map<string, cliProgress.SingleBar>();
      const stepBars = new Map<string, cliProgress.SingleBar>();
      const stage = (name: string) => name.padEnd(17);
      let result: CopyResult;
      try {
        result = await copySqliteToPostgres(file, url, {
          onMigrate: (name) => console.log(`Applied ${name}`),
          onTable: (table, total) => {
            if (total > 0) tableBars.set(table, bars.create(total, 0, { stage: stage(table) }));
          },
          onRows: (table, done) => tableBars.get(table)?.update(done),
          onStep: (step, done, total) => {
            let bar = stepBars.get(step);
            if (!bar)
              stepBars.set(
                step,
                (bar = bars.create(total, 0, { stage: stage(step === "indexes" ? "Indexes and keys" : "Checks") })),
              );
            bar.update(done);
          },
        });
      } finally {
        bars.stop();
      }
      const rows = result.tables.reduce((sum, t) => sum + t.rows, 0);
      console.log(
        `Copied ${result.tables.length} tables (${count(rows)} rows) from ${file} to ${shown(url)} in ${(result.durationMs / 1000).toFixed(1)} s.`,
      );
      printChecks(result);
      for (const s of result.sequences)
        console.log(`${s.table}.${s.column} goes on from ${count(s.next)} (its sequence is set past the copied ids).`);
      console.log(
        [
          "",
          "Next: stop the server if it still runs on SQLite, then set",
          `  DATABASE_URL=${shown(url)}`,
          "(the URL above, with its password) and start the server again. Keep DATA_DIR as it is: it holds",
          "the DKIM keys and, without SESSION_SECRET, the session secret, so sign-ins and tokens go on working.",
          `The SQLite file is left as it was; keep it until you are happy with PostgreSQL.`,
        ].join("\n"),
      );
    });
}
