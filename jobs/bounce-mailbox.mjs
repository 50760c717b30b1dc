// Bree's entry for the bounce mailbox job's worker thread (TypeScript in jobs/bounce-mailbox.ts,
// loaded with tsx's API as jobs/delivery.mjs does, so the thread needs no loader flags).
import { tsImport } from "tsx/esm/api";

await tsImport("./bounce-mailbox.ts", import.meta.url);
