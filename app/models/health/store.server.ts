// The health check's door: ./contract.ts, answered by the configured engine's implementation.
import { engineDoor } from "~/db/engine.server";
import type { HealthStore } from "~/models/health/contract";
import { postgresHealth } from "~/models/health/postgres.server";
import { sqliteHealth } from "~/models/health/sqlite.server";

export const health = engineDoor<HealthStore>({ sqlite: sqliteHealth, postgres: postgresHealth });

export { HEALTH_TIMEOUT_MS } from "~/models/health/rows";
