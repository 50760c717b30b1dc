// The tags on PostgreSQL: Prisma's calls (./common.server.ts), one customer's tags read by a
// prepared statement on the pool (as the rest of the customer detail is), and a segment's audience
// tagged in one INSERT … SELECT.
import { postgres, query } from "~/db/postgres.server";
import { commonTags, tagAudienceIn } from "./common.server";
import type { TagsStore } from "./contract";
import { customerTagsSql } from "./rows";

const TAGS_SQL = customerTagsSql((n) => `$${n}`);

export const postgresTags: TagsStore = {
  ...commonTags,
  async readCustomerTags(userId, customerId) {
    return (await query<{ name: string }>(postgres(), TAGS_SQL, [customerId, userId], { prepare: true })).map(
      (r) => r.name,
    );
  },
  tagAudience: tagAudienceIn("postgres"),
};
