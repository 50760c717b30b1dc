// The suppression list from the command line (addresses that get no campaign e-mail):
//   crm import suppressions FILE --user EMAIL [--errors FILE]
//   crm export suppressions --user EMAIL [--out FILE]
//   crm suppressions add EMAIL... --user EMAIL
//   crm suppressions remove EMAIL --user EMAIL
//   crm suppressions list --user EMAIL [--q TEXT] [--page N] [--page-size N]
// The same service as the Suppressions screen and /api/suppressions (app/services/suppressions.server.ts).
import { createReadStream, createWriteStream, statSync, writeFileSync } from "node:fs";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import type { ReadableStream as NodeReadableStream } from "node:stream/web";
import cliProgress from "cli-progress";
import type { Command } from "commander";
import { z } from "zod";
import { ApiError } from "../../app/lib/api.server.ts";
import { SearchTermSchema } from "../../app/schemas/search.ts";
import {
  exportSuppressionsCsv,
  importSuppressionsCsv,
  suppressionErrorReportCsv,
} from "../../app/services/suppressions-csv.server.ts";
import {
  addSuppressionsByHand,
  listSuppressionsPage,
  REASON_LABELS,
  resubscribe,
  SuppressionEmailSchema,
} from "../../app/services/suppressions.server.ts";
import { parseCliInput } from "../validate.ts";
import { tenantByEmail } from "./customers.ts";
import { BOM_OPTION, csvStream } from "./csv-output.ts";

const n = (count: number) => count.toLocaleString("en-IN");

/** A service's refusal (ApiError) as the CLI's error: its message, without the /api wrapping. */
async function plainErrors<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof ApiError) throw new Error(error.message, { cause: error });
    throw error;
  }
}

const ListOptions = z.object({
  q: SearchTermSchema.max(200, "--q must be at most 200 characters").optional(),
  page: z.coerce
    .number({ message: "--page must be a number" })
    .int("--page must be a whole number")
    .min(1, "--page must be at least 1")
    .default(1),
  pageSize: z.coerce
    .number({ message: "--page-size must be a number" })
    .int("--page-size must be a whole number")
    .min(1, "--page-size must be at least 1")
    .max(1000, "--page-size must be at most 1000")
    .default(50),
});

