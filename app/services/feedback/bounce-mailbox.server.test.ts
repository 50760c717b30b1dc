// @engines sqlite postgres
// The bounce mailbox against a real IMAP server: Dovecot from Debian's packages, started by the
// test (tests/helpers/dovecot.ts; it fails, never skips, when Dovecot cannot start). Reports are
// put in the mailbox with IMAP APPEND, one poll reads them, and the test looks at the receipts
// inbox, the mailbox's folders and, for a real campaign sent through the SMTP channel to a real
// SMTP server, the delivery rows, the campaign's counters and the suppression list.
import path from "node:path";
import { Worker } from "node:worker_threads";
import { ImapFlow } from "imapflow";
import { pino } from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestUser, useTestConnection, useTestDatabase } from "../../../tests/helpers/db";
import { type Dovecot, startDovecot } from "../../../tests/helpers/dovecot";
import { type SmtpCapture, startSmtpCapture } from "../../../tests/helpers/smtp";
import { campaignRow, type SentRow, sendCampaignOverSmtp, sentRows } from "../../../tests/helpers/campaign-send";
import { sqlRows, sqlRun } from "../../../tests/helpers/sql";

process.env.MAIL_FROM = "Shop <news@shop.example>";
process.env.PUBLIC_URL = "https://crm.example";
// eslint-disable-next-line react-hooks/rules-of-hooks -- a test helper named use*, not a React hook
useTestDatabase();
// eslint-disable-next-line react-hooks/rules-of-hooks -- a test helper named use*, not a React hook
const connection = useTestConnection();

import { readMailboxUrl, resetEnvCache } from "~/env.server";
import { deliveryKey } from "~/lib/campaigns";
import type { Receipt } from "~/models/deliveries/receipts/rows";
import { deliveryReceipts } from "~/models/deliveries/receipts/store.server";
import { suppressions } from "~/models/suppressions/store.server";
import {
  BounceMailboxError,
  pollBounceMailbox,
  PROCESSED_FOLDER,
  UNRECOGNISED_FOLDER,
} from "~/services/feedback/bounce-mailbox.server";
import { startBackgroundJobs } from "~/services/background-jobs.server";
import { seedTenant } from "~/services/seed.server";

let dovecot: Dovecot;
let smtp: SmtpCapture;
let tenantId: string;

beforeAll(async () => {
  dovecot = await startDovecot();
  tenantId = (await createTestUser("Bounce mailbox")).id;
  await seedTenant(tenantId, { customers: 6, orders: 0, seed: 25 });
  smtp = await startSmtpCapture();
}, 60_000);
afterAll(async () => {
  await smtp?.close();
  await dovecot?.stop();
});

// ---- the mailbox, as a person's mail client sees it -------------------------------------------

async function withImap<T>(work: (client: ImapFlow) => Promise<T>): Promise<T> {
  const client = new ImapFlow({
    host: "127.0.0.1",
    port: dovecot.port,
    secure: false,
    auth: { user: dovecot.user, pass: dovecot.password },
    logger: false,
  });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.logout();
  }
}

const append = (raw: string, flags: string[] = []) =>
  withImap((c) => c.append("INBOX", Buffer.from(raw.replace(/\r?\n/g, "\r\n")), flags));

/** The messages of a folder: subject and whether they are \Seen. */
async function folder(name: string): Promise<{ subject: string; seen: boolean }[]> {
  return withImap(async (c) => {
    const exists = (await c.list()).some((f) => f.path === name);
    if (!exists) return [];
    const lock = await c.getMailboxLock(name);
    try {
      const out: { subject: string; seen: boolean }[] = [];
      if (c.mailbox && c.mailbox.exists === 0) return out;
      for await (const m of c.fetch("1:*", { envelope: true, flags: true })) {
        out.push({ subject: m.envelope?.subject ?? "", seen: m.flags?.has("\\Seen") ?? false });
      }
      return out.sort((a, b) => a.subject.localeCompare(b.subject));
    } finally {
      lock.release();
    }
  });
}

/** Empties the mailbox's folders between tests. */
async function emptyMailbox() {
  await withImap(async (c) => {
    for (const name of ["INBOX", PROCESSED_FOLDER, UNRECOGNISED_FOLDER]) {
      if (!(await c.list()).some((f) => f.path === name)) continue;
      const lock = await c.getMailboxLock(name);
      try {
        if (c.mailbox && c.mailbox.exists > 0) await c.messageDelete("1:*");
      } finally {
        lock.release();
      }
    }
  });
}

// ---- reports as mail systems write them ---------------------------------------------------------

