// The tags on SQLite: Prisma's calls (./common.server.ts), one customer's tags read by a prepared
// statement on the read connection (as the rest of the customer detail is), and a segment's
// audience tagged in one INSERT … SELECT.
import { db } from "~/db/prisma.server";
import { readStatement } from "~/db/reader.server";
import { commonTags } from "./common.server";
import type { TagsStore } from "./contract";
import { customerTagsSql, tagAudienceSql } from "./rows";

const TAGS_SQL = customerTagsSql(() => "?");

export const sqliteTags: TagsStore = {
  ...commonTags,
  async readCustomerTags(userId, customerId) {
    return readStatement<{ name: string }>(TAGS_SQL)
      .all(customerId, userId)
      .map((r) => r.name);
  },
  async tagAudience(_userId, tagId, where) {
    const q = tagAudienceSql(where, tagId, "sqlite");
    return db().$executeRawUnsafe(q.sql, ...q.params);
  },
};