export function registerSuppressionCommands(program: Command) {
  const importCmd =
    program.commands.find((c) => c.name() === "import") ??
    program.command("import").description("Import data from files");
  importCmd
    .command("suppressions")
    .description(
      "Import a suppression list from a CSV file (a header row naming the email column, as listmonk and Mailchimp export it); bad rows are reported with their line numbers",
    )
    .argument("<file>", 'the CSV file; its header row names the address column ("email" or "Email Address")')
    .requiredOption("--user <email>", "the e-mail of the user (tenant) whose list it is")
    .option("--errors <file>", "write the bad rows (line, email, reason) to this CSV file")
    .action(async (file: string, opts: { user: string; errors?: string }) => {
      let size: number;
      try {
        size = statSync(file).size;
      } catch (error) {
        throw new Error(`Cannot read ${file}: no such file`, { cause: error });
      }
      const user = await tenantByEmail(opts.user);
      const format = (label: string, unit: string) => ({
        format: `${label} [{bar}] {percentage}% | ${unit} | {eta_formatted} left`,
        hideCursor: true,
        noTTYOutput: true,
        notTTYSchedule: 5000,
      });
      const reading = new cliProgress.SingleBar(format("Reading", "{rows} rows"), cliProgress.Presets.shades_classic);
      reading.start(size, 0, { rows: 0 });
      const saving: { bar?: cliProgress.SingleBar } = {};
      const stopBars = () => {
        reading.stop();
        saving.bar?.stop();
      };
      const result = await plainErrors(() =>
        importSuppressionsCsv(user.id, createReadStream(file, { highWaterMark: 1 << 20 }), {
          onProgress: (progress) => {
            if (progress.phase === "reading") {
              reading.update(progress.bytes, { rows: n(progress.rows) });
              return;
            }
            if (!saving.bar) {
              reading.update(size);
              reading.stop();
              saving.bar = new cliProgress.SingleBar(
                format("Saving ", "{value}/{total} addresses"),
                cliProgress.Presets.shades_classic,
              );
              saving.bar.start(progress.total, 0);
            }
            saving.bar.update(progress.saved);
          },
        }),
      ).finally(stopBars);
      console.log(
        `Read ${n(result.rows)} rows in ${(result.durationMs / 1000).toFixed(1)} s: ${n(result.added)} added, ` +
          `${n(result.alreadySuppressed)} already suppressed, ${n(result.duplicates)} repeated in the file, ${n(result.invalid)} not valid.`,
      );
      for (const e of result.errors.slice(0, 20))
        console.log(`  line ${e.line}: ${e.reason}${e.email ? ` (${e.email})` : ""}`);
      if (result.invalid > 20)
        console.log(
          `  … and ${n(result.invalid - 20)} more${opts.errors ? "" : " (use --errors FILE for the full report)"}`,
        );
      if (opts.errors && result.invalid > 0) {
        writeFileSync(opts.errors, suppressionErrorReportCsv(result.errors));
        console.log(`Error report written to ${opts.errors}`);
      }
      if (result.invalid > 0) process.exitCode = 2;
    });

  const exportCmd =
    program.commands.find((c) => c.name() === "export") ??
    program.command("export").description("Export data as files");
  exportCmd
    .command("suppressions")
    .description("Export the suppression list as CSV (email, reason, campaign, created_at), to stdout or --out FILE")
    .requiredOption("--user <email>", "the e-mail of the user (tenant) whose list it is")
    .option("--out <file>", "write to this file instead of standard output")
    .option("--bom", BOM_OPTION)
    .action(async (opts: { user: string; out?: string; bom?: boolean }) => {
      const user = await tenantByEmail(opts.user);
      const source = Readable.fromWeb(
        csvStream(
          exportSuppressionsCsv(user.id, {
            timeZone: user.timeZone ?? undefined,
          }),
          opts.bom,
        ) as unknown as NodeReadableStream<Uint8Array>,
      );
      if (opts.out) {
        await pipeline(source, createWriteStream(opts.out));
        console.error(`Suppression list written to ${opts.out}`);
      } else {
        await pipeline(source, process.stdout);
      }
    });

  const suppressions = program
    .command("suppressions")
    .description("The suppression list: addresses that get no campaign e-mail");

  suppressions
    .command("add")
    .description("Suppress addresses (reason: added by hand); those on the list already stay as they are")
    .argument("<emails...>", "the addresses (up to 10,000)")
    .requiredOption("--user <email>", "the e-mail of the user (tenant) whose list it is")
    .action(async (emails: string[], opts: { user: string }) => {
      const user = await tenantByEmail(opts.user);
      const { added, alreadySuppressed } = await plainErrors(() => addSuppressionsByHand(user.id, emails));
      console.log(
        `Added ${n(added)} ${added === 1 ? "address" : "addresses"} to the suppression list` +
          (alreadySuppressed
            ? `; ${n(alreadySuppressed)} ${alreadySuppressed === 1 ? "was" : "were"} on it already.`
            : "."),
      );
    });

  suppressions
    .command("remove")
    .description("Take an address off the suppression list (it gets campaigns again)")
    .argument("<email>", "the address")
    .requiredOption("--user <email>", "the e-mail of the user (tenant) whose list it is")
    .action(async (email: string, opts: { user: string }) => {
      const { address } = parseCliInput(z.object({ address: SuppressionEmailSchema }), { address: email });
      const user = await tenantByEmail(opts.user);
      if (!(await resubscribe(user.id, address)))
        throw new Error(`${address} is not on the suppression list of ${user.email}.`);
      console.log(`Removed ${address} from the suppression list.`);
    });

  suppressions
    .command("list")
    .description("List the suppression list, newest first, a page at a time")
    .requiredOption("--user <email>", "the e-mail of the user (tenant) whose list it is")
    .option("--q <text>", "only addresses containing this text")
    .option("--page <n>", "the page to show", "1")
    .option("--page-size <n>", "addresses a page (at most 1000)", "50")
    .option("--json", "print JSON instead of a table")
    .action(async (opts: { user: string; q?: string; page: string; pageSize: string; json?: boolean }) => {
      const input = parseCliInput(ListOptions, { q: opts.q, page: opts.page, pageSize: opts.pageSize });
      const user = await tenantByEmail(opts.user);
      const page = await listSuppressionsPage(user.id, input);
      if (opts.json) {
        console.log(JSON.stringify(page, null, 2));
        return;
      }
      if (page.total === 0) {
        console.log(input.q ? `No suppressed address contains "${input.q}".` : "The suppression list is empty.");
        return;
      }
      for (const s of page.items) {
        const campaign = s.campaignName ? `  ${s.campaignName}` : "";
        console.log(
          `${s.email.padEnd(40)}  ${REASON_LABELS[s.reason].padEnd(13)}  ${s.createdAt.slice(0, 10)}${campaign}`,
        );
      }
      const pages = Math.max(1, Math.ceil(page.total / page.pageSize));
      const first = (page.page - 1) * page.pageSize + 1;
      console.log(
        page.items.length
          ? `${n(first)}–${n(first + page.items.length - 1)} of ${n(page.total)} (page ${n(page.page)} of ${n(pages)})`
          : `Page ${n(page.page)} is past the end: ${n(page.total)} addresses make ${n(pages)} ${pages === 1 ? "page" : "pages"}.`,
      );
    });
}
