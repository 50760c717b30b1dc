// `crm`: the admin CLI (bin/crm.mjs starts it; `npm run build` compiles it to build/node/cli.mjs).
// cli/program.ts says which command groups there are; only the one the command line names is loaded.
import { CommanderError } from "commander";
import { buildProgram } from "./program.ts";

try {
  const program = await buildProgram(process.argv.slice(2));
  await program.parseAsync(process.argv);
} catch (error) {
  if (error instanceof CommanderError) process.exit(error.exitCode);
  console.error(`Error: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
}
