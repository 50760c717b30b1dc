// The launch domain on PostgreSQL (./contract.ts says what each function does; ./store.server.ts
// drives a launch with them): the same names, parameters and answers as ./sqlite.server.ts.
//
// The audience WHERE is the compiler's PostgreSQL text (placeholders $1…$k); the statements here
// number their own parameters after it. Customers are taken in "id" order (ids are time-ordered
// hex, so the (userId, id) index gives them in creation order, as SQLite's rowid does), a slice a
// transaction. Two launches at once get their seq ranges one after the other under a
// transaction-level advisory lock; two launches of one draft, the second a 409.
import { openConnection } from "~/db/connection.server";
import { postgresOf } from "~/db/engine.server";
import { type Postgres, postgres, query, transaction } from "~/db/postgres.server";
import { ApiError } from "~/lib/api.server";
import {
  CONTENT_SET,
  contentValues,
  draftValues,
  INSERT_DRAFT_SQL,
  resendValue,
  trackingValue,
} from "~/models/campaigns/rows";
import type { LaunchStore } from "~/models/launch/contract";
import {
  changedSince,
  deleteDeliverySlice,
  LAUNCH_IN_PROGRESS,
  LAUNCH_INTERRUPTED,
  LAUNCHING,
  NOT_SUPPRESSED,
  SCHEDULE_CHANGED,
  SEQ_RESERVATION_LOCK,
} from "~/models/launch/rows";
import type { CompiledWhere } from "~/models/segments/audience/rows";

const UNIQUE_VIOLATION = "23505";
/** A launch of at least this many rows refreshes the delivery table's statistics. */
const ANALYZE_AFTER_ROWS = 10_000;

const DELETE_DELIVERY_SLICE = deleteDeliverySlice("$1");
const INSERT_DRAFT = INSERT_DRAFT_SQL((n) => `$${n}`);

/** A WHERE the SQLite compiler wrote, given to PostgreSQL by mistake: said at once, not as a syntax error. */
function checkDialect(where: CompiledWhere): void {
  if (where.params.length > 0 && !where.sql.includes("$1"))
    throw new Error("The audience WHERE was compiled for SQLite; on PostgreSQL compile it with the postgres dialect");
}

/** `$n` for the parameter after the WHERE's (1-based within the statement's own). */
const after = (where: CompiledWhere, n: number) => `$${where.params.length + n}`;

/** The connection given, else the process's pool. */
const on = (connection?: Parameters<typeof postgresOf>[0]): Postgres =>
  connection ? postgresOf(connection) : postgres();

