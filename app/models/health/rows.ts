// The health check's constants (app/routes/healthz.ts).

/** How long the check waits for PostgreSQL before it calls the database away. */
export const HEALTH_TIMEOUT_MS = 5_000;
