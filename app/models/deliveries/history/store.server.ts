// The history domain's door (app/models/deliveries/history/): a campaign's delivery log, its clicks
// by link, a seeded history and replays, on the engine DATABASE_URL names.
import { engineDoor } from "~/db/engine.server";
import type { HistoryStore } from "./contract";
import { postgresHistory } from "./postgres.server";
import { sqliteHistory } from "./sqlite.server";

export type { HistorySegment, LinkClicksRow, LogRow, ReplayStatus, SeededShares } from "./rows";

export const deliveryHistory = engineDoor<HistoryStore>({ sqlite: sqliteHistory, postgres: postgresHistory });
