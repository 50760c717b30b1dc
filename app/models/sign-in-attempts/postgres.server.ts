// Sign-in attempts on PostgreSQL: one row an address in the table SignInAttempt, shared by every
// instance on the database.
import { postgresOf } from "~/db/engine.server";
import { postgres, query } from "~/db/postgres.server";
import type { SignInAttemptsStore } from "~/models/sign-in-attempts/contract";

// One statement counts the attempt and says the count: the first attempt of an address inserts
// its row; a later one adds one, or starts a new window when the row's has ended. The SET
// expressions all read the row as it was, so both CASEs ask the same question. Two instances
// counting one address at once queue on its row and each gets its own count.
const COUNT_SQL = `INSERT INTO "SignInAttempt" AS a ("key", "windowStart", "count") VALUES ($1, $2, 1)
ON CONFLICT ("key") DO UPDATE SET
  "count" = CASE WHEN EXCLUDED."windowStart" - a."windowStart" > $3::double precision * interval '1 millisecond'
    THEN 1 ELSE a."count" + 1 END,
  "windowStart" = CASE WHEN EXCLUDED."windowStart" - a."windowStart" > $3::double precision * interval '1 millisecond'
    THEN EXCLUDED."windowStart" ELSE a."windowStart" END
RETURNING "count"`;

// The rows of ended windows are deleted by whichever instance comes by, at most once a window per
// process: the table holds the addresses of the last minute or two, not every address ever seen.
let sweptAt = 0;

export const postgresSignInAttempts: SignInAttemptsStore = {
  async countSignInAttempt(key, now, windowMs, connection) {
    const pool = connection ? postgresOf(connection) : postgres();
    // A retry after a lost connection may count an attempt twice: erring towards the limit is safe.
    const [row] = await query<{ count: number }>(pool, COUNT_SQL, [key, new Date(now), windowMs]);
    if (now - sweptAt > windowMs) {
      sweptAt = now;
      await query(pool, `DELETE FROM "SignInAttempt" WHERE "windowStart" < $1`, [new Date(now - windowMs)]);
    }
    return row?.count ?? 1;
  },
};
