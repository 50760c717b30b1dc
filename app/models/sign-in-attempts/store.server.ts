// The sign-in attempts' door: the count of ./contract.ts, kept where the configured engine keeps it.
import { engineDoor } from "~/db/engine.server";
import type { SignInAttemptsStore } from "~/models/sign-in-attempts/contract";
import { postgresSignInAttempts } from "~/models/sign-in-attempts/postgres.server";
import { sqliteSignInAttempts } from "~/models/sign-in-attempts/sqlite.server";

export const signInAttempts = engineDoor<SignInAttemptsStore>({
  sqlite: sqliteSignInAttempts,
  postgres: postgresSignInAttempts,
});
