// The segments as stored: one Segment row per saved audience of a tenant, its condition tree as
// JSON text (docs/rules.md#segment-conditions). Every query takes the tenant. The audience
// queries on a segment's tree are in ./segments/audience.server.ts. The raw-SQL reads have
// PostgreSQL twins in ./segments.postgres.server.ts.
import { db } from "~/db/prisma.server";
import { databaseEngine } from "~/db/connection.server";
import { postgres } from "~/db/postgres.server";
import { readStatement } from "~/db/reader.server";
import type { Prisma } from "~/generated/prisma/client";
import {
  draftCampaignNamesUsingSegmentPg,
  findSegmentsOfUserPg,
  segmentConditionsOfUserPg,
  segmentNamesOfUserPg,
} from "~/models/segments.postgres.server";
import type { Tx } from "~/models/transaction.server";

const onPostgres = () => databaseEngine() === "postgres";

/** One Segment row (dates as Date). */
export type SegmentRow = Prisma.SegmentGetPayload<object>;
/** What the audience of a stored segment needs: its id and its condition text. */
export type SegmentConditionsRow = Pick<SegmentRow, "id" | "conditions">;
/** What a segment write stores. */
export type SegmentFields = { name: string; description: string; logicType: string; conditions: string };

/** The tenant's segment, or null. */
export async function findSegmentOfUser(userId: string, id: string, tx: Tx = db()): Promise<SegmentRow | null> {
  return tx.segment.findFirst({ where: { id, userId } });
}

/** The tenant's segments newest first, those whose name contains `q` when given, at most `take`. */
export async function findSegmentsOfUser(userId: string, options: { q?: string; take: number }): Promise<SegmentRow[]> {
  if (onPostgres()) return findSegmentsOfUserPg(postgres().pool, userId, options);
  return db().segment.findMany({
    where: { userId, ...(options.q ? { name: { contains: options.q } } : {}) },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    take: options.take,
  });
}

/** The ids and names of all the tenant's segments. */
export async function segmentNamesOfUser(userId: string): Promise<{ id: string; name: string }[]> {
  if (onPostgres()) return segmentNamesOfUserPg(postgres().pool, userId);
  return readStatement<{ id: string; name: string }>(`SELECT "id", "name" FROM "Segment" WHERE "userId" = ?`).all(
    userId,
  );
}

/** The tenant's segments with their condition text, by name (the customer detail's chips). */
export async function segmentConditionsOfUser(userId: string): Promise<(SegmentConditionsRow & { name: string })[]> {
  if (onPostgres()) return segmentConditionsOfUserPg(postgres().pool, userId);
  // On every customer detail (GET /api/customers/{id}): a prepared statement on the read
  // connection (see ~/db/reader.server).
  return readStatement<SegmentConditionsRow & { name: string }>(
    `SELECT "id", "name", "conditions" FROM "Segment" WHERE "userId" = ? ORDER BY "name", "id"`,
  ).all(userId);
}

/** A new segment row. */
export async function insertSegment(
  segment: SegmentFields & { id: string; userId: string },
  tx: Tx = db(),
): Promise<SegmentRow> {
  return tx.segment.create({ data: segment });
}

/** Rewrites a segment (already found to be the tenant's). */
export async function updateSegmentById(id: string, fields: SegmentFields, tx: Tx = db()): Promise<SegmentRow> {
  return tx.segment.update({ where: { id }, data: fields });
}

/** Deletes the tenant's segment; false when there was none. */
export async function deleteSegmentOfUser(userId: string, id: string, tx: Tx = db()): Promise<boolean> {
  const result = await tx.segment.deleteMany({ where: { id, userId } });
  return result.count > 0;
}

/** How many campaigns the tenant has created (the /segments cards). */
export async function countCampaignsOfUser(userId: string): Promise<number> {
  return db().campaign.count({ where: { userId } });
}

/** The names of the tenant's draft campaigns that use a segment, oldest first. */
export async function draftCampaignNamesUsingSegment(userId: string, segmentId: string): Promise<string[]> {
  if (onPostgres()) return draftCampaignNamesUsingSegmentPg(postgres().pool, userId, segmentId);
  return readStatement<string>(
    `SELECT "name" FROM "Campaign" WHERE "userId" = ? AND "segmentId" = ? AND "status" = 'Draft' ORDER BY "createdAt", "id"`,
  )
    .pluck()
    .all(userId, segmentId);
}
