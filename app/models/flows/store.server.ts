// The flows' door: the functions of ./contract.ts, answered by the configured engine's implementation.
import { engineDoor } from "~/db/engine.server";
import type { FlowsStore } from "./contract";
import { postgresFlows } from "./postgres.server";
import { sqliteFlows } from "./sqlite.server";

export const flows = engineDoor<FlowsStore>({ sqlite: sqliteFlows, postgres: postgresFlows });
export * from "./rows";
