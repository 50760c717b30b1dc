// Generates the Prisma clients offline: the SQLite one from prisma/schema.prisma and the
// PostgreSQL one from the same description as PostgreSQL sees it (scripts/postgres-schema-file.ts).
// The Prisma CLI wants a native schema engine it would download; `generate` does not use it, so
// any existing file satisfies the check (docs/rules.md#environment-facts).
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";

const env = { ...process.env, PRISMA_HIDE_UPDATE_MESSAGE: "1", CHECKPOINT_DISABLE: "1" };
env.PRISMA_SCHEMA_ENGINE_BINARY ??= fileURLToPath(new URL("../package.json", import.meta.url));
const run = (cmd, args) => spawnSync(cmd, args, { stdio: "inherit", env }).status ?? 1;

let status = run("npx", ["--no-install", "prisma", "generate"]);
if (status === 0) status = run("npx", ["--no-install", "tsx", "scripts/postgres-schema-file.ts"]);
if (status === 0)
  status = run("npx", ["--no-install", "prisma", "generate", "--schema", "prisma/postgres/schema.prisma"]);
process.exit(status);
