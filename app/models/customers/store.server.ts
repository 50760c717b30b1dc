// The customers' door: the one file other code imports the customers' functions from (the list,
// the detail, the writes, the search, the CSV import and export). Each runs the implementation of
// the engine DATABASE_URL names (~/db/engine.server).
import { engineDoor } from "~/db/engine.server";
import type { CustomersStore } from "./contract";
import { postgresCustomers } from "./postgres.server";
import { sqliteCustomers } from "./sqlite.server";

export const customers = engineDoor<CustomersStore>({ sqlite: sqliteCustomers, postgres: postgresCustomers });

export type {
  CustomerDetailRows,
  CustomerFields,
  CustomerMerge,
  CustomerRow,
  ExportRow,
  KeyValue,
  ListRow,
  Position,
  RowKey,
} from "./rows";
