#!/usr/bin/env -S npx tsx
// `crm`: the admin CLI. Each command group lives in cli/commands/ and registers itself here.
import { Command, CommanderError } from "commander";
import { registerDbCommands } from "./commands/db.ts";
import { registerUserCommands } from "./commands/users.ts";
import { registerCustomerCommands } from "./commands/customers.ts";
import { registerSeedCommand } from "./commands/seed.ts";
import { registerCampaignCommands } from "./commands/campaigns.ts";
import { registerDkimCommands } from "./commands/dkim.ts";
import { registerSuppressionCommands } from "./commands/suppressions.ts";
import { registerBounceCommands } from "./commands/bounces.ts";

const program = new Command()
  .name("crm")
  .description("Admin commands for the CRM: database, users, tokens, imports, seeding, campaigns and deliveries.")
  .showHelpAfterError("(run with --help for usage)")
  .exitOverride();

registerDbCommands(program);
registerUserCommands(program);
registerCustomerCommands(program);
registerSeedCommand(program);
registerCampaignCommands(program);
registerDkimCommands(program);
registerSuppressionCommands(program);
registerBounceCommands(program);

try {
  await program.parseAsync(process.argv);
} catch (error) {
  if (error instanceof CommanderError) process.exit(error.exitCode);
  console.error(`Error: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
}
