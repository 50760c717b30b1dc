// @engines sqlite postgres
// /healthz as a load balancer sees it: 200 with the event loop's delay while the database
// answers; on PostgreSQL, a 503 saying the database is unavailable when it is away — a port where
// nothing listens, a database that was dropped, a server that accepts the connection and then says
// nothing (answered within HEALTH_TIMEOUT_MS, not when TCP gives up) — and 200 again once it is back.
import net from "node:net";
import { afterAll, describe, expect, it } from "vitest";
import { TEST_ENGINE, useTestDatabase as setUpTestDatabase } from "../helpers/db";
import { createMigratedPostgresDatabase } from "../helpers/postgres";

setUpTestDatabase();

const healthz = await import("~/routes/healthz");
const { HEALTH_TIMEOUT_MS } = await import("~/models/health/store.server");
const { resetEnvCache } = await import("~/env.server");

const UNAVAILABLE = { status: "error", message: "Database unavailable" };

/** Runs the check with DATABASE_URL pointing at `url`, then puts the test's own database back. */
async function checkAgainst(url: string): Promise<{ status: number; body: unknown; ms: number }> {
  const own = process.env.DATABASE_URL;
  process.env.DATABASE_URL = url;
  resetEnvCache();
  try {
    const started = Date.now();
    const res = await healthz.loader();
    return { status: res.status, body: await res.json(), ms: Date.now() - started };
  } finally {
    process.env.DATABASE_URL = own;
    resetEnvCache();
  }
}

describe("/healthz", () => {
  it("answers 200 with the event loop's delay, not cached, while the database answers", async () => {
    const res = await healthz.loader();
    expect(res.status).toBe(200);
    const body = (await res.json()) as { status: string; eventLoopDelayP99Ms: number };
    expect(body.status).toBe("ok");
    expect(body.eventLoopDelayP99Ms).toBeGreaterThanOrEqual(0);
    expect(res.headers.get("Cache-Control")).toBe("no-store");
  });
});

describe.runIf(TEST_ENGINE === "postgres")("/healthz when PostgreSQL is away", () => {
  // A server that takes the connection and never speaks: what a host that drops packets looks like.
  const sockets = new Set<net.Socket>();
  const silent = net.createServer((socket) => {
    sockets.add(socket);
    socket.on("error", () => undefined);
  });
  afterAll(async () => {
    for (const socket of sockets) socket.destroy();
    await new Promise((resolve) => silent.close(resolve));
  });

  it("is a 503 saying so when nothing listens on the port, and 200 again with the database back", async () => {
    const away = await checkAgainst("postgres://postgres@127.0.0.1:1/crm");
    expect(away.status).toBe(503);
    expect(away.body).toEqual(UNAVAILABLE);
    expect((await healthz.loader()).status).toBe(200);
  });

  it("is a 503 when the database was dropped", async () => {
    const doomed = await createMigratedPostgresDatabase("crm_healthz");
    expect((await checkAgainst(doomed.url)).status).toBe(200);
    await doomed.drop();
    const dropped = await checkAgainst(doomed.url);
    expect(dropped.status).toBe(503);
    expect(dropped.body).toEqual(UNAVAILABLE);
  });

  it("is a 503 within its time when the server accepts the connection and says nothing", async () => {
    await new Promise<void>((resolve) => silent.listen(0, "127.0.0.1", resolve));
    const port = (silent.address() as net.AddressInfo).port;
    const hung = await checkAgainst(`postgres://postgres@127.0.0.1:${port}/crm`);
    expect(hung.status).toBe(503);
    expect(hung.body).toEqual(UNAVAILABLE);
    expect(hung.ms).toBeGreaterThanOrEqual(HEALTH_TIMEOUT_MS - 50);
    expect(hung.ms).toBeLessThan(HEALTH_TIMEOUT_MS + 2_000);
  });
});
