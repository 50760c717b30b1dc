// The attribution domain's door (app/models/attribution/): revenue per campaign, on the engine
// DATABASE_URL names.
import { engineDoor } from "~/db/engine.server";
import type { AttributionStore } from "./contract";
import { postgresAttribution } from "./postgres.server";
import { sqliteAttribution } from "./sqlite.server";

export const attribution = engineDoor<AttributionStore>({ sqlite: sqliteAttribution, postgres: postgresAttribution });

// SQLite's statements and their query plans, for the bench's report (bench/sections/sqlite/attribution.ts,
// which measures SQLite).
export { attributionPlan, campaignAttributionSql, campaignsByRevenueSql, revenueInPeriodSql } from "./sqlite.server";
