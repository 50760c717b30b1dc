// `crm campaigns list|status|pause|resume|cancel|unschedule|export` and `crm deliveries replay`: campaigns from
// the admin's side. Changes go through the same services as the screens and /api (a running server's
// delivery job picks them up within seconds).
import { createWriteStream } from "node:fs";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import type { ReadableStream as NodeReadableStream } from "node:stream/web";
import cliProgress from "cli-progress";
import type { Command } from "commander";
import { z } from "zod";
import { migrateConfiguredDatabase } from "../../app/db/migrate-configured.server.ts";
import { closeConnection, openConnection } from "../../app/db/connection.server.ts";
import { answeredCount, deliveryStats, isScheduled } from "../../app/lib/campaigns.ts";
import { ID_PATTERN } from "../../app/lib/id.ts";
import { type CampaignRow, campaigns as storedCampaigns } from "../../app/models/campaigns/store.server.ts";
import { deliveryHistory } from "../../app/models/deliveries/history/store.server.ts";
import {
  cancelCampaign,
  pauseCampaign,
  resumeCampaign,
  unscheduleCampaign,
} from "../../app/services/campaigns/controls.server.ts";
import { listCampaigns } from "../../app/services/campaigns/views.server.ts";
import { wakeDelivery } from "../../app/services/sending/wake.server.ts";
import { parseWho, WHO_REFUSED } from "../../app/lib/campaign-people.ts";
import { users } from "../../app/models/users/store.server.ts";
import { campaignPeopleCsv } from "../../app/services/campaign-export.server.ts";
import { parseCliInput } from "../validate.ts";
import { tenantByEmail } from "./customers.ts";
import { BOM_OPTION, csvStream } from "./csv-output.ts";

const CampaignId = z
  .string()
  .trim()
  .regex(ID_PATTERN, "The campaign id is 24 hexadecimal characters (see `crm campaigns list --user EMAIL`)");

/** A campaign by id, whoever owns it: the CLI is the admin's. */
async function campaignById(id: string): Promise<CampaignRow> {
  const valid = parseCliInput(CampaignId, id);
  // The configured database, SQLite or PostgreSQL (on PostgreSQL there is no SQLite file to migrate).
  await migrateConfiguredDatabase();
  const row = await storedCampaigns.findCampaignRowById(valid);
  if (!row) throw new Error(`No campaign ${valid}. List them with: crm campaigns list --user EMAIL`);
  return row;
}

function figures(c: CampaignRow): string {
  const s = deliveryStats(c);
  return `sent ${s.sent}, delivered ${s.delivered}, failed ${s.failed}, bounced ${s.bounced}, opened ${s.opened}, clicked ${s.clicked}, suppressed ${s.suppressed}, pending ${s.pending} (success rate ${s.successRate} of attempted)`;
}

