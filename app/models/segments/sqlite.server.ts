// The stored segments on SQLite: Prisma's calls (./common.server.ts), and raw reads as prepared
// statements on the read connection (see ~/db/reader.server).
import { db } from "~/db/prisma.server";
import { readStatement } from "~/db/reader.server";
import { commonSegments } from "~/models/segments/common.server";
import type { SegmentsStore } from "~/models/segments/contract";
import type { SegmentConditionsRow, SegmentName } from "~/models/segments/rows";

export const sqliteSegments: SegmentsStore = {
  ...commonSegments,

  async findSegmentsOfUser(userId, options) {
    // Prisma's `contains` is LIKE here, which ignores ASCII case.
    return db().segment.findMany({
      where: { userId, ...(options.q ? { name: { contains: options.q } } : {}) },
      orderBy: [{ createdAt: "desc" }, { id: "desc" }],
      take: options.take,
    });
  },

  async segmentNamesOfUser(userId) {
    return readStatement<SegmentName>(`SELECT "id", "name" FROM "Segment" WHERE "userId" = ?`).all(userId);
  },

  async segmentConditionsOfUser(userId) {
    // On every customer detail (GET /api/customers/{id}).
    return readStatement<SegmentConditionsRow & { name: string }>(
      `SELECT "id", "name", "conditions" FROM "Segment" WHERE "userId" = ? ORDER BY "name", "id"`,
    ).all(userId);
  },

  async draftCampaignNamesUsingSegment(userId, segmentId) {
    return readStatement<string>(
      `SELECT "name" FROM "Campaign" WHERE "userId" = ? AND "segmentId" = ? AND "status" = 'Draft' ORDER BY "createdAt", "id"`,
    )
      .pluck()
      .all(userId, segmentId);
  },
};
