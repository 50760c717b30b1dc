// The bounce mailbox from the command line:
//   crm bounces poll
// Reads BOUNCE_MAILBOX_URL once, as the server's job does every BOUNCE_MAILBOX_POLL_SECONDS
// (app/services/feedback/bounce-mailbox.server.ts), and prints what each message was and what came
// of it. The receipts go to the receipts inbox; a running server's delivery job applies them within
// seconds.
import type { Command } from "commander";
import { migrateConfiguredDatabase } from "../../app/db/migrate-configured.server.ts";
import { closeConnection, openConnection } from "../../app/db/connection.server.ts";
import { getEnv } from "../../app/env.server.ts";
import { deliveryReceipts } from "../../app/models/deliveries/receipts/store.server.ts";
import { wakeDelivery } from "../../app/services/sending/wake.server.ts";
import {
  PROCESSED_FOLDER,
  pollBounceMailbox,
  UNRECOGNISED_FOLDER,
} from "../../app/services/feedback/bounce-mailbox.server.ts";

const n = (count: number) => count.toLocaleString("en-IN");
const counted = (count: number, one: string, many: string) => `${n(count)} ${count === 1 ? one : many}`;

export function registerBounceCommands(program: Command) {
  const bounces = program.command("bounces").description("The bounce mailbox: later bounces and spam complaints");
  bounces
    .command("poll")
    .description(
      `Read the bounce mailbox (BOUNCE_MAILBOX_URL) once: queue what its delivery reports and abuse reports say, move them to "${PROCESSED_FOLDER}" or "${UNRECOGNISED_FOLDER}"`,
    )
    .action(async () => {
      const env = getEnv();
      if (!env.BOUNCE_MAILBOX_URL) {
        throw new Error(
          'BOUNCE_MAILBOX_URL is not set: give the mailbox as imaps://user:password@mail.example.com:993/INBOX (docs/email.md, "Bounce mailbox").',
        );
      }
      await migrateConfiguredDatabase();
      const sqlite = openConnection({ poolSize: 1, applicationName: "crm bounces" });
      try {
        const result = await pollBounceMailbox(env.BOUNCE_MAILBOX_URL, (receipts) =>
          deliveryReceipts.queueReceipts(sqlite, receipts),
        );
        for (const r of result.readings) {
          console.log(`  #${r.uid} ${r.kind.padEnd(12)} ${r.note} — from ${r.from || "?"}: "${r.subject}"`);
        }
        console.log(
          `Read ${counted(result.read, "message", "messages")}: ${counted(result.queued, "receipt", "receipts")} queued, ${n(result.processed)} moved to ${PROCESSED_FOLDER}, ${n(result.unrecognised)} to ${UNRECOGNISED_FOLDER}.`,
        );
        if (result.queued > 0) {
          wakeDelivery();
          console.log("A running server's delivery job applies the receipts within seconds.");
        }
      } finally {
        await closeConnection(sqlite);
      }
    });
}
