// The app's Remix build as the development server loads it (Vite in middleware mode), for the
// tests that drive server/app.ts's request listener with real requests.
import path from "node:path";
import type { ServerBuild } from "@remix-run/node";
import { createServer, type ViteDevServer } from "vite";

const root = path.resolve(import.meta.dirname, "../..");

export async function loadDevServerBuild(): Promise<{ vite: ViteDevServer; build: ServerBuild }> {
  // vite.config.ts leaves Remix's plugin out under Vitest; the server needs it, as in development.
  const vitest = process.env.VITEST;
  delete process.env.VITEST;
  let vite: ViteDevServer;
  try {
    vite = await createServer({
      root,
      logLevel: "error",
      server: { middlewareMode: true, hmr: false, watch: null },
      appType: "custom",
    });
  } finally {
    process.env.VITEST = vitest;
  }
  const build = (await vite.ssrLoadModule("virtual:remix/server-build")) as ServerBuild;
  return { vite, build };
}

/** What the server is called in a test's name: Remix's handler alone, or with the /api fast path. */
export type RequestServerName = "Remix's handler" | "the /api server";

/**
 * The server's own request listener (server/app.ts, with its clientError listener) on a loopback
 * port, twice: once answering everything through Remix's handler, once with the /api fast path in
 * front. `close()` stops both and Vite.
 */
export async function startRequestServers(): Promise<{
  ports: Record<RequestServerName, number>;
  close(): Promise<void>;
}> {
  const [{ answerClientError, appOf, createRequestListener }, { pino }, http] = await Promise.all([
    import("../../server/app"),
    import("pino"),
    import("node:http"),
  ]);
  const { vite, build } = await loadDevServerBuild();
  const log = pino({ level: "silent" });
  const servers: import("node:http").Server[] = [];
  const ports = {} as Record<RequestServerName, number>;
  for (const [name, fastApi] of [
    ["Remix's handler", undefined],
    ["the /api server", build],
  ] as const) {
    const server = http.createServer(
      createRequestListener({ build, app: appOf(build), log, mode: "production", vite, fastApi }),
    );
    server.on("clientError", answerClientError);
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    servers.push(server);
    ports[name] = (server.address() as import("node:net").AddressInfo).port;
  }
  return {
    ports,
    async close() {
      for (const server of servers) {
        server.closeAllConnections();
        await new Promise<void>((resolve) => server.close(() => resolve()));
      }
      await vite.close();
    },
  };
}
