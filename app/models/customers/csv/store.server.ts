// The door of the customers' CSV import and export (app/models/customers/csv/): the one file
// other code imports them from. Each runs the implementation of the engine DATABASE_URL names
// (~/db/engine.server).
import { engineDoor } from "~/db/engine.server";
import type { CustomerCsvStore } from "./contract";
import { postgresCustomerCsv } from "./postgres.server";
import { sqliteCustomerCsv } from "./sqlite.server";

export const customerCsv = engineDoor<CustomerCsvStore>({ sqlite: sqliteCustomerCsv, postgres: postgresCustomerCsv });

export type { ImportStaging } from "./contract";
