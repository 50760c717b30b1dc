// A launch on PostgreSQL: the twins of ./launch.server.ts, with the same names, parameters and
// answers, each taking the pool first.
//
// The audience WHERE is the compiler's PostgreSQL text (placeholders $1…$k); the statements here
// number their own parameters after it. Customers are taken in "id" order (ids are time-ordered
// hex, so the (userId, id) index gives them in creation order, as SQLite's rowid does), a slice of
// LAUNCH_SLICE a transaction. Two launches at once get their seq ranges one after the other under
// a transaction-level advisory lock; two launches of one draft, the second a 409.
import { type Postgres, type Queryable, query, transaction } from "~/db/postgres.server";
import { ApiError } from "~/lib/api.server";
import type { NewCampaign } from "~/models/campaigns.server";
import { resendValue, trackingValue } from "~/models/campaigns.server";
import { writeDraftRowPg } from "~/models/campaigns.postgres.server";
import type { Launch } from "~/models/deliveries/launch.server";
import { LAUNCH_IN_PROGRESS, LAUNCH_INTERRUPTED, LAUNCH_SLICE, LAUNCHING } from "~/models/deliveries/launch.server";
import type { CompiledWhere } from "~/models/segments/compile.server";

/** The advisory lock two launches' seq reservations take turns on (any constant of ours). */
const SEQ_RESERVATION_LOCK = 0x63726d01;
const UNIQUE_VIOLATION = "23505";
/** A launch of at least this many rows refreshes the delivery table's statistics. */
const ANALYZE_AFTER_ROWS = 10_000;

/** A WHERE the SQLite compiler wrote, given to PostgreSQL by mistake: said at once, not as a syntax error. */
function checkDialect(where: CompiledWhere): void {
  if (where.params.length > 0 && !where.sql.includes("$1"))
    throw new Error("The audience WHERE was compiled for SQLite; on PostgreSQL compile it with the postgres dialect");
}

/** `$n` for the parameter after the WHERE's (1-based within the statement's own). */
const after = (where: CompiledWhere, n: number) => `$${where.params.length + n}`;

/**
 * Deletes up to LAUNCH_SLICE delivery rows of one campaign ($1). Built when used: this module and
 * the launch model import each other, and LAUNCH_SLICE is not set yet while this one loads.
 */
export const deleteDeliverySlice = () =>
  `DELETE FROM "Delivery" WHERE "seq" IN (SELECT "seq" FROM "Delivery" WHERE "campaignId" = $1 LIMIT ${LAUNCH_SLICE})`;

export async function suppressedInAudiencePg(pg: Postgres, userId: string, where: CompiledWhere): Promise<number> {
  checkDialect(where);
  // Driven from the list: each suppressed address is one probe of the customers' (userId, email) key.
  const [row] = await query<{ n: number }>(
    pg,
    `SELECT count(*)::int AS "n" FROM "Customer"
     WHERE "userId" = ${after(where, 1)} AND "email" IN (SELECT "email" FROM "Suppression" WHERE "userId" = ${after(where, 1)})
       AND (${where.sql})`,
    [...where.params, userId],
  );
  return Number(row?.n ?? 0);
}

/** nonOpenersWhere in the PostgreSQL dialect. */
export function nonOpenersWherePg(userId: string, campaignId: string): CompiledWhere {
  return {
    sql: `"userId" = $1 AND EXISTS (SELECT 1 FROM "Delivery" "d" WHERE "d"."campaignId" = $2 AND "d"."customerId" = "Customer"."id"
      AND "d"."userId" = "Customer"."userId" AND "d"."status" IN ('sent', 'delivered') AND "d"."openedAt" IS NULL AND "d"."clickedAt" IS NULL)`,
    params: [userId, campaignId],
  };
}

