// The `crm` program: each command group lives in cli/commands/ and registers itself, and only the
// groups that the command line names are imported. Importing them all (the Prisma client, the mail
// readers, faker for the seed, zod, …) cost about 1.5 s of CPU before `crm --help` could answer;
// the top-level help is made from the names and descriptions below. A new top-level command goes
// in COMMANDS too: cli/program.test.ts checks that they are what the groups register.
import { Command, Help } from "commander";

type Register = (program: Command) => void;

export const GROUPS = {
  db: async () => (await import("./commands/db.ts")).registerDbCommands,
  users: async () => (await import("./commands/users.ts")).registerUserCommands,
  customers: async () => (await import("./commands/customers.ts")).registerCustomerCommands,
  seed: async () => (await import("./commands/seed.ts")).registerSeedCommand,
  campaigns: async () => (await import("./commands/campaigns.ts")).registerCampaignCommands,
  flows: async () => (await import("./commands/flows.ts")).registerFlowCommands,
  dkim: async () => (await import("./commands/dkim.ts")).registerDkimCommands,
  suppressions: async () => (await import("./commands/suppressions.ts")).registerSuppressionCommands,
  bounces: async () => (await import("./commands/bounces.ts")).registerBounceCommands,
} satisfies Record<string, () => Promise<Register>>;

type GroupName = keyof typeof GROUPS;

/** The top-level commands as `crm --help` lists them, and the groups that register each. */
export const COMMANDS: { name: string; description: string; hasOptions?: true; groups: GroupName[] }[] = [
  { name: "db", description: "Database maintenance", groups: ["db"] },
  { name: "users", description: "Manage user accounts", groups: ["users"] },
  { name: "import", description: "Import data from files", groups: ["customers", "suppressions"] },
  { name: "export", description: "Export data as files", groups: ["customers", "suppressions"] },
  {
    name: "seed",
    description: "Fill a user's tenant with realistic Indian customers and orders",
    hasOptions: true,
    groups: ["seed"],
  },
  { name: "campaigns", description: "Look at and steer campaigns", groups: ["campaigns"] },
  { name: "deliveries", description: "A campaign's delivery rows", groups: ["campaigns"] },
  { name: "flows", description: "Look at, pause and resume flows", groups: ["flows"] },
  {
    name: "dkim",
    description: "DKIM signing keys for your sending domain, and the DNS records (DKIM, SPF, DMARC) to publish",
    groups: ["dkim"],
  },
  {
    name: "suppressions",
    description: "The suppression list: addresses that get no campaign e-mail",
    groups: ["suppressions"],
  },
  { name: "bounces", description: "The bounce mailbox: later bounces and spam complaints", groups: ["bounces"] },
];

/** The top-level command an argument list names (`crm help users` names users), if any. */
export function namedCommand(args: string[]): string | undefined {
  const operands = args.filter((a) => !a.startsWith("-"));
  const name = operands[0] === "help" ? operands[1] : operands[0];
  return COMMANDS.some((c) => c.name === name) ? name : undefined;
}

/**
 * The program for these arguments (without node and the script): the command they name with its
 * groups registered in full, every other top-level command as a name and a description only, in
 * the order of COMMANDS. `all` registers every group (the tests compare the two).
 */
export async function buildProgram(args: string[], options: { all?: boolean } = {}): Promise<Command> {
  const withOptions = new Set<Command>();
  const help = new Help();
  // The settings every command inherits from the one it was made from.
  const configured = (command: Command) =>
    command
      .showHelpAfterError("(run with --help for usage)")
      .exitOverride()
      .configureHelp({
        subcommandTerm: (cmd) => (withOptions.has(cmd) ? `${cmd.name()} [options]` : help.subcommandTerm(cmd)),
      });
  const program = configured(new Command())
    .name("crm")
    .description(
      "Admin commands for the CRM: database, users, tokens, imports, seeding, campaigns, deliveries and flows.",
    );
  const named = COMMANDS.find((c) => c.name === namedCommand(args));
  const groups = new Set<GroupName>(options.all ? COMMANDS.flatMap((c) => c.groups) : named?.groups);
  // The groups register into a program of their own; their commands then join in COMMANDS' order.
  const loaded = configured(new Command());
  for (const group of groups) (await GROUPS[group]())(loaded);
  for (const command of COMMANDS) {
    const registered = loaded.commands.find((c) => c.name() === command.name);
    if (registered) program.addCommand(registered);
    else {
      const stub = program.command(command.name).description(command.description);
      if (command.hasOptions) withOptions.add(stub);
    }
  }
  for (const other of loaded.commands) {
    if (!COMMANDS.some((c) => c.name === other.name())) program.addCommand(other);
  }
  return program;
}
