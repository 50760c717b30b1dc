// For the container's health check and load balancers: 200 when the database answers.
import { db } from "~/db.server";
import { logger } from "~/lib/logger.server";

export async function loader() {
  try {
    await db().$queryRawUnsafe("SELECT 1");
    return Response.json({ status: "ok" }, { headers: { "Cache-Control": "no-store" } });
  } catch (error) {
    logger().error({ err: error }, "Health check failed");
    return Response.json({ status: "error", message: "Database unavailable" }, { status: 503 });
  }
}
