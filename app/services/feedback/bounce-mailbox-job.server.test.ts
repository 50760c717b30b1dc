// @engines sqlite postgres
// The bounce mailbox's job and what its reports do to a campaign, against a real IMAP server:
// Dovecot from Debian's packages, started by the test (tests/helpers/dovecot.ts; it fails, never
// skips, when Dovecot cannot start). Reports are put in the mailbox with IMAP APPEND
// (tests/helpers/bounce-mail.ts); the job runs in its worker thread as Bree starts it, and for a
// real campaign sent through the SMTP channel to a real SMTP server the test looks at the delivery
// rows, the campaign's counters and the suppression list, also with the server's background jobs.
// Polling itself: bounce-mailbox.server.test.ts.
import path from "node:path";
import { Worker } from "node:worker_threads";
import { pino } from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { useTestConnection, useTestDatabase } from "../../../tests/helpers/db";
import { arf, dovecotMailbox, dsn, sent, spam } from "../../../tests/helpers/bounce-mail";
import { receiptInbox } from "../../../tests/helpers/receipt-inbox";
import { seededTenant } from "../../../tests/helpers/seeded-tenants";
import { type SmtpCapture, startSmtpCapture } from "../../../tests/helpers/smtp";
import { campaignRow, type SentRow, sendCampaignOverSmtp, sentRows } from "../../../tests/helpers/campaign-send";

process.env.MAIL_FROM = "Shop <news@shop.example>";
process.env.PUBLIC_URL = "https://crm.example";
// eslint-disable-next-line react-hooks/rules-of-hooks -- a test helper named use*, not a React hook
useTestDatabase();
// eslint-disable-next-line react-hooks/rules-of-hooks -- a test helper named use*, not a React hook
const connection = useTestConnection();

import { resetEnvCache } from "~/env.server";
import { deliveryKey } from "~/lib/campaigns";
import { deliveryReceipts } from "~/models/deliveries/receipts/store.server";
import { suppressions } from "~/models/suppressions/store.server";
import { pollBounceMailbox, PROCESSED_FOLDER } from "~/services/feedback/bounce-mailbox.server";
import { startBackgroundJobs } from "~/services/job-scheduler.server";

const { dovecot, append, folder, emptyMailbox } = dovecotMailbox();
let smtp: SmtpCapture;
let tenantId: string;

beforeAll(async () => {
  tenantId = (await seededTenant("Bounce mailbox", 6, 25)).id;
  smtp = await startSmtpCapture();
}, 60_000);
afterAll(async () => {
  await smtp?.close();
});

const { inbox, clearInbox, queue } = receiptInbox(connection);

describe("the bounce mailbox job (jobs/bounce-mailbox.ts, as Bree starts it)", () => {
  it("polls once in its worker thread, queues the receipts on its own connection, asks for a wake and ends", async () => {
    await emptyMailbox();
    await clearInbox();
    const key = deliveryKey("019ac2d4-campaign", 41, 0);
    await append(dsn({ id: "job-1", to: "j@customer.example", returned: sent(key, "j@customer.example") }));
    await append(spam);

    process.env.BOUNCE_MAILBOX_URL = dovecot().url;
    const messages: unknown[] = [];
    try {
      const worker = new Worker(path.resolve(import.meta.dirname, "../../../jobs/bounce-mailbox.mjs"));
      worker.on("message", (m) => messages.push(m));
      const code = await new Promise<number>((resolve, reject) => {
        worker.once("exit", resolve);
        worker.once("error", reject);
      });
      expect(code).toBe(0);
    } finally {
      delete process.env.BOUNCE_MAILBOX_URL;
    }

    expect(messages).toEqual([
      { type: "wake" },
      {
        type: "log",
        level: "info",
        message: "bounce mailbox read",
        fields: { read: 2, queued: 1, processed: 1, unrecognised: 1 },
      },
      "done",
    ]);
    expect((await inbox()).map((r) => [r.id, r.event, r.source])).toEqual([[key, "bounced", "imap"]]);
    expect(await folder("INBOX")).toEqual([]);
  }, 60_000);
});

// ---- a real campaign, sent through the SMTP channel, bounced and complained about by mail ----------

const campaign = (id: string) => campaignRow(connection(), id);
type Row = SentRow;
const rowsOf = (id: string) => sentRows(connection(), id);
const sendCampaign = () =>
  sendCampaignOverSmtp(connection(), {
    userId: tenantId,
    smtpPort: smtp.port,
    name: "Diwali offers",
    message: "Hi {NAME}, 10% off",
  });

