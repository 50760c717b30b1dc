import { vitePlugin as remix } from "@remix-run/dev";
import tailwindcss from "@tailwindcss/vite";
import path from "node:path";
import { defineConfig } from "vitest/config";
import { POSTGRES_SUITE } from "./tests/postgres-suite";

declare module "@remix-run/node" {
  interface Future {
    v3_singleFetch: true;
  }
}

const ALL_TESTS = [
  "app/**/*.test.ts",
  "app/**/*.test.tsx",
  "server/**/*.test.ts",
  "cli/**/*.test.ts",
  "tests/**/*.test.ts",
  "prisma/**/*.test.ts",
  "jobs/**/*.test.ts",
];

export default defineConfig({
  plugins: [
    tailwindcss(),
    !process.env.VITEST &&
      remix({
        ignoredRouteFiles: ["**/*"],
        future: {
          v3_fetcherPersist: true,
          v3_relativeSplatPath: true,
          v3_throwAbortReason: true,
          v3_singleFetch: true,
          v3_lazyRouteDiscovery: true,
          v3_routeConfig: true,
        },
      }),
  ],
  resolve: { alias: { "~": path.resolve(import.meta.dirname, "app") } },
  server: { port: 3000 },
  test: {
    exclude: ["tests/e2e/**", "node_modules/**"],
    // An unexpected console.error or React warning fails the test (see the file).
    setupFiles: ["tests/setup/console.ts"],
    pool: "forks",
    testTimeout: 30_000,
    // As Playwright in CI: a test that fails is run once more, and a real break fails twice. The
    // closing summary (scripts/test-summary.mjs) names every failure.
    retry: process.env.CI ? 1 : 0,
    hookTimeout: 60_000,
    // Every test on SQLite; the model and service tests of tests/postgres-suite.ts once more on
    // PostgreSQL (docs/decisions/0033-postgresql-runtime.md).
    // Each project names its files: with `extends: true` Vitest joins an include list to the root's
    // rather than replacing it, so the root has none.
    projects: [
      { extends: true, test: { name: "sqlite", include: ALL_TESTS } },
      {
        extends: true,
        test: { name: "postgres", include: POSTGRES_SUITE, env: { TEST_DATABASE_ENGINE: "postgres" } },
      },
    ],
  },
});
