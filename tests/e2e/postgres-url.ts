// The file in the PostgreSQL e2e server's data directory that names its database: written by
// tests/e2e/start-servers.ts, read by tests/e2e/fixtures.ts (a module of its own, so that the
// server's start does not load Playwright's test).
export const POSTGRES_URL_FILE = "e2e-postgres-url";
