// `crm`: the admin CLI (bin/crm.mjs starts it; `npm run build` compiles it to build/node/cli.mjs).
// cli/program.ts says which command groups there are; only the one the command line names is loaded.
import v8 from "node:v8";
import { CommanderError } from "commander";
import { buildProgram } from "./program.ts";

// The Prisma client's query compiler is WebAssembly. V8 would also optimise it with TurboFan on
// background threads, and wait for that before the process exits: for a command that runs a few
// queries, about 0.4 s of CPU (of 1.5 s for `crm users token`) that nothing uses. Its baseline
// compiler alone runs the queries fast enough. The flag changes only how WebAssembly is compiled,
// and is set before any command group, and so the client, is loaded.
v8.setFlagsFromString("--liftoff-only");

try {
  const program = await buildProgram(process.argv.slice(2));
  await program.parseAsync(process.argv);
} catch (error) {
  if (error instanceof CommanderError) process.exit(error.exitCode);
  console.error(`Error: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
}
