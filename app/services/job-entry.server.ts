// The file a worker thread starts for a background job. Production runs the compiled bundle that
// `npm run build` writes (build/node/jobs/<name>.mjs, see vite.node.config.ts); development, tests
// and the CLI run the TypeScript source through its tsx entry (jobs/<name>.mjs).
import { existsSync } from "node:fs";
import path from "node:path";
import { getEnv } from "~/env.server";
import { appRoot } from "~/lib/app-root.server";

export type JobName = "delivery" | "snapshots" | "background-work" | "dkim-signing-thread" | "bounce-mailbox";

export function jobEntry(name: JobName, root = appRoot()): string {
  if (getEnv().NODE_ENV !== "production") return path.join(root, "jobs", `${name}.mjs`);
  const compiled = path.join(root, "build", "node", "jobs", `${name}.mjs`);
  if (!existsSync(compiled)) throw new Error(`${compiled} is missing: run \`npm run build\` first.`);
  return compiled;
}
