// The send rate's bucket on PostgreSQL: the twin of ./send-rate.server.ts. One row of SendRate per
// channel, shared by every instance; a take is one statement that locks the row, refills it to
// `now`, and takes what it holds (the row lock makes two instances' takes one after the other).
import { type Postgres, query } from "~/db/postgres.server";
import type { SendRate } from "~/models/deliveries/send-rate.server";

// The row, refilled to $3 at $2 a second (at most $2), less what is taken ($4 at most, whole
// tokens). A clock behind the row's (another instance's) refills nothing and moves nothing back.
const TAKE = `
  WITH "bucket" AS (
    SELECT "channel", least($2::float8, "tokens" + greatest(0, $3::bigint - "refilledAt") / 1000.0 * $2::float8) AS "held"
    FROM "SendRate" WHERE "channel" = $1
    FOR UPDATE
  )
  UPDATE "SendRate" "s"
  SET "tokens" = "bucket"."held" - least($4::int, floor("bucket"."held")),
      "refilledAt" = greatest("s"."refilledAt", $3::bigint)
  FROM "bucket" WHERE "s"."channel" = "bucket"."channel"
  RETURNING least($4::int, floor("bucket"."held"))::int AS "granted"`;

export async function takeSendTokensPg(pg: Postgres, rate: SendRate, want: number, now: number): Promise<number> {
  const params = [rate.channel, rate.perSecond, now, want];
  let [row] = await query<{ granted: number }>(pg, TAKE, params, { prepare: true });
  if (!row) {
    // The channel's first take: its row starts full (a second's worth), as a new bucket does.
    await query(
      pg,
      `INSERT INTO "SendRate" ("channel", "tokens", "refilledAt") VALUES ($1, $2, $3) ON CONFLICT ("channel") DO NOTHING`,
      [rate.channel, rate.perSecond, now],
    );
    [row] = await query<{ granted: number }>(pg, TAKE, params, { prepare: true });
  }
  return row?.granted ?? 0;
}

export async function returnSendTokensPg(pg: Postgres, rate: SendRate, unused: number, now: number): Promise<void> {
  await query(
    pg,
    `UPDATE "SendRate"
     SET "tokens" = least($2::float8, "tokens" + greatest(0, $3::bigint - "refilledAt") / 1000.0 * $2::float8 + $4::int),
         "refilledAt" = greatest("refilledAt", $3::bigint)
     WHERE "channel" = $1`,
    [rate.channel, rate.perSecond, now, unused],
    { prepare: true },
  );
}
