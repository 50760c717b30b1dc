// The contract between the bench runner (bench/run.ts) and its sections (bench/sections/*.ts).
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

/** What a section adds to the report: figures, ratios against raw better-sqlite3, goals met. */
export type BenchSection = {
  name: string;
  figures: Record<string, unknown>;
  goals: { goal: string; value: number; limit: number; unit: string; met: boolean }[];
};

export type BenchModule = { default: (ctx: BenchContext) => Promise<BenchSection> };
