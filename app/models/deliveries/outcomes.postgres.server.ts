// What became of claimed rows, on PostgreSQL: the twins of ./outcomes.server.ts. A batch of
// outcomes is a few statements over arrays (unnest), not a statement per row, in one transaction
// with the campaign's counters and the suppression of bounced addresses.
//
// Each UPDATE … FROM unnest(…) also says `"seq" = ANY(the seqs)`: the rows are then found by the
// primary key whatever the statistics say. Without it, a queue whose statistics predate the launch
// (no ANALYZE yet: "pending" looks rare) was joined by scanning every pending row of the table.
import type pg from "pg";
import { type Postgres, query, transaction } from "~/db/postgres.server";
import type { AddressToSuppress, BouncedAddress, SendOutcome } from "~/models/deliveries/outcomes.server";
import { CANCELLED_DETAILS } from "~/models/deliveries/outcomes.server";
import { noteRecorded } from "~/models/deliveries/send-checks.postgres.server";
import { LAUNCH_SLICE } from "~/models/deliveries/launch.server";
import type { NewSuppression } from "~/models/suppressions/rows";
import { suppressInPostgresTransaction } from "~/models/suppressions/store.server";

/** suppressAddresses inside the caller's transaction. */
export async function suppressAddressesPg(
  client: pg.PoolClient,
  entries: readonly AddressToSuppress[],
  now: number,
): Promise<void> {
  const withAddress = entries.filter((e) => e.email);
  if (withAddress.length === 0) return;
  const names = new Map(
    (
      await query<{ id: string; name: string }>(
        client,
        `SELECT "id", "name" FROM "Campaign" WHERE "id" = ANY($1::text[])`,
        [[...new Set(withAddress.map((e) => e.campaignId))]],
      )
    ).map((r) => [r.id, r.name]),
  );
  const byTenant = new Map<string, NewSuppression[]>();
  for (const b of withAddress) {
    let list = byTenant.get(b.userId);
    if (!list) byTenant.set(b.userId, (list = []));
    list.push({
      email: b.email,
      reason: b.reason,
      campaignId: b.campaignId,
      campaignName: names.get(b.campaignId) ?? "",
      details: b.details,
    });
  }
  for (const [userId, list] of byTenant) await suppressInPostgresTransaction(client, userId, list, now);
}

