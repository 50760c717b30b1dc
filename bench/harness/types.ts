// The contract between the bench runner (bench/harness/run.ts) and its sections (bench/sections/sqlite/*.ts).
// The runner builds one database with a seeded tenant of 1,000,000 customers (and another tenant
// of 100,000, to prove scoping), then runs each section and writes bench/results/report.json.
export type BenchContext = {
  /** Path of the seeded SQLite database (DATABASE_URL already points at it for services). */
  dbFile: string;
  /** The tenant with the large data set and the other tenant. */
  userId: string;
  otherUserId: string;
  /** How many customers the main tenant has. */
  customers: number;
  /** A temporary directory a section may use for files. */
  workDir: string;
  /** Reports progress on the terminal. */
  log: (message: string) => void;
};

/** One goal: the value measured, its limit, and whether it was met. */
export type BenchGoal = {
  goal: string;
  value: number;
  limit: number;
  unit: string;
  met: boolean;
  /**
   * On PostgreSQL, the SQLite goal of the same section this one is compared with when its text
   * differs (the report pairs goals of the same text otherwise).
   */
  sqliteGoal?: string;
};

/** What a section adds to the report: figures, ratios against raw better-sqlite3, goals met. */
export type BenchSection = {
  name: string;
  figures: Record<string, unknown>;
  goals: BenchGoal[];
};

export type BenchModule = { default: (ctx: BenchContext) => Promise<BenchSection> };

/**
 * A section on PostgreSQL (bench/sections/postgres/*.ts), run by bench/harness/run-postgres.ts in a process whose
 * DATABASE_URL is `databaseUrl`: a copy (`crm db copy`) of the seeded SQLite file `dbFile`, made
 * before any SQLite section ran, so both engines hold the same customers.
 */
export type PostgresBenchContext = BenchContext & {
  databaseUrl: string;
  /** The SQLite file's last "Customer" rowid when it was copied: those after it are not on PostgreSQL. */
  copiedCustomerRowid: number;
};

export type PostgresBenchModule = { default: (ctx: PostgresBenchContext) => Promise<BenchSection> };
