// The merge values model's door: the functions of ./contract.ts, answered by the configured
// engine's implementation.
import { engineDoor } from "~/db/engine.server";
import type { MergeValuesStore } from "./contract";
import { postgresMergeValues } from "./postgres.server";
import { sqliteMergeValues } from "./sqlite.server";

export const mergeValues = engineDoor<MergeValuesStore>({ sqlite: sqliteMergeValues, postgres: postgresMergeValues });

export type { RecipientFieldRow, RecipientOrderRow, RecipientRow } from "./rows";
