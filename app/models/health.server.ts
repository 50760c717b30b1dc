// The health check's question to the database (app/routes/healthz.ts).
import { databaseEngine } from "~/db/connection.server";
import { describeConnectError } from "~/db/migrate-postgres.server";
import { postgres, query } from "~/db/postgres.server";
import { db } from "~/db/prisma.server";
import { getEnv } from "~/env.server";

/** How long the check waits for PostgreSQL before it calls the database away. */
export const HEALTH_TIMEOUT_MS = 5_000;

/**
 * Resolves when the database answers a query through the application's own clients; else throws
 * an error that says what is wrong (for the log).
 */
export async function databaseAnswers(): Promise<void> {
  if (databaseEngine() === "postgres") return postgresAnswers(getEnv().databaseUrl);
  await db().$queryRawUnsafe("SELECT 1");
}

// Both of the process's pools: the raw one the hot reads use (first: its errors carry the server's
// codes, which describeConnectError() turns into what to check), then Prisma's. Within the time: a
// host that drops packets would otherwise hold the check until TCP gives up, minutes later, and a
// load balancer wants a no it can act on.
async function postgresAnswers(url: string): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new Error(describeConnectError(url, new Error(`no answer within ${HEALTH_TIMEOUT_MS} ms`)))),
      HEALTH_TIMEOUT_MS,
    );
  });
  const ask = async () => {
    try {
      await query(postgres(), "SELECT 1");
    } catch (error) {
      throw new Error(describeConnectError(url, error), { cause: error });
    }
    await db().$queryRawUnsafe("SELECT 1");
  };
  try {
    await Promise.race([ask(), timeout]);
  } finally {
    clearTimeout(timer);
  }
}
