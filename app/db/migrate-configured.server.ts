// The migrations of whichever database DATABASE_URL names: SQLite's runner
// (app/db/migrate.server.ts) or PostgreSQL's (app/db/migrate-postgres.server.ts, under an advisory
// lock). The one call the CLI's commands make before they touch the database.
import { migrateDatabase } from "~/db/migrate.server";
import { migratePostgres } from "~/db/migrate-postgres.server";
import { getEnv } from "~/env.server";

export type ConfiguredMigration = { applied: string[]; total: number };

export async function migrateConfiguredDatabase(
  options: { onApply?: (name: string) => void } = {},
): Promise<ConfiguredMigration> {
  const env = getEnv();
  if (env.databaseEngine === "postgres") return migratePostgres(env.databaseUrl, options);
  return migrateDatabase(env.databaseFile, options);
}
