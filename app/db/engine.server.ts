// The one place where a domain's implementation is chosen by database engine.
//
// Each domain of app/models/ is a folder with one contract (a TypeScript type of what it offers)
// and one implementation per engine (`sqlite.server.ts`, `postgres.server.ts`). The domain's door
// (`store.server.ts`) is `engineDoor({ sqlite, postgres })`: an object with the contract's
// functions, each running the implementation of the engine DATABASE_URL names. The engine is read
// when a function is called, not when the module loads, so a process may load its settings after
// its imports (the CLI, the tests); it is one engine per process, and every connection a process
// opens (app/db/connection.server.ts) is of that engine.
import { type AnyConnection, databaseEngine, type DatabaseEngine, isPostgres } from "~/db/connection.server";
import type { Postgres } from "~/db/postgres.server";
import type { Sqlite } from "~/db/sqlite.server";

/** A contract's implementation for each engine. */
export type ByEngine<Contract> = Record<DatabaseEngine, Contract>;

type AnyFunction = (...args: never[]) => unknown;
type Functions<Contract> = { [K in keyof Contract]: Contract[K] extends AnyFunction ? Contract[K] : never };

/**
 * The domain's door: every function of the contract, running the configured engine's implementation.
 * Both implementations are built from one contract type, so they have the same functions.
 */
export function engineDoor<Contract extends Functions<Contract>>(implementations: ByEngine<Contract>): Contract {
  const door: Record<string, unknown> = {};
  for (const key of Object.keys(implementations.sqlite)) {
    door[key] = (...args: unknown[]) => {
      const implementation = implementations[databaseEngine()] as Record<string, (...a: unknown[]) => unknown>;
      return implementation[key]!(...args);
    };
  }
  return door as Contract;
}

/** The connection as SQLite's implementation uses it (a PostgreSQL pool here is a wiring mistake). */
export function sqliteOf(connection: AnyConnection): Sqlite {
  if (isPostgres(connection)) throw new Error("A PostgreSQL connection reached SQLite's implementation.");
  return connection;
}

/** The connection as PostgreSQL's implementation uses it. */
export function postgresOf(connection: AnyConnection): Postgres {
  if (!isPostgres(connection)) throw new Error("A SQLite connection reached PostgreSQL's implementation.");
  return connection;
}
