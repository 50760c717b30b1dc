// The file a worker thread starts for a background job. Production runs the compiled bundle that
// `npm run build` writes (build/node/jobs/<name>.mjs, see vite.node.config.ts); development, tests
// and the CLI run the TypeScript source through its tsx entry (jobs/<name>.mjs).
import { existsSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { getEnv } from "~/env.server";

export type JobName = "delivery" | "snapshots" | "offthread";

/**
 * The application's root: the nearest directory above this module with a package.json. The
 * source (app/services), the page build (build/server) and the compiled server (build/node) all
 * find the same one, in the repository and in the container.
 */
export function appRoot(from = path.dirname(fileURLToPath(import.meta.url))): string {
  for (let dir = from; ; dir = path.dirname(dir)) {
    if (existsSync(path.join(dir, "package.json"))) return dir;
    if (path.dirname(dir) === dir) return process.cwd();
  }
}

export function jobEntry(name: JobName, root = appRoot()): string {
  if (getEnv().NODE_ENV !== "production") return path.join(root, "jobs", `${name}.mjs`);
  const compiled = path.join(root, "build", "node", "jobs", `${name}.mjs`);
  if (!existsSync(compiled)) throw new Error(`${compiled} is missing: run \`npm run build\` first.`);
  return compiled;
}
