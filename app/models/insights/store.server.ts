// The insights' figures, the door: what other code calls (`insightFigures.writingMarks(...)`), each
// function running the configured engine's implementation (./sqlite.server.ts, ./postgres.server.ts).
import { engineDoor } from "~/db/engine.server";
import type { InsightsStore } from "~/models/insights/contract";
import { postgresInsights } from "~/models/insights/postgres.server";
import { sqliteInsights } from "~/models/insights/sqlite.server";

export const insightFigures = engineDoor<InsightsStore>({ sqlite: sqliteInsights, postgres: postgresInsights });
