// The test files that run a second time on PostgreSQL (TEST_DATABASE_ENGINE=postgres, the
// "postgres" project in vite.config.ts): each uses useTestDatabase() (tests/helpers/db.ts), which
// then gives it a fresh migrated PostgreSQL database instead of a SQLite file, so the same
// assertions hold on both engines. A model ported to PostgreSQL adds its tests here, one line each.
export const POSTGRES_SUITE: string[] = [
  "app/db/postgres.server.test.ts",
  "app/services/notifications.server.test.ts",
  "app/services/users.server.test.ts",
  "app/services/idempotency.server.test.ts",
  "app/services/rate-limit.server.test.ts",
  "tests/routes/healthz.test.ts",
  "tests/routes/auth-api.test.ts",
  "tests/routes/notifications-api.test.ts",
  "tests/routes/methods.test.ts",
  "server/app.test.ts",
  "server/api-server.test.ts",
  "server/hostile-requests.test.ts",
  "app/services/orders.server.test.ts",
  "app/routes/api/orders.test.ts",
  "app/routes/orders-pages.test.ts",
  "app/routes/api/segments.test.ts",
  "app/routes/segments-form.test.ts",
  "app/services/dashboard/stats.server.test.ts",
  "app/services/dashboard/insights.server.test.ts",
  "app/routes/api/stats-historical.test.ts",
  "tests/routes/ai-insights.test.ts",
  "tests/routes/time-zones.test.ts",
  "app/models/attribution.server.test.ts",
  "tests/routes/ai-suggestions.test.ts",
  "app/services/customers.server.test.ts",
  "app/services/customer-sort.server.test.ts",
  "app/services/customer-import.server.test.ts",
];
