// `crm import customers FILE --user EMAIL [--create-fields]` and `crm export customers --user EMAIL [--q TEXT] [--out FILE]`:
// the CSV import and export of the customers screen, from the command line.
import { createReadStream, createWriteStream, statSync } from "node:fs";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import type { ReadableStream as NodeReadableStream } from "node:stream/web";
import cliProgress from "cli-progress";
import type { Command } from "commander";
import { z } from "zod";
import { migrateConfiguredDatabase } from "../../app/db/migrate-configured.server.ts";
import { ApiError } from "../../app/lib/api.server.ts";
import { exportCustomersCsv } from "../../app/services/customer-export.server.ts";
import { errorReportCsv, importCustomers } from "../../app/services/customer-import.server.ts";
import { findUserByEmail } from "../../app/services/users.server.ts";
import { parseCliInput } from "../validate.ts";
import { BOM_OPTION, csvStream } from "./csv-output.ts";

const Email = z
  .string()
  .trim()
  .toLowerCase()
  .email("--user must be the e-mail address of a user, like ops@example.com");

export async function tenantByEmail(email: string) {
  const input = parseCliInput(z.object({ email: Email }), { email });
  await migrateConfiguredDatabase();
  const user = await findUserByEmail(input.email);
  if (!user)
    throw new Error(
      `No user with e-mail ${input.email}. Create one with: crm users create --email ${input.email} --name NAME`,
    );
  return user;
}

export function registerCustomerCommands(program: Command) {
  const importCmd =
    program.commands.find((c) => c.name() === "import") ??
    program.command("import").description("Import data from files");
  importCmd
    .command("customers")
    .description("Import customers from a CSV file (upsert on e-mail); bad rows are reported with their line numbers")
    .argument("<file>", "the CSV file; its header row names the columns (firstName, lastName, email, ...)")
    .requiredOption("--user <email>", "the e-mail of the user (tenant) who owns the customers")
    .option("--errors <file>", "write the bad rows (line, email, reason) to this CSV file")
    .option("--create-fields", "make a text field of each column the import does not know, and import it")
    .action(async (file: string, opts: { user: string; errors?: string; createFields?: boolean }) => {
      let size: number;
      try {
        size = statSync(file).size;
      } catch (error) {
        throw new Error(`Cannot read ${file}: no such file`, { cause: error });
      }
      const user = await tenantByEmail(opts.user);
      const bar = new cliProgress.SingleBar(
        {
          format: "Importing [{bar}] {percentage}% | {rows} rows | {eta_formatted} left",
          hideCursor: true,
          noTTYOutput: true,
          notTTYSchedule: 5000,
        },
        cliProgress.Presets.shades_classic,
      );
      bar.start(size, 0, { rows: 0 });
      // Set once the file is read (in the progress callback).
      const saving: { bar?: cliProgress.SingleBar } = {};
      let result;
      try {
        result = await importCustomers(user.id, createReadStream(file, { highWaterMark: 1 << 20 }), {
          // A process of its own: longer transactions write faster (the server's requests still
          // get the database between them), and a large file is saved in one transaction with the
          // segment indexes built at the end (the server's writes wait for it).
          batchMs: 5000,
          deferIndexes: true,
          createFields: opts.createFields === true,
          onProgress: (progress) => {
            if (progress.phase === "reading") {
              bar.update(progress.bytes, { rows: progress.rows.toLocaleString("en-IN") });
              return;
            }
            if (progress.phase === "indexing") {
              saving.bar?.stop();
              saving.bar = undefined;
              console.log("Building the segment indexes (a bulk load builds them once, at the end)…");
              return;
            }
            // The file is read; the second bar is the staged rows written to the database.
            if (!saving.bar) {
              bar.update(size);
              bar.stop();
              saving.bar = new cliProgress.SingleBar(
                {
                  format: "Saving    [{bar}] {percentage}% | {value}/{total} rows | {eta_formatted} left",
                  hideCursor: true,
                  noTTYOutput: true,
                  notTTYSchedule: 5000,
                },
                cliProgress.Presets.shades_classic,
              );
              saving.bar.start(progress.total, 0);
            }
            saving.bar.update(progress.saved);
          },
        });
        bar.update(size);
      } catch (error) {
        bar.stop();
        saving.bar?.stop();
        if (error instanceof ApiError) throw new Error(error.message, { cause: error });
        throw error;
      }
      bar.stop();
      saving.bar?.stop();
      const seconds = result.durationMs / 1000;
      console.log(
        `Imported ${result.imported.toLocaleString("en-IN")} of ${result.rows.toLocaleString("en-IN")} rows in ${seconds.toFixed(1)} s ` +
          `(${result.created.toLocaleString("en-IN")} new, ${result.updated.toLocaleString("en-IN")} updated, ${result.failed.toLocaleString("en-IN")} with errors).`,
      );
      if (result.createdFields.length > 0)
        console.log(`Fields made from new columns: ${result.createdFields.join(", ")}.`);
      if (result.consent)
        console.log(
          `Consent recorded for ${result.consentRecorded.toLocaleString("en-IN")} customers whose consent the file changed.`,
        );
      if (result.unknownColumns.length > 0)
        console.log(
          `Columns not imported: ${result.unknownColumns.join(", ")}${opts.createFields ? "" : " (--create-fields makes text fields of them)"}.`,
        );
      for (const e of result.errors.slice(0, 20))
        console.log(`  line ${e.line}: ${e.reason}${e.email ? ` (${e.email})` : ""}`);
      if (result.failed > 20)
        console.log(
          `  … and ${(result.failed - 20).toLocaleString("en-IN")} more${opts.errors ? "" : " (use --errors FILE for the full report)"}`,
        );
      if (opts.errors && result.failed > 0) {
        const { writeFileSync } = await import("node:fs");
        writeFileSync(opts.errors, errorReportCsv(result.errors));
        console.log(`Error report written to ${opts.errors}`);
      }
      if (result.failed > 0) process.exitCode = 2;
    });

  const exportCmd =
    program.commands.find((c) => c.name() === "export") ??
    program.command("export").description("Export data as files");
  exportCmd
    .command("customers")
    .description("Export customers (all, or those matching --q) as CSV, to stdout or --out FILE")
    .requiredOption("--user <email>", "the e-mail of the user (tenant) who owns the customers")
    .option("--q <text>", "only customers whose name or e-mail contains this text")
    .option("--out <file>", "write to this file instead of standard output")
    .option("--bom", BOM_OPTION)
    .action(async (opts: { user: string; q?: string; out?: string; bom?: boolean }) => {
      const user = await tenantByEmail(opts.user);
      const source = Readable.fromWeb(
        csvStream(
          exportCustomersCsv(user.id, opts.q, {
            timeZone: user.timeZone ?? undefined,
          }),
          opts.bom,
        ) as unknown as NodeReadableStream<Uint8Array>,
      );
      if (opts.out) {
        await pipeline(source, createWriteStream(opts.out));
        console.error(`Customers written to ${opts.out}`);
      } else {
        await pipeline(source, process.stdout);
      }
    });
}
