// The second half of `npm run build`: the server (server/index.ts), the background jobs' worker
// threads (jobs/*.ts) and the admin CLI (cli/index.ts) compiled to plain JavaScript in build/node/,
// so production runs on node alone. Under tsx each process and each job thread carried its own
// loader (about 120 MB a process, measured in docs/decisions/0019-compiled-server.md), and every
// `crm` command compiled the TypeScript first (docs/decisions/0037-compiled-cli.md). Packages stay
// external: they are node_modules in the container too. Development and tests keep running the
// TypeScript sources (the CLI's tests run the compiled CLI when it is up to date, see bin/crm.mjs).
import path from "node:path";
import { defineConfig, type Plugin, type UserConfig } from "vite";

const root = import.meta.dirname;

/**
 * Writes build/node/cli-sources.json: the project's source files compiled into the CLI (the entry,
 * the chunks it imports, and the command groups it loads on demand). bin/crm.mjs runs the compiled
 * CLI only while none of them is newer than it.
 */
function cliSources(): Plugin {
  return {
    name: "crm-cli-sources",
    generateBundle(_options, bundle) {
      const entry = Object.values(bundle).find((c) => c.type === "chunk" && c.isEntry && c.name === "cli");
      if (!entry) return;
      const seen = new Set<string>();
      const sources = new Set<string>();
      const visit = (fileName: string) => {
        const chunk = bundle[fileName];
        if (seen.has(fileName) || chunk?.type !== "chunk") return;
        seen.add(fileName);
        for (const id of Object.keys(chunk.modules)) {
          if (path.isAbsolute(id) && id.startsWith(root) && !id.includes("/node_modules/")) {
            sources.add(path.relative(root, id));
          }
        }
        for (const next of [...chunk.imports, ...chunk.dynamicImports]) visit(next);
      };
      visit(entry.fileName);
      this.emitFile({
        type: "asset",
        fileName: "cli-sources.json",
        source: `${JSON.stringify({ entry: entry.fileName, sources: [...sources].sort() }, null, 1)}\n`,
      });
    },
  };
}

/** Every entry of build/node/: the server, the job threads and the CLI. */
export const NODE_ENTRIES = {
  server: "server/index.ts",
  "jobs/delivery": "jobs/delivery.ts",
  "jobs/snapshots": "jobs/snapshots.ts",
  "jobs/background-work": "jobs/background-work.ts",
  "jobs/bounce-mailbox": "jobs/bounce-mailbox.ts",
  "jobs/dkim-signing-thread": "jobs/dkim-signing-thread.ts",
  cli: "cli/index.ts",
};

/** The build of these entries into outDir; the CLI's tests build the CLI alone with it (cli/run-cli.ts). */
export function nodeBuildConfig(input: Record<string, string> = NODE_ENTRIES, outDir = "build/node"): UserConfig {
  return {
    root,
    resolve: { alias: { "~": path.resolve(root, "app") } },
    logLevel: "warn",
    plugins: [cliSources()],
    build: {
      ssr: true,
      outDir,
      emptyOutDir: true,
      target: "node20",
      minify: false,
      sourcemap: true,
      rollupOptions: {
        input,
        output: { format: "esm", entryFileNames: "[name].mjs", chunkFileNames: "chunks/[name]-[hash].mjs" },
      },
    },
  };
}

export default defineConfig(nodeBuildConfig());
