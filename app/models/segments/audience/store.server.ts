// A segment's audience, the door: what other code calls (`segmentAudience.sqlAudienceCount(...)`), each
// function running the configured engine's implementation (./sqlite.server.ts, ./postgres.server.ts).
import { engineDoor } from "~/db/engine.server";
import type { AudienceStore } from "~/models/segments/audience/contract";
import { postgresAudience } from "~/models/segments/audience/postgres.server";
import { sqliteAudience } from "~/models/segments/audience/sqlite.server";

export const segmentAudience = engineDoor<AudienceStore>({ sqlite: sqliteAudience, postgres: postgresAudience });

export type { AudienceStore } from "~/models/segments/audience/contract";
export type { AudienceRow, AudienceTuple, CompiledWhere, CountShape, SqlParam } from "~/models/segments/audience/rows";
