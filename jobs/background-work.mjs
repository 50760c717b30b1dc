// The entry of the background work thread: CSV imports and exports, launches and receipt batches
// off the request thread (app/services/background-work.server.ts). The work is TypeScript
// (jobs/background-work.ts, with the app's modules): tsx's API loads it here, so the thread needs
// no loader flags from whatever started the server (the server in either mode, a test runner).
import { tsImport } from "tsx/esm/api";

await tsImport("./background-work.ts", import.meta.url);
