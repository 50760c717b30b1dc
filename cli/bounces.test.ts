// `crm bounces poll` as an admin runs it (node bin/crm.mjs …) against a temporary data directory
// and a real Dovecot (tests/helpers/dovecot.ts): what it prints, what it queued, what it refuses.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { ImapFlow } from "imapflow";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Dovecot, startDovecot } from "../tests/helpers/dovecot";
import { runCli } from "./run-cli";

const scratch = mkdtempSync(path.join(tmpdir(), "crm-bounces-cli-"));
const dataDir = path.join(scratch, "data");
const SECRET = "cli-test-secret-that-is-long-enough-for-hs256";
const KEY = "019ac2d40000000000000033";
let dovecot: Dovecot;

beforeAll(async () => {
  dovecot = await startDovecot();
}, 60_000);
afterAll(async () => {
  await dovecot?.stop();
  rmSync(scratch, { recursive: true, force: true });
});

const crm = (env: Record<string, string>, ...argv: string[]) =>
  runCli(dataDir, argv, { env: { SESSION_SECRET: SECRET, ...env } });

const DSN = `From: MAILER-DAEMON@mx.customer.example (Mail Delivery System)
To: news@shop.example
Subject: Undelivered Mail Returned to Sender
Message-ID: <cli-dsn-1@mx.customer.example>
MIME-Version: 1.0
Content-Type: multipart/report; report-type=delivery-status; boundary="b"

--b
Content-Type: message/delivery-status

Reporting-MTA: dns; mx.customer.example

Final-Recipient: rfc822; asha@customer.example
Action: failed
Status: 5.1.1
Diagnostic-Code: smtp; 550 5.1.1 User unknown

--b
Content-Type: text/rfc822-headers

From: Shop <news@shop.example>
Message-ID: <${KEY}@shop.example>

--b--
`;

// Generous: each run starts tsx, seconds apiece on a busy machine.
describe("crm bounces poll", { timeout: 120_000 }, () => {
  it("reads the mailbox once, prints each message and queues its receipts", async () => {
    const client = new ImapFlow({
      host: "127.0.0.1",
      port: dovecot.port,
      secure: false,
      auth: { user: dovecot.user, pass: dovecot.password },
      logger: false,
    });
    await client.connect();
    await client.append("INBOX", Buffer.from(DSN.replace(/\n/g, "\r\n")));
    await client.append("INBOX", Buffer.from("From: friend@example.com\r\nSubject: Lunch?\r\n\r\nFree today?\r\n"));
    await client.logout();

    const run = await crm({ BOUNCE_MAILBOX_URL: dovecot.url }, "bounces", "poll");
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    expect(run.stdout).toContain(`#1 dsn          A delivery status notification for ${KEY}: bounced 5.1.1`);
    expect(run.stdout).toContain(
      '#2 unrecognised Not a bounce or complaint: "Lunch?" — from friend@example.com: "Lunch?"',
    );
    expect(run.stdout).toContain("Read 2 messages: 1 receipt queued, 1 moved to Processed, 1 to Unrecognised.");

    const db = new Database(path.join(dataDir, "crm.db"), { readonly: true });
    try {
      const rows = db.prepare(`SELECT "receipts" FROM "ReceiptInbox"`).all() as { receipts: string }[];
      expect(rows.flatMap((r) => JSON.parse(r.receipts) as { id: string; event: string }[])).toEqual([
        expect.objectContaining({ id: KEY, event: "bounced", source: "imap" }),
      ]);
    } finally {
      db.close();
    }

    const again = await crm({ BOUNCE_MAILBOX_URL: dovecot.url }, "bounces", "poll");
    expect(again.stdout).toContain("Read 0 messages: 0 receipts queued, 0 moved to Processed, 0 to Unrecognised.");
  });

  it("says what to set when there is no mailbox, what is wrong with a bad one, and what to check when it refuses", async () => {
    const none = await crm({ BOUNCE_MAILBOX_URL: "" }, "bounces", "poll");
    expect(none.code).toBe(1);
    expect(none.stderr).toContain("BOUNCE_MAILBOX_URL is not set: give the mailbox as imaps://user:password@");

    const bad = await crm({ BOUNCE_MAILBOX_URL: "pop3://bounces@mail.example.com" }, "bounces", "poll");
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain("BOUNCE_MAILBOX_URL: BOUNCE_MAILBOX_URL must be a URL like imaps://user:password@");

    const refused = await crm(
      { BOUNCE_MAILBOX_URL: dovecot.url.replace(dovecot.password, "wrong") },
      "bounces",
      "poll",
    );
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(`refused the login of ${dovecot.user}: check the user name and password`);
    expect(refused.stderr).not.toContain("wrong");
  });
});
