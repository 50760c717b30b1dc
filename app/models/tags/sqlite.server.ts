// The tags on SQLite: Prisma's calls (./common.server.ts), one customer's tags read by a prepared
// statement on the read connection (as the rest of the customer detail is), and a segment's
// audience tagged in one INSERT … SELECT.
import { readStatement } from "~/db/reader.server";
import { commonTags, tagAudienceIn } from "./common.server";
import type { TagsStore } from "./contract";
import { customerTagsSql } from "./rows";

const TAGS_SQL = customerTagsSql(() => "?");

export const sqliteTags: TagsStore = {
  ...commonTags,
  async readCustomerTags(userId, customerId) {
    return readStatement<{ name: string }>(TAGS_SQL)
      .all(customerId, userId)
      .map((r) => r.name);
  },
  tagAudience: tagAudienceIn("sqlite"),
};
