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
