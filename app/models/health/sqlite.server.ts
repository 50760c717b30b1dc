// The health check on SQLite: the file answers Prisma's client.
import { db } from "~/db/prisma.server";
import type { HealthStore } from "~/models/health/contract";

export const sqliteHealth: HealthStore = {
  async databaseAnswers() {
    await db().$queryRawUnsafe("SELECT 1");
  },
};
