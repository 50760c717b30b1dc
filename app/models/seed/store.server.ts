// The seed's door: the writes of ./contract.ts, done by the configured engine's implementation.
import { engineDoor } from "~/db/engine.server";
import type { SeedStore } from "~/models/seed/contract";
import { postgresSeedStore } from "~/models/seed/postgres.server";
import { sqliteSeedStore } from "~/models/seed/sqlite.server";

export const seedStore = engineDoor<SeedStore>({ sqlite: sqliteSeedStore, postgres: postgresSeedStore });

export type { SeedConnection } from "~/models/seed/contract";
export type { SeedCustomer, SeedOrder, SeedOrderItem } from "~/models/seed/rows";
