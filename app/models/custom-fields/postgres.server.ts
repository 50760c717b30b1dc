// The custom fields on PostgreSQL: Prisma's calls (./common.server.ts), and one customer's values
// read by a prepared statement on the pool, as the rest of the customer detail is.
import { postgres, query } from "~/db/postgres.server";
import { commonCustomFields } from "./common.server";
import type { CustomFieldsStore } from "./contract";
import { customerValuesSql, type FieldValueRow } from "./rows";

const VALUES_SQL = customerValuesSql((n) => `$${n}`);

export const postgresCustomFields: CustomFieldsStore = {
  ...commonCustomFields,
  async readCustomerValues(userId, customerId) {
    return query<FieldValueRow>(postgres(), VALUES_SQL, [customerId, userId], { prepare: true });
  },
};
