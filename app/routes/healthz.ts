// For the container's health check and load balancers: 200 when the database answers.
import { db } from "~/db.server";

export async function loader() {
  try {
    await db().$queryRawUnsafe("SELECT 1");
    return Response.json({ status: "ok" }, { headers: { "Cache-Control": "no-store" } });
  } catch (error) {
    console.error("Health check failed", error);
    return Response.json({ status: "error", message: "Database unavailable" }, { status: 503 });
  }
}