describe("a campaign's later bounces and complaints through the bounce mailbox", () => {
  it("ends the bounced row Bounced, the complained one Complained, counts the soft bounce, suppresses; the same reports again change nothing", async () => {
    await emptyMailbox();
    await clearInbox();
    const id = await sendCampaign();
    const rows = await rowsOf(id);
    expect(rows.length).toBe(6);
    expect(rows.every((r) => r.status === "delivered")).toBe(true);
    const message = (row: Row) => {
      const m = smtp.messages.find((c) => c.messageId === `<${deliveryKey(id, row.seq, row.retries)}@shop.example>`);
      if (!m) throw new Error(`No message reached the SMTP server for ${row.email}`);
      return m.raw;
    };
    const [hard, complainer, soft] = rows;
    const reports = [
      dsn({ id: "late-hard", to: hard.email, returned: message(hard) }),
      arf({ id: "late-arf", to: complainer.email, returned: message(complainer) }),
      dsn({
        id: "late-soft",
        to: soft.email,
        returned: message(soft),
        status: "4.2.2",
        diagnostic: "smtp; 452 4.2.2 Mailbox full",
        headersOnly: true,
      }),
    ];
    for (const report of reports) await append(report);

    const result = await pollBounceMailbox(dovecot().url, queue);
    expect(result).toMatchObject({ read: 3, queued: 3, processed: 3, unrecognised: 0 });
    expect(await deliveryReceipts.applyQueuedReceipts(connection())).toMatchObject({ applied: 3 });

    const after = new Map((await rowsOf(id)).map((r) => [r.email, r]));
    expect(after.get(hard.email)).toMatchObject({
      status: "bounced",
      details: `550 5.1.1 <${hard.email}>: Recipient address rejected: User unknown (bounce mailbox)`,
    });
    expect(after.get(complainer.email)?.status).toBe("complained");
    expect(after.get(soft.email)?.status).toBe("delivered");
    const counted = await campaign(id);
    expect(counted).toMatchObject({ bouncedCount: 1, complainedCount: 1, softBounceCount: 1 });
    expect(await suppressions.findSuppression(tenantId, hard.email)).toMatchObject({
      reason: "hard-bounced",
      campaignId: id,
    });
    expect(await suppressions.findSuppression(tenantId, complainer.email)).toMatchObject({
      reason: "complained",
      campaignId: id,
    });
    expect(await suppressions.findSuppression(tenantId, soft.email)).toBeNull();

    // The same three reports again (a second copy of each in the mailbox): read, queued, and
    // changing nothing, because each carries the same report Message-ID.
    for (const report of reports) await append(report);
    expect(await pollBounceMailbox(dovecot().url, queue)).toMatchObject({ read: 3, queued: 3 });
    await deliveryReceipts.applyQueuedReceipts(connection());
    expect(await campaign(id)).toMatchObject({
      bouncedCount: counted.bouncedCount,
      complainedCount: counted.complainedCount,
      softBounceCount: counted.softBounceCount,
      deliveredCount: counted.deliveredCount,
    });
    expect(new Map((await rowsOf(id)).map((r) => [r.email, r.status]))).toEqual(
      new Map([...after].map(([email, r]) => [email, r.status])),
    );
    expect(await folder(PROCESSED_FOLDER)).toHaveLength(6);
  });
});

describe("the server's background jobs", () => {
  it("read the mailbox when BOUNCE_MAILBOX_URL is set, and the delivery job applies what was queued", async () => {
    await emptyMailbox();
    await clearInbox();
    const id = await sendCampaign();
    const [row] = await rowsOf(id);
    const raw = smtp.messages.find(
      (c) => c.messageId === `<${deliveryKey(id, row.seq, row.retries)}@shop.example>`,
    )?.raw;
    if (!raw) throw new Error("the message did not reach the SMTP server");
    await append(dsn({ id: "jobs-1", to: row.email, returned: raw }));

    const lines: string[] = [];
    const log = pino({ level: "info" }, { write: (line: string) => void lines.push(line) });
    process.env.BOUNCE_MAILBOX_URL = dovecot().url;
    process.env.BOUNCE_MAILBOX_POLL_SECONDS = "10";
    resetEnvCache();
    const jobs = await startBackgroundJobs({ root: path.resolve(import.meta.dirname, "../../.."), log });
    try {
      const deadline = Date.now() + 30_000;
      while ((await rowsOf(id))[0]?.status !== "bounced" && Date.now() < deadline)
        await new Promise((r) => setTimeout(r, 100));
    } finally {
      await jobs.stop();
      delete process.env.BOUNCE_MAILBOX_URL;
      delete process.env.BOUNCE_MAILBOX_POLL_SECONDS;
      resetEnvCache();
    }
    expect((await rowsOf(id))[0]).toMatchObject({ email: row.email, status: "bounced" });
    expect(await suppressions.findSuppression(tenantId, row.email)).toMatchObject({
      reason: "hard-bounced",
      campaignId: id,
    });
    const read = lines
      .map((l) => JSON.parse(l) as { msg?: string; read?: number })
      .find((l) => l.msg === "bounce mailbox read");
    expect(read).toMatchObject({ read: 1, queued: 1, processed: 1, unrecognised: 0 });
  }, 60_000);
});
