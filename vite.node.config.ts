// The second half of `npm run build`: the server (server/index.ts) and the background jobs'
// worker threads (jobs/*.ts) compiled to plain JavaScript in build/node/, so production runs on
// node alone. Under tsx each process and each job thread carried its own loader (about 120 MB a
// process, measured in docs/decisions/0019-compiled-server.md). Packages stay external: they are
// node_modules in the container too. Development and tests keep running the TypeScript sources.
import path from "node:path";
import { defineConfig } from "vite";

export default defineConfig({
  resolve: { alias: { "~": path.resolve(import.meta.dirname, "app") } },
  logLevel: "warn",
  build: {
    ssr: true,
    outDir: "build/node",
    emptyOutDir: true,
    target: "node20",
    minify: false,
    sourcemap: true,
    rollupOptions: {
      input: {
        server: "server/index.ts",
        "jobs/delivery": "jobs/delivery.ts",
        "jobs/snapshots": "jobs/snapshots.ts",
        "jobs/background-work": "jobs/background-work.ts",
        "jobs/bounce-mailbox": "jobs/bounce-mailbox.ts",
        "jobs/dkim-signer": "jobs/dkim-signer.ts",
      },
      output: { format: "esm", entryFileNames: "[name].mjs", chunkFileNames: "chunks/[name]-[hash].mjs" },
    },
  },
});