export async function countAudiencePg(pg: Postgres, where: CompiledWhere): Promise<number> {
  checkDialect(where);
  const [row] = await query<{ n: number }>(pg, `SELECT count(*)::int AS "n" FROM "Customer" WHERE ${where.sql}`, [
    ...where.params,
  ]);
  return Number(row?.n ?? 0);
}

async function hasSuppressions(pg: Queryable | Postgres, userId: string): Promise<boolean> {
  const rows = await query(pg, `SELECT 1 FROM "Suppression" WHERE "userId" = $1 LIMIT 1`, [userId]);
  return rows.length > 0;
}

const NOT_SUPPRESSED = ` AND NOT EXISTS (SELECT 1 FROM "Suppression" "s" WHERE "s"."userId" = "Customer"."userId" AND "s"."email" = "Customer"."email")`;

export async function startLaunchPg(
  pg: Postgres,
  c: NewCampaign,
  where: CompiledWhere,
  options: { now?: number; slice?: number } = {},
): Promise<Launch> {
  checkDialect(where);
  const now = options.now ?? Date.now();
  const slice = options.slice ?? LAUNCH_SLICE;
  const suppressing = await hasSuppressions(pg, c.userId);
  const leftOut = suppressing ? await suppressedInAudiencePg(pg, c.userId, where) : 0;
  let existed = false;
  let reserved: { base: number; room: number };
  try {
    reserved = await transaction(pg, async (client) => {
      const [existing] = await query<{ status: string; statusDetail: string }>(
        client,
        `SELECT "status", "statusDetail" FROM "Campaign" WHERE "id" = $1 AND "userId" = $2 FOR UPDATE`,
        [c.id, c.userId],
      );
      // Two launches of one draft at once: the second is refused (409), never a second send.
      if (existing && (existing.status !== "Draft" || existing.statusDetail === LAUNCHING))
        throw new ApiError("conflict", LAUNCH_IN_PROGRESS);
      existed = Boolean(existing);
      if (existing) {
        await client.query(
          `UPDATE "Campaign" SET "segmentId" = $1, "segmentName" = $2, "name" = $3, "subject" = $4, "description" = $5,
             "message" = $6, "trackingEnabled" = $7, "resendOfId" = $8, "statusDetail" = $9, "updatedAt" = $10 WHERE "id" = $11`,
          [
            c.segmentId,
            c.segmentName,
            c.name,
            c.subject,
            c.description,
            c.message,
            trackingValue(c) === 1,
            resendValue(c),
            LAUNCHING,
            new Date(now),
            c.id,
          ],
        );
      } else {
        await writeDraftRowPg(client, c, 0, LAUNCHING, now);
      }
      const [tally] = await query<{ customers: number }>(
        client,
        `SELECT coalesce((SELECT "customers" FROM "CustomerTally" WHERE "userId" = $1),
                         (SELECT count(*) FROM "Customer" WHERE "userId" = $1))::int AS "customers"`,
        [c.userId],
      );
      const room = Math.max(1, Number(tally?.customers ?? 0));
      // Held to the commit: a launch beside this one reserves its range after this one's.
      await client.query(`SELECT pg_advisory_xact_lock($1)`, [SEQ_RESERVATION_LOCK]);
      const [top] = await query<{ top: number }>(
        client,
        `SELECT GREATEST(coalesce((SELECT max("seq") FROM "Delivery"), 0), coalesce((SELECT max("lastSeq") FROM "Campaign"), 0))::bigint AS "top"`,
      );
      const base = Number(top?.top ?? 0);
      await client.query(`UPDATE "Campaign" SET "firstSeq" = $1, "lastSeq" = $2 WHERE "id" = $3`, [
        base + 1,
        base + room,
        c.id,
      ]);
      return { base, room };
    });
  } catch (error) {
    // A launch of the same new campaign committed its draft first.
    if ((error as { code?: string }).code === UNIQUE_VIOLATION) throw new ApiError("conflict", LAUNCH_IN_PROGRESS);
    throw error;
  }
  const { base, room } = reserved;

  // Customers in id order, seq following it; the slice's last customer says where the next begins.
  // No row comes back to JavaScript.
  const insert = `WITH "added" AS (
      INSERT INTO "Delivery" ("seq", "campaignId", "userId", "customerId", "name", "email", "phone", "status", "nextAttemptAt", "updatedAt")
      SELECT ${after(where, 1)}::int + row_number() OVER (ORDER BY "id"), ${after(where, 2)}, "userId", "id",
        trim("firstName" || ' ' || "lastName"), "email", "phone", 'pending', ${after(where, 3)}::bigint, ${after(where, 3)}::bigint
      FROM (SELECT "userId", "id", "firstName", "lastName", "email", "phone" FROM "Customer"
            WHERE "id" > ${after(where, 4)} AND (${where.sql})${suppressing ? NOT_SUPPRESSED : ""}
            ORDER BY "id" LIMIT ${after(where, 5)}) "c"
      RETURNING "customerId"
    )
    SELECT count(*)::int AS "n", max("customerId") AS "last" FROM "added"`;
  let afterId = "";
  let written = 0;
  let done = false;
  const step = async (): Promise<boolean> => {
    if (done) return false;
    const limit = Math.min(slice, room - written);
    const n =
      limit <= 0
        ? 0
        : await transaction(pg, async (client) => {
            const [row] = await query<{ n: number; last: string | null }>(client, insert, [
              ...where.params,
              base + written,
              c.id,
              now,
              afterId,
              limit,
            ]);
            if (!row || row.n === 0) return 0;
            afterId = row.last ?? afterId;
            await client.query(`UPDATE "Campaign" SET "updatedAt" = $1 WHERE "id" = $2`, [new Date(), c.id]);
            return row.n;
          });
    written += n;
    if (n === 0) done = true;
    return !done;
  };

  return {
    step,
    async finish() {
      while (await step());
      const audience = await transaction(pg, async (client) => {
        if (written === 0) {
          if (existed)
            await client.query(
              `UPDATE "Campaign" SET "statusDetail" = '', "firstSeq" = 0, "lastSeq" = 0 WHERE "id" = $1`,
              [c.id],
            );
          else await client.query(`DELETE FROM "Campaign" WHERE "id" = $1`, [c.id]);
          return 0;
        }
        await client.query(
          `UPDATE "Campaign" SET "status" = 'Active', "statusDetail" = '', "launchedAt" = $1, "updatedAt" = $1,
             "audienceSize" = $2, "pendingCount" = $2, "suppressedAtLaunch" = $3, "lastSeq" = $4 WHERE "id" = $5`,
          [new Date(now), written, leftOut, base + written, c.id],
        );
        return written;
      });
      // A large launch changes what the queue holds (its share of pending rows): the planner must
      // know before the claims and outcomes plan, or it takes "pending" for rare and scans every
      // pending row to find a batch's hundred (autovacuum would analyse only a minute or more later).
      if (audience >= ANALYZE_AFTER_ROWS) await pg.pool.query(`ANALYZE "Delivery"`);
      return audience;
    },
  };
}

export async function recoverInterruptedLaunchesPg(pg: Postgres, staleMs: number, now: number): Promise<number> {
  const stale = await query<{ id: string }>(
    pg,
    `SELECT "id" FROM "Campaign" WHERE "status" = 'Draft' AND "statusDetail" = $1 AND "updatedAt" < $2`,
    [LAUNCHING, new Date(now - staleMs)],
  );
  for (const { id } of stale) {
    while (((await pg.pool.query(deleteDeliverySlice(), [id])).rowCount ?? 0) > 0);
    await pg.pool.query(
      `UPDATE "Campaign" SET "statusDetail" = $1, "firstSeq" = 0, "lastSeq" = 0, "updatedAt" = $2 WHERE "id" = $3`,
      [LAUNCH_INTERRUPTED, new Date(now), id],
    );
  }
  return stale.length;
}
