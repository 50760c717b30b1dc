// The health check on PostgreSQL: both of the process's pools, the raw one the hot reads use
// (first: its errors carry the server's codes, which describeConnectError() turns into what to
// check), then Prisma's. Within the time: a host that drops packets would otherwise hold the check
// until TCP gives up, minutes later, and a load balancer wants a no it can act on.
import { describeConnectError } from "~/db/migrate-postgres.server";
import { postgres, query } from "~/db/postgres.server";
import { db } from "~/db/prisma.server";
import { getEnv } from "~/env.server";
import type { HealthStore } from "~/models/health/contract";
import { HEALTH_TIMEOUT_MS } from "~/models/health/rows";

export const postgresHealth: HealthStore = {
  async databaseAnswers() {
    const url = getEnv().databaseUrl;
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
  },
};
