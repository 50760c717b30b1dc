// The stored segments on PostgreSQL: Prisma's calls (./common.server.ts), and raw reads on the
// process's pool. Names are ordered COLLATE "C", by code point, as SQLite's BINARY orders them.
import { postgres, query } from "~/db/postgres.server";
import { commonSegments } from "~/models/segments/common.server";
import type { SegmentsStore } from "~/models/segments/contract";
import type { SegmentConditionsRow, SegmentName, SegmentRow } from "~/models/segments/rows";

type SegmentRowMs = Omit<SegmentRow, "createdAt" | "updatedAt"> & { createdAt: number; updatedAt: number };

export const postgresSegments: SegmentsStore = {
  ...commonSegments,

  /**
   * SQLite's LIKE (what Prisma's `contains` is there) ignores ASCII case: ILIKE ignores case here,
   * and the pattern's wildcards are taken literally.
   */
  async findSegmentsOfUser(userId, options) {
    const params: unknown[] = [userId, options.take];
    const named = options.q ? ` AND "name" ILIKE $3` : "";
    if (options.q) params.push(`%${options.q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`);
    const rows = await query<SegmentRowMs>(
      postgres(),
      `SELECT "id", "userId", "name", "description", "logicType", "conditions", "createdAt", "updatedAt"
       FROM "Segment" WHERE "userId" = $1${named} ORDER BY "createdAt" DESC, "id" DESC LIMIT $2`,
      params,
    );
    // Prisma's rows carry Dates: so do these.
    return rows.map((r) => ({ ...r, createdAt: new Date(r.createdAt), updatedAt: new Date(r.updatedAt) }));
  },

  async segmentNamesOfUser(userId) {
    return query<SegmentName>(postgres(), `SELECT "id", "name" FROM "Segment" WHERE "userId" = $1`, [userId]);
  },

  async segmentConditionsOfUser(userId) {
    return query<SegmentConditionsRow & { name: string }>(
      postgres(),
      `SELECT "id", "name", "conditions" FROM "Segment" WHERE "userId" = $1 ORDER BY "name" COLLATE "C", "id"`,
      [userId],
      { prepare: true },
    );
  },

  async draftCampaignNamesUsingSegment(userId, segmentId) {
    const rows = await query<{ name: string }>(
      postgres(),
      `SELECT "name" FROM "Campaign" WHERE "userId" = $1 AND "segmentId" = $2 AND "status" = 'Draft' ORDER BY "createdAt", "id"`,
      [userId, segmentId],
    );
    return rows.map((r) => r.name);
  },
};