export async function recordOutcomesPg(
  pg: Postgres,
  campaignId: string,
  outcomes: readonly SendOutcome[],
  now: number,
): Promise<void> {
  const held = outcomes.filter((o) => o.outcome === "held");
  const retries = outcomes.filter((o) => o.outcome === "retry");
  const finals = outcomes.filter(
    (o): o is Extract<SendOutcome, { details: string }> =>
      o.outcome === "sent" || o.outcome === "delivered" || o.outcome === "failed" || o.outcome === "bounced",
  );
  await transaction(pg, async (client) => {
    if (held.length > 0)
      await client.query(
        `UPDATE "Delivery" "d" SET "nextAttemptAt" = $1, "attempts" = "d"."attempts" - 1
         FROM unnest($2::int[], $3::int[]) AS "o"("seq", "attempts")
         WHERE "d"."seq" = ANY($2::int[]) AND "d"."seq" = "o"."seq" AND "d"."status" = 'pending' AND "d"."attempts" = "o"."attempts"`,
        [now, held.map((o) => o.seq), held.map((o) => o.attempts)],
      );
    let errors = 0;
    if (retries.length > 0) {
      const changed = await query<{ error: boolean }>(
        client,
        `UPDATE "Delivery" "d" SET "nextAttemptAt" = "o"."retryAt", "details" = "o"."details", "updatedAt" = $1
         FROM unnest($2::int[], $3::int[], $4::bigint[], $5::text[], $6::boolean[]) AS "o"("seq", "attempts", "retryAt", "details", "error")
         WHERE "d"."seq" = ANY($2::int[]) AND "d"."seq" = "o"."seq" AND "d"."status" = 'pending' AND "d"."attempts" = "o"."attempts"
         RETURNING "o"."error"`,
        [
          now,
          retries.map((o) => o.seq),
          retries.map((o) => o.attempts),
          retries.map((o) => (o.outcome === "retry" ? o.retryAt : now)),
          retries.map((o) => (o.outcome === "retry" ? o.details : "")),
          retries.map((o) => o.outcome === "retry" && o.error),
        ],
      );
      errors += changed.filter((r) => r.error).length;
    }
    const count = { sent: 0, delivered: 0, failed: 0, bounced: 0 };
    const bounced: BouncedAddress[] = [];
    if (finals.length > 0) {
      // Only while the row is still pending with this claim's attempt number (its lease token).
      const changed = await query<{
        status: keyof typeof count;
        error: boolean;
        userId: string;
        email: string;
        details: string;
      }>(
        client,
        `UPDATE "Delivery" "d" SET "status" = "o"."status", "details" = "o"."details", "updatedAt" = $1, "nextAttemptAt" = 0
         FROM unnest($2::int[], $3::int[], $4::text[], $5::text[], $6::boolean[]) AS "o"("seq", "attempts", "status", "details", "error")
         WHERE "d"."seq" = ANY($2::int[]) AND "d"."seq" = "o"."seq" AND "d"."status" = 'pending' AND "d"."attempts" = "o"."attempts"
         RETURNING "o"."status", "o"."error", "d"."userId", "d"."email", "o"."details"`,
        [
          now,
          finals.map((o) => o.seq),
          finals.map((o) => o.attempts),
          finals.map((o) => o.outcome),
          finals.map((o) => o.details),
          finals.map((o) => "error" in o && o.error),
        ],
      );
      for (const row of changed) {
        count[row.status] += 1;
        if ((row.status === "failed" || row.status === "bounced") && row.error) errors += 1;
        if (row.status === "bounced")
          bounced.push({ campaignId, userId: row.userId, email: row.email, details: row.details });
      }
    }
    const ended = count.sent + count.delivered + count.failed + count.bounced;
    // Dated even when nothing ended: the campaign's last change, as its completion reads it.
    await client.query(
      `UPDATE "Campaign" SET "pendingCount" = "pendingCount" - $1, "sentCount" = "sentCount" + $2,
           "deliveredCount" = "deliveredCount" + $3, "failedCount" = "failedCount" + $4, "bouncedCount" = "bouncedCount" + $5,
           "sendErrors" = "sendErrors" + $6, "updatedAt" = $7
         WHERE "id" = $8`,
      [ended, count.sent, count.delivered, count.failed, count.bounced, errors, new Date(now), campaignId],
    );
    await suppressAddressesPg(
      client,
      bounced.map((b) => ({ ...b, reason: "hard-bounced" })),
      now,
    );
  });
  // These claims are over: no message of theirs goes any more.
  noteRecorded(pg, outcomes);
}

export async function endCancelledRowsPg(pg: Postgres, now: number, slice = LAUNCH_SLICE): Promise<number> {
  const campaigns = await query<{ id: string }>(
    pg,
    `SELECT "id" FROM "Campaign" WHERE "status" = 'Cancelled' AND "pendingCount" > 0`,
  );
  let total = 0;
  for (const { id } of campaigns) {
    total += await transaction(pg, async (client) => {
      const { rowCount } = await client.query(
        `UPDATE "Delivery" SET "status" = 'cancelled', "details" = $1, "updatedAt" = $2, "nextAttemptAt" = 0
         WHERE "seq" IN (
           SELECT "seq" FROM "Delivery" WHERE "campaignId" = $3 AND "status" = 'pending' AND "nextAttemptAt" <= $2
           LIMIT ${slice} FOR UPDATE SKIP LOCKED
         )`,
        [CANCELLED_DETAILS, now, id],
      );
      const n = rowCount ?? 0;
      if (n > 0)
        await client.query(
          `UPDATE "Campaign" SET "pendingCount" = "pendingCount" - $1, "cancelledCount" = "cancelledCount" + $1,
             "updatedAt" = $2 WHERE "id" = $3`,
          [n, new Date(now), id],
        );
      return n;
    });
  }
  return total;
}