/** A Postfix-style DSN for one recipient, returning the original message (or only its headers). */
function dsn(options: {
  id: string;
  to: string;
  returned: string;
  status?: string;
  action?: string;
  diagnostic?: string;
  headersOnly?: boolean;
}) {
  const status = options.status ?? "5.1.1";
  const diagnostic =
    options.diagnostic ?? `smtp; 550 ${status} <${options.to}>: Recipient address rejected: User unknown`;
  const returned = options.headersOnly
    ? options.returned.slice(0, options.returned.search(/\r?\n\r?\n/))
    : options.returned;
  return `From: MAILER-DAEMON@mx.customer.example (Mail Delivery System)
To: news@shop.example
Subject: Undelivered Mail Returned to Sender (${options.to})
Date: ${new Date().toUTCString()}
Message-ID: <${options.id}@mx.customer.example>
Auto-Submitted: auto-replied
MIME-Version: 1.0
Content-Type: multipart/report; report-type=delivery-status; boundary="dsn-boundary"

--dsn-boundary
Content-Type: text/plain; charset=us-ascii

This is the mail system at host mx.customer.example. Your message could not be delivered.

--dsn-boundary
Content-Type: message/delivery-status

Reporting-MTA: dns; mx.customer.example

Final-Recipient: rfc822; ${options.to}
Action: ${options.action ?? "failed"}
Status: ${status}
Diagnostic-Code: ${diagnostic}

--dsn-boundary
Content-Type: ${options.headersOnly ? "text/rfc822-headers" : "message/rfc822"}

${returned.replace(/\r\n/g, "\n")}
--dsn-boundary--
`;
}

/** An ARF abuse report from a mailbox provider's feedback loop, returning the original's headers. */
function arf(options: { id: string; to: string; returned: string; type?: string }) {
  const headers = options.returned.slice(0, options.returned.search(/\r?\n\r?\n/)).replace(/\r\n/g, "\n");
  return `From: Mail Feedback <feedback@fbl.mailbox.example>
To: abuse@shop.example
Subject: Complaint about message from news@shop.example
Date: ${new Date().toUTCString()}
Message-ID: <${options.id}@fbl.mailbox.example>
MIME-Version: 1.0
Content-Type: multipart/report; report-type=feedback-report; boundary="arf-boundary"

--arf-boundary
Content-Type: text/plain

This is an email abuse report for an email message received from IP 192.0.2.10.

--arf-boundary
Content-Type: message/feedback-report

Feedback-Type: ${options.type ?? "abuse"}
User-Agent: MailboxFBL/1.0
Version: 1
Original-Mail-From: <news@shop.example>
Original-Rcpt-To: <${options.to}>
Source-IP: 192.0.2.10

--arf-boundary
Content-Type: text/rfc822-headers

${headers}
--arf-boundary--
`;
}

/** A message as the SMTP channel writes it, for the tests that need no campaign. */
const sent = (key: string, to: string) =>
  `From: Shop <news@shop.example>\nTo: ${to}\nSubject: Offers\nMessage-ID: <${key}@shop.example>\nX-CRM-Delivery-Id: ${key}\n\nHello\n`;

const spam = `From: "Prize desk" <win@spam.example>\nTo: bounces@shop.example\nSubject: You have won\n\nClick here.\n`;

const inbox = async () =>
  (await sqlRows<{ receipts: string }>(connection(), `SELECT "receipts" FROM "ReceiptInbox" ORDER BY "id"`)).flatMap(
    (row) => JSON.parse(row.receipts) as Receipt[],
  );
const clearInbox = () => sqlRun(connection(), `DELETE FROM "ReceiptInbox"`);
const queue = (receipts: Receipt[]) => deliveryReceipts.queueReceipts(connection(), receipts);

