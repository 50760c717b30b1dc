// The custom fields on SQLite: Prisma's calls (./common.server.ts), and one customer's values read
// by a prepared statement on the read connection, as the rest of the customer detail is.
import { readStatement } from "~/db/reader.server";
import { commonCustomFields } from "./common.server";
import type { CustomFieldsStore } from "./contract";
import { customerValuesSql, type FieldValueRow } from "./rows";

const VALUES_SQL = customerValuesSql(() => "?");

export const sqliteCustomFields: CustomFieldsStore = {
  ...commonCustomFields,
  async readCustomerValues(userId, customerId) {
    return readStatement<FieldValueRow>(VALUES_SQL).all(customerId, userId);
  },
};
