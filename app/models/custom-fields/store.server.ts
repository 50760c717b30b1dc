// The custom fields' door: the functions of ./contract.ts, answered by the configured engine's
// implementation.
import { engineDoor } from "~/db/engine.server";
import type { CustomFieldsStore } from "./contract";
import { postgresCustomFields } from "./postgres.server";
import { sqliteCustomFields } from "./sqlite.server";

export const customFields = engineDoor<CustomFieldsStore>({
  sqlite: sqliteCustomFields,
  postgres: postgresCustomFields,
});
