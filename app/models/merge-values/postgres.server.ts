// The merge values model on PostgreSQL: statements on the caller's pool, a batch's ids bound as one
// array.
import { postgresOf } from "~/db/engine.server";
import { query } from "~/db/postgres.server";
import type { MergeValuesStore } from "./contract";
import { type RecipientFieldRow, type RecipientOrderRow, type RecipientRow, recipientStatements } from "./rows";

const SQL = recipientStatements(
  (n) => `$${n}`,
  (n) => `= ANY($${n}::text[])`,
);

export const postgresMergeValues: MergeValuesStore = {
  async recipients(connection, userId, ids) {
    return query<RecipientRow>(postgresOf(connection), SQL.customers, [userId, ids]);
  },
  async recipientFields(connection, userId, ids) {
    return query<RecipientFieldRow>(postgresOf(connection), SQL.fields, [userId, ids]);
  },
  async lastOrders(connection, userId, ids) {
    return query<RecipientOrderRow>(postgresOf(connection), SQL.lastOrders, [userId, ids]);
  },
};
