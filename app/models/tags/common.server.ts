// The tags' Prisma calls, one body for both engines (db() is PostgreSQL's client there). The
// statements whose placeholders differ are each engine's own: a customer's tags on every detail (on
// each engine's own connection), and a segment tagged at once (tagAudienceIn(), in its dialect).
import { db } from "~/db/prisma.server";
import { isUniqueViolation } from "~/db/unique-violation.server";
import type { Prisma } from "~/generated/prisma/client";
import { newId } from "~/lib/id";
import { normaliseTag, tagKey } from "~/lib/tags";
import type { Dialect } from "~/models/segments/audience/rows";
import { inTransaction, type Tx } from "~/models/transaction/store.server";
import type { TagsStore } from "./contract";
import { tagAudienceSql } from "./rows";

const ownCustomers = (userId: string, customerIds: readonly string[]) => ({
  userId,
  id: { in: [...customerIds] },
});

/** What a TagRow reads of a tag. */
const TAG_ROW = { id: true, name: true, key: true } as const satisfies Prisma.TagSelect;

export const commonTags = {
  async listTagsWithCounts(userId) {
    const tags = await db().tag.findMany({
      where: { userId },
      orderBy: { key: "asc" },
      select: { ...TAG_ROW, _count: { select: { customers: true } } },
    });
    return tags.map((t) => ({ id: t.id, name: t.name, key: t.key, customers: t._count.customers }));
  },

  async countTagged(userId, tagId) {
    return db().customerTag.count({ where: { userId, tagId } });
  },

  async findTagsByKey(userId, keys) {
    if (keys.length === 0) return [];
    return db().tag.findMany({
      where: { userId, key: { in: [...keys] } },
      select: TAG_ROW,
    });
  },

  async ensureTags(userId, names, tx?: Tx) {
    const client = tx ?? db();
    const wanted = new Map(names.map((n) => [tagKey(n), normaliseTag(n)]));
    if (wanted.size === 0) return [];
    const found = await client.tag.findMany({
      where: { userId, key: { in: [...wanted.keys()] } },
      select: TAG_ROW,
    });
    const have = new Set(found.map((t) => t.key));
    for (const [key, name] of wanted) {
      if (have.has(key)) continue;
      try {
        found.push(
          await client.tag.create({
            data: { id: newId(), userId, name, key },
            select: TAG_ROW,
          }),
        );
      } catch (error) {
        // Made at the same moment by another request: use that one.
        if (!isUniqueViolation(error) || tx) throw error;
        const made = await client.tag.findUnique({
          where: { userId_key: { userId, key } },
          select: TAG_ROW,
        });
        if (made) found.push(made);
      }
    }
    return found;
  },

  async readTagsOfCustomers(userId, customerIds) {
    if (customerIds.length === 0) return [];
    const rows = await db().customerTag.findMany({
      where: { userId, customerId: { in: [...customerIds] } },
      select: { customerId: true, tag: { select: { name: true, key: true } } },
    });
    return rows
      .sort((a, b) => (a.tag.key < b.tag.key ? -1 : a.tag.key > b.tag.key ? 1 : 0))
      .map((r) => ({ customerId: r.customerId, name: r.tag.name }));
  },

  async replaceCustomerTags(userId, customerId, tagIds, tx?: Tx) {
    const work = async (t: Tx) => {
      await t.customerTag.deleteMany({ where: { userId, customerId, tagId: { notIn: [...tagIds] } } });
      for (const tagId of tagIds) {
        await t.customerTag.upsert({
          where: { tagId_customerId: { tagId, customerId } },
          create: { tagId, customerId, userId },
          update: {},
        });
      }
    };
    await inTransaction(tx, work);
  },

  async tagCustomers(userId, tagId, customerIds, tx?: Tx) {
    const client = tx ?? db();
    if (customerIds.length === 0) return 0;
    const owned = await client.customer.findMany({ where: ownCustomers(userId, customerIds), select: { id: true } });
    const already = new Set(
      (
        await client.customerTag.findMany({
          where: { tagId, customerId: { in: owned.map((c) => c.id) } },
          select: { customerId: true },
        })
      ).map((r) => r.customerId),
    );
    const adding = owned.filter((c) => !already.has(c.id));
    if (adding.length === 0) return 0;
    const { count } = await client.customerTag.createMany({
      data: adding.map((c) => ({ tagId, customerId: c.id, userId })),
    });
    return count;
  },

  async untagCustomers(userId, tagId, customerIds, tx?: Tx) {
    if (customerIds.length === 0) return 0;
    const { count } = await (tx ?? db()).customerTag.deleteMany({
      where: { userId, tagId, customerId: { in: [...customerIds] } },
    });
    return count;
  },

  async renameTag(userId, tagId, name, key) {
    await db().tag.updateMany({ where: { id: tagId, userId }, data: { name, key } });
  },

  async mergeTag(userId, fromId, intoId) {
    await db().$transaction(async (tx) => {
      const moving = await tx.customerTag.findMany({ where: { userId, tagId: fromId }, select: { customerId: true } });
      const there = new Set(
        (await tx.customerTag.findMany({ where: { userId, tagId: intoId }, select: { customerId: true } })).map(
          (r) => r.customerId,
        ),
      );
      const adding = moving.filter((r) => !there.has(r.customerId));
      if (adding.length > 0) {
        await tx.customerTag.createMany({
          data: adding.map((r) => ({ tagId: intoId, customerId: r.customerId, userId })),
        });
      }
      await tx.tag.deleteMany({ where: { id: fromId, userId } });
    });
  },

  async deleteTag(userId, tagId) {
    const { count } = await db().tag.deleteMany({ where: { id: tagId, userId } });
    return count > 0;
  },
} satisfies Omit<TagsStore, "readCustomerTags" | "tagAudience">;

/** tagAudience on an engine: one INSERT … SELECT in its dialect (tagAudienceSql), run through Prisma. */
export function tagAudienceIn(dialect: Dialect): TagsStore["tagAudience"] {
  return async (_userId, tagId, where) => {
    const q = tagAudienceSql(where, tagId, dialect);
    return db().$executeRawUnsafe(q.sql, ...q.params);
  };
}
