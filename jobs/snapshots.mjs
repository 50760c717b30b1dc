// Bree's entry for the dashboard snapshots job's worker thread (TypeScript in jobs/snapshots.ts,
// loaded with tsx's API as jobs/delivery.mjs does, so the thread needs no loader flags).
import { tsImport } from "tsx/esm/api";

await tsImport("./snapshots.ts", import.meta.url);
