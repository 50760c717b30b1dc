// The entry of the worker thread that runs CSV imports and exports off the request thread
// (app/services/offthread.server.ts). The work is TypeScript (jobs/offthread.ts, with the app's
// modules): tsx's API loads it here, so the thread needs no loader flags from whatever started the
// server (the server in either mode, a test runner).
import { tsImport } from "tsx/esm/api";

await tsImport("./offthread.ts", import.meta.url);
