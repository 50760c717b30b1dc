// The segment functions whose body is the same on both engines: Prisma calls, which run on either.
import { db } from "~/db/prisma.server";
import type { SegmentsStore } from "~/models/segments/contract";

export const commonSegments = {
  async findSegmentOfUser(userId, id, tx = db()) {
    return tx.segment.findFirst({ where: { id, userId } });
  },

  async insertSegment(segment, tx = db()) {
    return tx.segment.create({ data: segment });
  },

  async updateSegmentById(id, fields, tx = db()) {
    return tx.segment.update({ where: { id }, data: fields });
  },

  async deleteSegmentOfUser(userId, id, tx = db()) {
    const result = await tx.segment.deleteMany({ where: { id, userId } });
    return result.count > 0;
  },

  async countCampaignsOfUser(userId) {
    return db().campaign.count({ where: { userId } });
  },
} satisfies Partial<SegmentsStore>;
