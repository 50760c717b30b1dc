// For the container's health check and load balancers: 200 when the database answers, else 503
// 'Database unavailable' (the log says why: app/models/health/). It also says how long
// this worker's event loop was held up lately (p99 of the delay over the last minute, in ms): the
// figure that shows whether long work is blocking requests.
//
// The delay is how late the loop ran: Node's histogram samples the time between ticks of a timer
// that fires every RESOLUTION_MS, so an idle loop reads about RESOLUTION_MS; that interval is taken
// off (as @fastify/under-pressure does), and an idle loop reads about 0.
import { monitorEventLoopDelay } from "node:perf_hooks";
import { methodNotAllowed } from "~/lib/api.server";
import { logger } from "~/lib/logger.server";
import { singleton } from "~/lib/singleton.server";
import { health } from "~/models/health/store.server";

const WINDOW_MS = 60_000;
export const RESOLUTION_MS = 10;

const loop = singleton("event-loop-delay", () => {
  const histogram = monitorEventLoopDelay({ resolution: RESOLUTION_MS });
  histogram.enable();
  const state = { histogram, resetAt: Date.now() };
  return state;
});

function eventLoopDelayP99Ms(): number {
  const p99 = Math.max(0, loop.histogram.percentile(99) / 1e6 - RESOLUTION_MS);
  if (Date.now() - loop.resetAt > WINDOW_MS) {
    loop.histogram.reset();
    loop.resetAt = Date.now();
  }
  return Math.round(p99 * 10) / 10;
}

export async function loader() {
  try {
    await health.databaseAnswers();
    return Response.json(
      { status: "ok", eventLoopDelayP99Ms: eventLoopDelayP99Ms() },
      { headers: { "Cache-Control": "no-store" } },
    );
  } catch (error) {
    logger().error({ err: error }, `Health check failed: ${error instanceof Error ? error.message : String(error)}`);
    return Response.json(
      { status: "error", message: "Database unavailable" },
      { status: 503, headers: { "Cache-Control": "no-store" } },
    );
  }
}

export const action = methodNotAllowed("GET");
