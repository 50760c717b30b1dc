// The suppression list's door: what other code calls (`suppressions.addSuppressions(...)`), each
// function running the configured engine's implementation (./sqlite.server.ts, ./postgres.server.ts).
// The two functions that join a transaction the delivery job already holds are engine-bound by
// nature (a SQLite transaction is synchronous, a PostgreSQL one runs on one client): each engine's
// outcomes file calls its own.
import { engineDoor } from "~/db/engine.server";
import type { SuppressionsStore } from "~/models/suppressions/contract";
import { postgresSuppressions } from "~/models/suppressions/postgres.server";
import { sqliteSuppressions } from "~/models/suppressions/sqlite.server";

export const suppressions = engineDoor<SuppressionsStore>({
  sqlite: sqliteSuppressions,
  postgres: postgresSuppressions,
});

export { suppressInPostgresTransaction } from "~/models/suppressions/postgres.server";
export { suppressInSqliteTransaction } from "~/models/suppressions/sqlite.server";
export type { SuppressionsStore, SuppressionWriteOptions } from "~/models/suppressions/contract";
export {
  SUPPRESSION_REASONS,
  type NewSuppression,
  type SuppressionCursor,
  type SuppressionEventRow,
  type SuppressionReason,
  type SuppressionRow,
} from "~/models/suppressions/rows";
