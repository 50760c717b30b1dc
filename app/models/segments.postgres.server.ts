// The segments' raw-SQL reads on PostgreSQL: the twins of those in ./segments.server.ts (its Prisma
// calls run on either engine as they are), each taking the pool to run on first. Names are ordered
// COLLATE "C", by code point, as SQLite's BINARY orders them.
import { type Queryable, query } from "~/db/postgres.server";
import type { SegmentConditionsRow, SegmentRow } from "~/models/segments.server";

type SegmentRowMs = Omit<SegmentRow, "createdAt" | "updatedAt"> & { createdAt: number; updatedAt: number };

/**
 * The tenant's segments newest first, those whose name contains `q` when given. SQLite's LIKE
 * (what Prisma's `contains` is there) ignores ASCII case: ILIKE ignores case here, and the
 * pattern's wildcards are taken literally.
 */
export async function findSegmentsOfUserPg(
  db: Queryable,
  userId: string,
  options: { q?: string; take: number },
): Promise<SegmentRow[]> {
  const params: unknown[] = [userId, options.take];
  const named = options.q ? ` AND "name" ILIKE $3` : "";
  if (options.q) params.push(`%${options.q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`);
  const rows = await query<SegmentRowMs>(
    db,
    `SELECT "id", "userId", "name", "description", "logicType", "conditions", "createdAt", "updatedAt"
     FROM "Segment" WHERE "userId" = $1${named} ORDER BY "createdAt" DESC, "id" DESC LIMIT $2`,
    params,
  );
  // Prisma's rows carry Dates: so do these.
  return rows.map((r) => ({ ...r, createdAt: new Date(r.createdAt), updatedAt: new Date(r.updatedAt) }));
}

export async function segmentNamesOfUserPg(db: Queryable, userId: string): Promise<{ id: string; name: string }[]> {
  return query<{ id: string; name: string }>(db, `SELECT "id", "name" FROM "Segment" WHERE "userId" = $1`, [userId]);
}

export async function segmentConditionsOfUserPg(
  db: Queryable,
  userId: string,
): Promise<(SegmentConditionsRow & { name: string })[]> {
  return query<SegmentConditionsRow & { name: string }>(
    db,
    `SELECT "id", "name", "conditions" FROM "Segment" WHERE "userId" = $1 ORDER BY "name" COLLATE "C", "id"`,
    [userId],
    { prepare: true },
  );
}

export async function draftCampaignNamesUsingSegmentPg(
  db: Queryable,
  userId: string,
  segmentId: string,
): Promise<string[]> {
  const rows = await query<{ name: string }>(
    db,
    `SELECT "name" FROM "Campaign" WHERE "userId" = $1 AND "segmentId" = $2 AND "status" = 'Draft' ORDER BY "createdAt", "id"`,
    [userId, segmentId],
  );
  return rows.map((r) => r.name);
}
