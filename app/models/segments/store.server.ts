// The stored segments' door: what other code calls (`storedSegments.findSegmentOfUser(...)`), each
// function running the configured engine's implementation (./sqlite.server.ts, ./postgres.server.ts).
// A segment's audience has its own door, ./audience/store.server.ts.
import { engineDoor } from "~/db/engine.server";
import type { SegmentsStore } from "~/models/segments/contract";
import { postgresSegments } from "~/models/segments/postgres.server";
import { sqliteSegments } from "~/models/segments/sqlite.server";

export const storedSegments = engineDoor<SegmentsStore>({ sqlite: sqliteSegments, postgres: postgresSegments });

export type { SegmentsStore } from "~/models/segments/contract";
export type { SegmentConditionsRow, SegmentFields, SegmentName, SegmentRow } from "~/models/segments/rows";