export const postgresLaunch: LaunchStore = {
  // There is no file: a pool of its own to DATABASE_URL (one connection at a time).
  async openConnection() {
    return openConnection({ poolSize: 2, applicationName: "crm launch" });
  },

  async countAudience(where, connection) {
    checkDialect(where);
    const [row] = await query<{ n: number }>(
      on(connection),
      `SELECT count(*)::int AS "n" FROM "Customer" WHERE ${where.sql}`,
      [...where.params],
    );
    return Number(row?.n ?? 0);
  },

  async suppressedInAudience(userId, where, connection) {
    checkDialect(where);
    // Driven from the list: each suppressed address is one probe of the customers' (userId, email) key.
    const [row] = await query<{ n: number }>(
      on(connection),
      `SELECT count(*)::int AS "n" FROM "Customer"
       WHERE "userId" = ${after(where, 1)} AND "email" IN (SELECT "email" FROM "Suppression" WHERE "userId" = ${after(where, 1)})
         AND (${where.sql})`,
      [...where.params, userId],
    );
    return Number(row?.n ?? 0);
  },

  nonOpenersWhere(userId, campaignId) {
    return {
      sql: `"userId" = $1 AND EXISTS (SELECT 1 FROM "Delivery" "d" WHERE "d"."campaignId" = $2 AND "d"."customerId" = "Customer"."id"
      AND "d"."userId" = "Customer"."userId" AND "d"."status" IN ('sent', 'delivered') AND "d"."openedAt" IS NULL AND "d"."clickedAt" IS NULL)`,
      params: [userId, campaignId],
    };
  },

  checkWhere: checkDialect,

  async hasSuppressions(connection, userId) {
    const rows = await query(postgresOf(connection), `SELECT 1 FROM "Suppression" WHERE "userId" = $1 LIMIT 1`, [
      userId,
    ]);
    return rows.length > 0;
  },

  async reserve(connection, c, now) {
    try {
      return await transaction(postgresOf(connection), async (client) => {
        const [existing] = await query<{ status: string; statusDetail: string; updatedAt: number }>(
          client,
          `SELECT "status", "statusDetail", "updatedAt" FROM "Campaign" WHERE "id" = $1 AND "userId" = $2 FOR UPDATE`,
          [c.id, c.userId],
        );
        // Two launches of one draft at once: the second is refused (409), never a second send.
        if (existing && (existing.status !== "Draft" || existing.statusDetail === LAUNCHING))
          throw new ApiError("conflict", LAUNCH_IN_PROGRESS);
        if (existing && changedSince(c.unchangedSince, existing.updatedAt))
          throw new ApiError("conflict", SCHEDULE_CHANGED);
        if (existing) {
          await client.query(
            `UPDATE "Campaign" SET ${CONTENT_SET((n) => `$${n}`, 1)},
               "trackingEnabled" = $9, "resendOfId" = $10, "statusDetail" = $11, "updatedAt" = $12 WHERE "id" = $13`,
            [...contentValues(c), trackingValue(c) === 1, resendValue(c), LAUNCHING, new Date(now), c.id],
          );
        } else {
          // A new campaign is a draft marked LAUNCHING until its audience is written.
          await query(client, INSERT_DRAFT, [
            ...draftValues(c),
            LAUNCHING,
            0,
            new Date(now),
            trackingValue(c) === 1,
            resendValue(c),
          ]);
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
        return { base, room, existed: Boolean(existing) };
      });
    } catch (error) {
      // A launch of the same new campaign committed its draft first.
      if ((error as { code?: string }).code === UNIQUE_VIOLATION) throw new ApiError("conflict", LAUNCH_IN_PROGRESS);
      throw error;
    }
  },

  // Customers in id order, seq following it; the slice's last customer says where the next begins.
  // No row comes back to JavaScript.
  async sliceWriter(connection, { campaignId, where, suppressing, now }) {
    const pg = postgresOf(connection);
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
    return async (seqBase, limit) =>
      transaction(pg, async (client) => {
        const [row] = await query<{ n: number; last: string | null }>(client, insert, [
          ...where.params,
          seqBase,
          campaignId,
          now,
          afterId,
          limit,
        ]);
        if (!row || row.n === 0) return 0;
        afterId = row.last ?? afterId;
        await client.query(`UPDATE "Campaign" SET "updatedAt" = $1 WHERE "id" = $2`, [new Date(), campaignId]);
        return row.n;
      });
  },

  async finish(connection, { campaignId, existed, written, leftOut, lastSeq, now }) {
    const pg = postgresOf(connection);
    const audience = await transaction(pg, async (client) => {
      if (written === 0) {
        if (existed)
          await client.query(
            `UPDATE "Campaign" SET "statusDetail" = '', "firstSeq" = 0, "lastSeq" = 0 WHERE "id" = $1`,
            [campaignId],
          );
        else await client.query(`DELETE FROM "Campaign" WHERE "id" = $1`, [campaignId]);
        return 0;
      }
      await client.query(
        `UPDATE "Campaign" SET "status" = 'Active', "statusDetail" = '', "launchedAt" = $1, "updatedAt" = $1,
           "audienceSize" = $2, "pendingCount" = $2, "suppressedAtLaunch" = $3, "lastSeq" = $4 WHERE "id" = $5`,
        [new Date(now), written, leftOut, lastSeq, campaignId],
      );
      return written;
    });
    // A large launch changes what the queue holds (its share of pending rows): the planner must
    // know before the claims and outcomes plan, or it takes "pending" for rare and scans every
    // pending row to find a batch's hundred (autovacuum would analyse only a minute or more later).
    if (audience >= ANALYZE_AFTER_ROWS) await pg.pool.query(`ANALYZE "Delivery"`);
    return audience;
  },

  async recoverInterrupted(connection, staleMs, now) {
    const pg = postgresOf(connection);
    const stale = await query<{ id: string }>(
      pg,
      `SELECT "id" FROM "Campaign" WHERE "status" = 'Draft' AND "statusDetail" = $1 AND "updatedAt" < $2`,
      [LAUNCHING, new Date(now - staleMs)],
    );
    for (const { id } of stale) {
      while (((await pg.pool.query(DELETE_DELIVERY_SLICE, [id])).rowCount ?? 0) > 0);
      await pg.pool.query(
        `UPDATE "Campaign" SET "statusDetail" = $1, "firstSeq" = 0, "lastSeq" = 0, "updatedAt" = $2 WHERE "id" = $3`,
        [LAUNCH_INTERRUPTED, new Date(now), id],
      );
    }
    return stale.length;
  },
};
