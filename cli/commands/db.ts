import type { Command } from "commander";
import { migrateDatabase } from "../../app/db/migrate.server.ts";
import { getEnv } from "../../app/env.server.ts";

export function registerDbCommands(program: Command) {
  const db = program.command("db").description("Database maintenance");
  db.command("migrate")
    .description("Apply pending migrations to the database named by DATABASE_URL (default ./data/crm.db)")
    .action(() => {
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