describe("polling the bounce mailbox (a real Dovecot)", () => {
  it("queues what a DSN and an abuse report say, moves them to Processed and the rest to Unrecognised, all seen", async () => {
    await emptyMailbox();
    await clearInbox();
    const bounced = deliveryKey("019ac2d4-campaign", 11, 0);
    const complained = deliveryKey("019ac2d4-campaign", 12, 0);
    await append(dsn({ id: "dsn-1", to: "asha@customer.example", returned: sent(bounced, "asha@customer.example") }));
    await append(
      arf({ id: "arf-1", to: "ravi@customer.example", returned: sent(complained, "ravi@customer.example") }),
    );
    await append(spam);

    const result = await pollBounceMailbox(dovecot.url, queue);

    expect(result).toMatchObject({ read: 3, queued: 2, processed: 2, unrecognised: 1 });
    expect(result.readings.map((r) => r.kind).sort()).toEqual(["arf", "dsn", "unrecognised"]);
    expect(await inbox()).toEqual([
      expect.objectContaining({
        id: bounced,
        event: "bounced",
        source: "imap",
        details: "550 5.1.1 <asha@customer.example>: Recipient address rejected: User unknown (bounce mailbox)",
        eventId: "<dsn-1@mx.customer.example> asha@customer.example",
      }),
      expect.objectContaining({
        id: complained,
        event: "complained",
        source: "imap",
        eventId: "<arf-1@fbl.mailbox.example> ravi@customer.example",
      }),
    ]);
    expect(await folder("INBOX")).toEqual([]);
    expect(await folder(PROCESSED_FOLDER)).toEqual([
      { subject: "Complaint about message from news@shop.example", seen: true },
      { subject: "Undelivered Mail Returned to Sender (asha@customer.example)", seen: true },
    ]);
    expect(await folder(UNRECOGNISED_FOLDER)).toEqual([{ subject: "You have won", seen: true }]);

    // Nothing is left to read: the next poll finds nothing and queues nothing.
    expect(await pollBounceMailbox(dovecot.url, queue)).toMatchObject({ read: 0, queued: 0 });
    expect(await inbox()).toHaveLength(2);
  });

  it("reads a mailbox with more messages than a batch, batch by batch", async () => {
    await emptyMailbox();
    await clearInbox();
    for (let i = 1; i <= 7; i++) {
      const key = deliveryKey("019ac2d4-campaign", 100 + i, 0);
      await append(
        dsn({ id: `many-${i}`, to: `c${i}@customer.example`, returned: sent(key, `c${i}@customer.example`) }),
      );
    }
    const batches: number[] = [];
    const result = await pollBounceMailbox(
      dovecot.url,
      async (receipts) => {
        batches.push(receipts.length);
        await queue(receipts);
      },
      { batchSize: 3 },
    );
    expect(result).toMatchObject({ read: 7, queued: 7, processed: 7 });
    expect(batches).toEqual([3, 3, 1]);
    expect((await folder(PROCESSED_FOLDER)).length).toBe(7);
  });

  it("leaves a message someone already read in a mail client where it is", async () => {
    await emptyMailbox();
    const key = deliveryKey("019ac2d4-campaign", 21, 0);
    await append(dsn({ id: "read-1", to: "a@customer.example", returned: sent(key, "a@customer.example") }), [
      "\\Seen",
    ]);
    expect(await pollBounceMailbox(dovecot.url, queue)).toMatchObject({ read: 0 });
    expect(await folder("INBOX")).toHaveLength(1);
  });

  it("keeps the messages unseen in the mailbox when the receipts cannot be stored; the next poll reads them again", async () => {
    await emptyMailbox();
    await clearInbox();
    const key = deliveryKey("019ac2d4-campaign", 31, 0);
    await append(dsn({ id: "again-1", to: "b@customer.example", returned: sent(key, "b@customer.example") }));

    const refused = new Error("database is locked");
    await expect(
      pollBounceMailbox(dovecot.url, async () => {
        throw refused;
      }),
    ).rejects.toBe(refused);
    expect(await folder("INBOX")).toEqual([
      { subject: "Undelivered Mail Returned to Sender (b@customer.example)", seen: false },
    ]);

    const result = await pollBounceMailbox(dovecot.url, queue);
    expect(result).toMatchObject({ read: 1, queued: 1, processed: 1 });
    expect((await inbox()).map((r) => [r.id, r.event])).toEqual([[key, "bounced"]]);
    expect(await folder("INBOX")).toEqual([]);
  });

  it("says what to check when the mailbox cannot be reached or does not exist", async () => {
    const closed = `imap://${dovecot.user}:${dovecot.password}@127.0.0.1:1/INBOX`;
    await expect(pollBounceMailbox(closed, queue)).rejects.toThrow(
      /^Could not connect to 127\.0\.0\.1:1 \(ECONNREFUSED\): check the host and port in BOUNCE_MAILBOX_URL/,
    );
    const missing = dovecot.url.replace(/\/INBOX$/, "/Bounces");
    await expect(pollBounceMailbox(missing, queue)).rejects.toThrow(
      `The mailbox "Bounces" does not exist for ${dovecot.user} on 127.0.0.1`,
    );
  });
});

describe("BOUNCE_MAILBOX_URL (readMailboxUrl)", () => {
  it("reads imaps:// and imap:// with their default ports, percent-encoded credentials and the mailbox", () => {
    expect(readMailboxUrl("imaps://bounces%40shop.example:p%40ss%3Aw%2Frd@mail.shop.example/Bounces%20In")).toEqual({
      secure: true,
      host: "mail.shop.example",
      port: 993,
      user: "bounces@shop.example",
      password: "p@ss:w/rd",
      mailbox: "Bounces In",
    });
    expect(readMailboxUrl("imap://u:p@[::1]:1143")).toEqual({
      secure: false,
      host: "::1",
      port: 1143,
      user: "u",
      password: "p",
      mailbox: "INBOX",
    });
  });

  it("refuses anything else", () => {
    for (const bad of [
      "pop3://u:p@mail.example.com",
      "imaps://mail.example.com:993/INBOX",
      "imaps://u@mail.example.com",
      "imaps://u:p@mail.example.com/INBOX?x=1",
      "imaps://u:%E0%A4@mail.example.com",
      "mail.example.com",
    ]) {
      expect(readMailboxUrl(bad), bad).toBeNull();
    }
  });
});

