// The environment the e2e suites start the production server with (`tsx server/index.ts` after
// `npm run build`): its own data directory and database, a fresh session secret, local sign-in.
import { randomBytes } from "node:crypto";
import path from "node:path";

export const repoRoot = path.resolve(import.meta.dirname, "../..");
export const tsxBin = path.join(repoRoot, "node_modules/.bin/tsx");

export function productionServerEnv(options: {
  port: number;
  publicUrl: string;
  dataDir: string;
  extra?: Record<string, string>;
}): NodeJS.ProcessEnv {
  return {
    ...process.env,
    NODE_ENV: "production",
    PORT: String(options.port),
    HOST: "127.0.0.1",
    PUBLIC_URL: options.publicUrl,
    DATA_DIR: options.dataDir,
    DATABASE_URL: `file:${path.join(options.dataDir, "crm.db")}`,
    SESSION_SECRET: randomBytes(32).toString("hex"),
    LOCAL_AUTH: "true",
    LOG_LEVEL: process.env.LOG_LEVEL ?? "warn",
    ...options.extra,
  };
}
