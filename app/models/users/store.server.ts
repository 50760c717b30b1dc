// The users model's door: the functions of ./contract.ts, answered by the configured engine's
// implementation.
import { engineDoor } from "~/db/engine.server";
import type { UsersStore } from "~/models/users/contract";
import { postgresUsers } from "~/models/users/postgres.server";
import { sqliteUsers } from "~/models/users/sqlite.server";

export const users = engineDoor<UsersStore>({ sqlite: sqliteUsers, postgres: postgresUsers });

export type { NewUser, SenderProfile, User, UserChanges } from "~/models/users/rows";
