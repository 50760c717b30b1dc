// Tests (Vitest): two projects. "sqlite" runs every test file; "postgres" runs again, on a fresh
// PostgreSQL database per file, every test file under app/models/ and any other whose first line is
// `// @engines sqlite postgres` (tests/postgres-suite.ts finds them; docs/testing.md states the
// rule). Test files run two at a time, one per core of the 2-core CI machine (Vitest's own default
// there is one: cores less one).
import { vitePlugin as remix } from "@remix-run/dev";
import tailwindcss from "@tailwindcss/vite";
import path from "node:path";
import { defineConfig } from "vitest/config";
import { postgresSuite } from "./tests/postgres-suite";

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
    // Most test files wait on something (a child process, a server, PostgreSQL) much of the time, so
    // two at once on two cores keep both busy; Vitest's default on two cores is one.
    maxWorkers: 2,
    minWorkers: 1,
    testTimeout: 30_000,
    // As Playwright in CI: a test that fails is run once more, and a real break fails twice. The
    // closing summary (scripts/test-summary.mjs) names every failure.
    retry: process.env.CI ? 1 : 0,
    hookTimeout: 60_000,
    // Every test on SQLite; app/models/ and the files marked `// @engines sqlite postgres` once more
    // on PostgreSQL (tests/postgres-suite.ts, docs/decisions/0033-postgresql-runtime.md).
    // Each project names its files: with `extends: true` Vitest joins an include list to the root's
    // rather than replacing it, so the root has none.
    projects: [
      { extends: true, test: { name: "sqlite", include: ALL_TESTS } },
      {
        extends: true,
        test: {
          name: "postgres",
          include: postgresSuite(import.meta.dirname),
          env: { TEST_DATABASE_ENGINE: "postgres" },
        },
      },
    ],
  },
});
