// The merge values model on SQLite: statements on the caller's connection, a batch's ids bound as
// one JSON array.
import { sqliteOf } from "~/db/engine.server";
import type { MergeValuesStore } from "./contract";
import { type RecipientFieldRow, type RecipientOrderRow, type RecipientRow, recipientStatements } from "./rows";

const SQL = recipientStatements(
  () => "?",
  () => `IN (SELECT "value" FROM json_each(?))`,
);

export const sqliteMergeValues: MergeValuesStore = {
  async recipients(connection, userId, ids) {
    return sqliteOf(connection).prepare<unknown[], RecipientRow>(SQL.customers).all(userId, JSON.stringify(ids));
  },
  async recipientFields(connection, userId, ids) {
    return sqliteOf(connection).prepare<unknown[], RecipientFieldRow>(SQL.fields).all(userId, JSON.stringify(ids));
  },
  async lastOrders(connection, userId, ids) {
    return sqliteOf(connection).prepare<unknown[], RecipientOrderRow>(SQL.lastOrders).all(userId, JSON.stringify(ids));
  },
};