export function registerCampaignCommands(program: Command) {
  const campaigns = program.command("campaigns").description("Look at and steer campaigns");

  campaigns
    .command("list")
    .description("A user's campaigns, newest first")
    .requiredOption("--user <email>", "the e-mail of the user (tenant)")
    .option("--json", "print JSON instead of a table")
    .action(async (opts: { user: string; json?: boolean }) => {
      const user = await tenantByEmail(opts.user);
      const { campaigns: all } = await listCampaigns(user.id, { limit: 1000 });
      if (opts.json) {
        console.log(JSON.stringify(all, null, 2));
        return;
      }
      if (all.length === 0) {
        console.log(`${user.email} has no campaigns yet.`);
        return;
      }
      for (const c of all) {
        const status = isScheduled(c) ? "Scheduled" : c.status;
        const when = isScheduled(c) ? `  (sends ${c.scheduledAt})` : "";
        console.log(
          `${c.id}  ${status.padEnd(9)}  ${String(c.audienceSize).padStart(9)}  ${c.progress}%  ${c.name}${when}`,
        );
      }
    });

  campaigns
    .command("status")
    .description("A campaign's figures, with a live progress bar until it stops sending")
    .argument("<id>", "the campaign id")
    .option("--no-follow", "print the figures once and exit")
    .action(async (id: string, opts: { follow: boolean }) => {
      let c = await campaignById(id);
      console.log(`${c.name} (${c.status}), ${c.audienceSize.toLocaleString("en-IN")} recipients`);
      if (opts.follow && c.status === "Active") {
        const bar = new cliProgress.SingleBar(
          {
            format: "Sending [{bar}] {percentage}% | {value}/{total} handed over | {detail}",
            hideCursor: true,
            noTTYOutput: true,
            notTTYSchedule: 5000,
          },
          cliProgress.Presets.shades_classic,
        );
        // The rows the channel has answered for, as the screens' progress counts them.
        bar.start(c.audienceSize, answeredCount(c), { detail: figures(c) });
        while (c.status === "Active") {
          await new Promise((resolve) => setTimeout(resolve, 1000));
          c = await campaignById(id);
          bar.update(answeredCount(c), { detail: `${deliveryStats(c).delivered} delivered` });
        }
        bar.stop();
      }
      console.log(`Status: ${c.status}${c.statusDetail ? ` (${c.statusDetail})` : ""}`);
      console.log(figures(c));
    });

  for (const [name, run, done] of [
    ["pause", pauseCampaign, "Paused"],
    ["resume", resumeCampaign, "Resumed"],
    ["cancel", cancelCampaign, "Cancelled"],
    ["unschedule", unscheduleCampaign, "Unscheduled"],
  ] as const) {
    campaigns
      .command(name)
      .description(`${done.replace(/d$/, "")} a campaign`)
      .argument("<id>", "the campaign id")
      .action(async (id: string) => {
        const c = await campaignById(id);
        const result = await run(c.userId, c.id).catch((error: unknown) => {
          throw new Error(error instanceof Error ? error.message : String(error));
        });
        console.log(`${result.message}: ${c.name} is now ${result.campaign.status}.`);
      });
  }

  campaigns
    .command("export")
    .description(
      "Export a campaign's recipients (those it was sent to), openers, clickers, bouncers or unsubscribers as CSV, to stdout or --out FILE",
    )
    .argument("<id>", "the campaign id")
    .requiredOption("--who <people>", "recipients, openers, clickers, bouncers or unsubscribers")
    .option("--out <file>", "write to this file instead of standard output")
    .option("--bom", BOM_OPTION)
    .action(async (id: string, opts: { who: string; out?: string; bom?: boolean }) => {
      const who = parseWho(opts.who);
      if (!who) throw new Error(`--${WHO_REFUSED}`);
      const c = await campaignById(id);
      const owner = await users.findUserById(c.userId);
      // The owner's campaign as the owner's detail page exports it, dates in the owner's zone.
      const { stream } = await campaignPeopleCsv(c.userId, c.id, who, { timeZone: owner?.timeZone ?? undefined });
      const source = Readable.fromWeb(csvStream(stream, opts.bom) as unknown as NodeReadableStream<Uint8Array>);
      if (opts.out) {
        await pipeline(source, createWriteStream(opts.out));
        console.error(`The ${who} of ${c.name} written to ${opts.out}`);
      } else {
        await pipeline(source, process.stdout);
      }
    });

  const deliveries = program.command("deliveries").description("A campaign's delivery rows");
  deliveries
    .command("replay")
    .description("Send the chosen rows of a campaign again, under their original idempotency keys")
    .argument("<id>", "the campaign id")
    .option("--status <status>", "which rows: failed, bounced or sent", "failed")
    .option("--dry-run", "only say how many rows would be sent again")
    .action(async (id: string, opts: { status: string; dryRun?: boolean }) => {
      const status = parseCliInput(
        z.enum(["failed", "bounced", "sent"], { message: "--status must be failed, bounced or sent" }),
        opts.status,
      );
      const c = await campaignById(id);
      const sqlite = openConnection({ poolSize: 1, applicationName: "crm campaigns" });
      try {
        const n = await deliveryHistory.replayDeliveries(sqlite, c.id, status, Boolean(opts.dryRun));
        if (opts.dryRun)
          console.log(`Would send ${n.toLocaleString("en-IN")} ${status} deliveries of ${c.name} again.`);
        else {
          wakeDelivery();
          console.log(
            `Queued ${n.toLocaleString("en-IN")} ${status} deliveries of ${c.name} again, under their original keys. A running server sends them within seconds.`,
          );
        }
      } finally {
        await closeConnection(sqlite);
      }
    });
}
