// The entry of a DKIM signing thread (app/services/email/dkim-signing-threads.server.ts starts it). The work
// is TypeScript (jobs/dkim-signing-thread.ts): tsx's API loads it here, so the thread needs no loader flags
// from whatever started it (the server, the CLI or a test runner alike).
import { tsImport } from "tsx/esm/api";

await tsImport("./dkim-signing-thread.ts", import.meta.url);
