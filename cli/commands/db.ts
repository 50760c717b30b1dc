import type { Command } from "commander";
import { z } from "zod";
import { migrateDatabase } from "../../app/db/migrate.server.ts";
import { migratePostgres } from "../../app/db/migrate-postgres.server.ts";
import { getEnv } from "../../app/env.server.ts";
import { parseCliInput } from "../validate.ts";

const PostgresUrl = z
  .string()
  .refine((v) => /^postgres(ql)?:\/\//.test(v), {
    message: "--url must be a PostgreSQL URL like postgres://user:password@host:5432/crm",
  })
  .refine((v) => URL.canParse(v) && new URL(v).hostname !== "" && new URL(v).pathname.length > 1, {
    message: "--url must name a host and a database, like postgres://user:password@host:5432/crm",
  });

/** The URL without its password, for messages. */
function shown(url: string): string {
  const u = new URL(url);
  if (u.password) u.password = "***";
  return u.toString();
}

export function registerDbCommands(program: Command) {
  const db = program.command("db").description("Database maintenance");
  db.command("migrate")
    .description(
      "Apply pending migrations to the database named by DATABASE_URL (default ./data/crm.db), or with --url to a PostgreSQL database",
    )
    .option(
      "--url <postgres-url>",
      "a PostgreSQL database (postgres://user:password@host:5432/name) to apply prisma/migrations-postgres to",
    )
    .action(async (options: { url?: string }) => {
      if (options.url !== undefined) {
        const url = parseCliInput(PostgresUrl, options.url);
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
}
