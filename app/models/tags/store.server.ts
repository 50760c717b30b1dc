// The tags' door: the functions of ./contract.ts, answered by the configured engine's implementation.
import { engineDoor } from "~/db/engine.server";
import type { TagsStore } from "./contract";
import { postgresTags } from "./postgres.server";
import { sqliteTags } from "./sqlite.server";

export const tags = engineDoor<TagsStore>({ sqlite: sqliteTags, postgres: postgresTags });
