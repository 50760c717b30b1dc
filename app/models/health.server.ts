// The health check's question to the database (app/routes/healthz.ts).
import { db } from "~/db.server";

/** Resolves when the database answers a query through the application's own client; else throws. */
export async function databaseAnswers(): Promise<void> {
  await db().$queryRawUnsafe("SELECT 1");
}
