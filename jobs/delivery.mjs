// Bree's entry for the delivery job's worker thread. The job is TypeScript (jobs/delivery.ts, with
// the app's modules): tsx's API loads it here, so the thread needs no loader flags from whatever
// started the server (the server, the CLI or a test runner alike).
import { tsImport } from "tsx/esm/api";

await tsImport("./delivery.ts", import.meta.url);
