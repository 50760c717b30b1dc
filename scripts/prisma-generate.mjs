// Generates the Prisma client offline. The Prisma CLI wants a native schema engine it would
// download; `generate` does not use it, so any existing file satisfies the check (docs/rules.md#environment-facts).
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";

const env = { ...process.env, PRISMA_HIDE_UPDATE_MESSAGE: "1", CHECKPOINT_DISABLE: "1" };
env.PRISMA_SCHEMA_ENGINE_BINARY ??= fileURLToPath(new URL("../package.json", import.meta.url));
const result = spawnSync("npx", ["--no-install", "prisma", "generate"], { stdio: "inherit", env });
process.exit(result.status ?? 1);
