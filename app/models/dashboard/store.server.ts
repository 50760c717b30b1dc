// The dashboard's door (docs/decisions/0012-dashboard-snapshots.md): the counts, lists and daily
// snapshots of ./contract.ts, answered by the configured engine's implementation.
import { engineDoor } from "~/db/engine.server";
import type { DashboardStore } from "~/models/dashboard/contract";
import { postgresDashboard } from "~/models/dashboard/postgres.server";
import { sqliteDashboard } from "~/models/dashboard/sqlite.server";

export const dashboard = engineDoor<DashboardStore>({ sqlite: sqliteDashboard, postgres: postgresDashboard });

export type { DashboardConnection, SnapshotConnection, SnapshotJobConnection } from "~/models/dashboard/contract";
export type { SnapshotRow, Window } from "~/models/dashboard/rows";
