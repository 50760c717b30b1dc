// The entry of a DKIM signing thread (app/services/email/dkim-signer.server.ts starts it). The work
// is TypeScript (jobs/dkim-signer.ts): tsx's API loads it here, so the thread needs no loader flags
// from whatever started it (the server, the CLI or a test runner alike).
import { tsImport } from "tsx/esm/api";

await tsImport("./dkim-signer.ts", import.meta.url);
