// `crm seed --user EMAIL --customers N --orders M --campaigns C --fields F --tags T`: fills a tenant
// with realistic Indian customers and orders, their field values and tags, and a history of finished
// campaigns, with progress bars. A million customers take well under a minute.
import cliProgress from "cli-progress";
import type { Command } from "commander";
import { z } from "zod";
import { closeConnection, openConnection } from "../../app/db/connection.server.ts";
import { seedCampaignHistory } from "../../app/services/sending/history.server.ts";
import { SEED_FIELDS, SEED_TAGS, seedTenant } from "../../app/services/seed.server.ts";
import { parseCliInput } from "../validate.ts";
import { tenantByEmail } from "./customers.ts";

const Count = (flag: string, max: number) =>
  z.coerce
    .number({ message: `${flag} must be a number, like 1000` })
    .int(`${flag} must be a whole number`)
    .min(0, `${flag} must be 0 or more`)
    .max(max, `${flag} must be at most ${max.toLocaleString("en-IN")}`);

export function registerSeedCommand(program: Command) {
  program
    .command("seed")
    .description("Fill a user's tenant with realistic Indian customers and orders")
    .requiredOption("--user <email>", "the e-mail of the user (tenant) to fill")
    .option("--customers <n>", "how many customers to add", "1000")
    .option("--orders <m>", "how many orders to add (spread over the new customers)", "0")
    .option(
      "--campaigns <n>",
      "how many finished campaigns to add, with a delivery row per recipient (after the customers)",
      "0",
    )
    .option(
      "--fields <n>",
      `how many custom fields to define and fill (at most ${SEED_FIELDS.length}; with any, the built-in city, state, country, birthday and time zone are filled too)`,
      "0",
    )
    .option("--tags <n>", `how many tags to spread over the new customers (at most ${SEED_TAGS.length})`, "0")
    .option("--seed <n>", "a number that makes the data repeatable")
    .action(
      async (opts: {
        user: string;
        customers: string;
        orders: string;
        campaigns: string;
        fields: string;
        tags: string;
        seed?: string;
      }) => {
        const input = parseCliInput(
          z.object({
            customers: Count("--customers", 10_000_000),
            orders: Count("--orders", 10_000_000),
            campaigns: Count("--campaigns", 1000),
            fields: Count("--fields", SEED_FIELDS.length),
            tags: Count("--tags", SEED_TAGS.length),
            seed: Count("--seed", 2 ** 31).optional(),
          }),
          opts,
        );
        if (input.orders > 0 && input.customers === 0)
          throw new Error("--orders needs --customers above 0: orders go to the new customers");
        const user = await tenantByEmail(opts.user);
        const bars = new cliProgress.MultiBar(
          {
            format: "{stage} [{bar}] {percentage}% | {value}/{total}",
            hideCursor: true,
            noTTYOutput: true,
            notTTYSchedule: 5000,
          },
          cliProgress.Presets.shades_classic,
        );
        const customers = input.customers > 0 ? bars.create(input.customers, 0, { stage: "Customers" }) : null;
        const orders = input.orders > 0 ? bars.create(input.orders, 0, { stage: "Orders   " }) : null;
        // The steps after the rows (customer totals from orders, the segment indexes of a large
        // seed) take seconds each: a bar of their own so the output never looks stuck.
        const finishing = new Map<string, cliProgress.SingleBar>();
        const step = (name: string, done: number) => {
          let bar = finishing.get(name);
          if (!bar) finishing.set(name, (bar = bars.create(1, 0, { stage: name })));
          bar.update(done);
        };
        const result = await seedTenant(user.id, {
          customers: input.customers,
          orders: input.orders,
          fields: input.fields,
          tags: input.tags,
          seed: input.seed,
          onProgress: (stage, done) => {
            if (stage === "customers") customers?.update(done);
            else if (stage === "orders") orders?.update(done);
            else step(stage === "totals" ? "Totals   " : "Indexes  ", done);
          },
        });
        let history = { campaigns: 0, deliveries: 0 };
        if (input.campaigns > 0) {
          const bar = bars.create(input.campaigns, 0, { stage: "Campaigns" });
          // The configured database, SQLite or PostgreSQL.
          const connection = openConnection({ applicationName: "crm seed" });
          try {
            history = await seedCampaignHistory(connection, user.id, input.campaigns, {
              onProgress: (done) => bar.update(done),
            });
          } finally {
            await closeConnection(connection);
          }
        }
        bars.stop();
        console.log(
          `Seeded ${result.customersCreated.toLocaleString("en-IN")} customers and ${result.ordersCreated.toLocaleString("en-IN")} orders` +
            (input.campaigns > 0
              ? `, ${history.campaigns} campaigns with ${history.deliveries.toLocaleString("en-IN")} deliveries`
              : "") +
            ` for ${user.email} in ${(result.durationMs / 1000).toFixed(1)} s.`,
        );
      },
    );
}