describe("the connection's encryption", () => {
  it("never logs in in clear text to a server elsewhere: imap:// must upgrade with STARTTLS", async () => {
    // 127.0.0.2 is loopback too, but the client only trusts 127.0.0.1, ::1 and localhost as this
    // machine; this Dovecot offers no STARTTLS.
    const elsewhere = dovecot.url.replace("@127.0.0.1:", "@127.0.0.2:");
    const refusal = await pollBounceMailbox(elsewhere, queue).catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(BounceMailboxError);
    expect((refusal as Error).message).toBe(
      `127.0.0.2:${dovecot.port} does not offer STARTTLS: use imaps:// (port 993) in BOUNCE_MAILBOX_URL, or a server that encrypts the login.`,
    );
  });

  it("checks the server's certificate over imaps:// and over STARTTLS, and says so when it is not valid", async () => {
    const tls = await startDovecot({ tls: true });
    try {
      const credentials = `${tls.user}:${tls.password}`;
      for (const [url, port] of [
        [`imaps://${credentials}@127.0.0.1:${tls.tlsPort}/INBOX`, tls.tlsPort],
        [`imap://${credentials}@127.0.0.2:${tls.port}/INBOX`, tls.port],
      ] as const) {
        const refusal = await pollBounceMailbox(url, queue).catch((error: unknown) => error);
        expect(refusal).toBeInstanceOf(BounceMailboxError);
        expect((refusal as Error).message).toMatch(
          new RegExp(
            `^TLS with 127\\.0\\.0\\.[12]:${port} failed \\(self[- ]signed certificate\\): check that the server's certificate is valid for 127\\.0\\.0\\.[12]`,
          ),
        );
      }
    } finally {
      await tls.stop();
    }
  });
});

describe("the bounce mailbox job (jobs/bounce-mailbox.ts, as Bree starts it)", () => {
  it("polls once in its worker thread, queues the receipts on its own connection, asks for a wake and ends", async () => {
    await emptyMailbox();
    await clearInbox();
    const key = deliveryKey("019ac2d4-campaign", 41, 0);
    await append(dsn({ id: "job-1", to: "j@customer.example", returned: sent(key, "j@customer.example") }));
    await append(spam);

    process.env.BOUNCE_MAILBOX_URL = dovecot.url;
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

    const result = await pollBounceMailbox(dovecot.url, queue);
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
    expect(await pollBounceMailbox(dovecot.url, queue)).toMatchObject({ read: 3, queued: 3 });
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
    process.env.BOUNCE_MAILBOX_URL = dovecot.url;
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

// Last: Dovecot delays the next login from an address that gave a wrong password (its auth
// penalty, seconds), so the tests that do come after the others.
describe("a mailbox that refuses the login", () => {
  it("says what to check: the user name and password, never the password itself", async () => {
    const wrongPassword = dovecot.url.replace(dovecot.password, "not-the-password");
    const refusal = await pollBounceMailbox(wrongPassword, queue).catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(BounceMailboxError);
    expect((refusal as Error).message).toBe(
      `The mail server at 127.0.0.1:${dovecot.port} refused the login of ${dovecot.user}: check the user name and password in BOUNCE_MAILBOX_URL (percent-encode @, : and / in them).`,
    );
    expect((refusal as Error).message).not.toContain("not-the-password");
  });

  it("says what to check in the log when the mailbox refuses it, and ends normally for the next poll", async () => {
    process.env.BOUNCE_MAILBOX_URL = dovecot.url.replace(dovecot.password, "wrong-password");
    const messages: unknown[] = [];
    try {
      const worker = new Worker(path.resolve(import.meta.dirname, "../../../jobs/bounce-mailbox.mjs"));
      worker.on("message", (m) => messages.push(m));
      expect(await new Promise<number>((resolve) => worker.once("exit", resolve))).toBe(0);
    } finally {
      delete process.env.BOUNCE_MAILBOX_URL;
    }
    expect(messages).toEqual([
      {
        type: "log",
        level: "warn",
        message: expect.stringMatching(
          /^Bounce mailbox: The mail server at 127\.0\.0\.1:\d+ refused the login of bounces: check the user name and password in BOUNCE_MAILBOX_URL .* Trying again in 60 s\.$/,
        ),
      },
      "done",
    ]);
  }, 60_000);
});
