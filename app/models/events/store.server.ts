// The events' door: the functions of ./contract.ts, answered by the configured engine's implementation.
import { engineDoor } from "~/db/engine.server";
import type { EventsStore } from "./contract";
import { postgresEvents } from "./postgres.server";
import { sqliteEvents } from "./sqlite.server";

export const events = engineDoor<EventsStore>({ sqlite: sqliteEvents, postgres: postgresEvents });
