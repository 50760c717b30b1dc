// What the health check asks the database (app/routes/healthz.ts). A folder of app/models/ though
// it reads no table: its question has a body per engine, chosen by the door as a domain's are.

export type HealthStore = {
  /**
   * Resolves when the database answers a query through the application's own clients; else throws
   * an error that says what is wrong (for the log).
   */
  databaseAnswers(): Promise<void>;
};
