// @engines sqlite postgres
// Polling the bounce mailbox against a real IMAP server: Dovecot from Debian's packages, started by
// the test (tests/helpers/dovecot.ts; it fails, never skips, when Dovecot cannot start). Reports
// are put in the mailbox with IMAP APPEND (tests/helpers/bounce-mail.ts), one poll reads them, and
// the test looks at the receipts inbox and the mailbox's folders; BOUNCE_MAILBOX_URL, the
// connection's encryption and a mailbox that refuses the login. The job and what the reports do
// to a real campaign: bounce-mailbox-job.server.test.ts.
import path from "node:path";
import { Worker } from "node:worker_threads";
import { describe, expect, it } from "vitest";
import { useTestConnection, useTestDatabase } from "../../../tests/helpers/db";
import { startDovecot } from "../../../tests/helpers/dovecot";
import { arf, dovecotMailbox, dsn, sent, spam } from "../../../tests/helpers/bounce-mail";
import { receiptInbox } from "../../../tests/helpers/receipt-inbox";

process.env.MAIL_FROM = "Shop <news@shop.example>";
process.env.PUBLIC_URL = "https://crm.example";
// eslint-disable-next-line react-hooks/rules-of-hooks -- a test helper named use*, not a React hook
useTestDatabase();
// eslint-disable-next-line react-hooks/rules-of-hooks -- a test helper named use*, not a React hook
const connection = useTestConnection();

import { readMailboxUrl } from "~/env-values.server";
import { deliveryKey } from "~/lib/campaigns";
import {
  BounceMailboxError,
  pollBounceMailbox,
  PROCESSED_FOLDER,
  UNRECOGNISED_FOLDER,
} from "~/services/feedback/bounce-mailbox.server";

const { dovecot, append, folder, emptyMailbox } = dovecotMailbox();

const { inbox, clearInbox, queue } = receiptInbox(connection);

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

    const result = await pollBounceMailbox(dovecot().url, queue);

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
    expect(await pollBounceMailbox(dovecot().url, queue)).toMatchObject({ read: 0, queued: 0 });
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
      dovecot().url,
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
    expect(await pollBounceMailbox(dovecot().url, queue)).toMatchObject({ read: 0 });
    expect(await folder("INBOX")).toHaveLength(1);
  });

  it("keeps the messages unseen in the mailbox when the receipts cannot be stored; the next poll reads them again", async () => {
    await emptyMailbox();
    await clearInbox();
    const key = deliveryKey("019ac2d4-campaign", 31, 0);
    await append(dsn({ id: "again-1", to: "b@customer.example", returned: sent(key, "b@customer.example") }));

    const refused = new Error("database is locked");
    await expect(
      pollBounceMailbox(dovecot().url, async () => {
        throw refused;
      }),
    ).rejects.toBe(refused);
    expect(await folder("INBOX")).toEqual([
      { subject: "Undelivered Mail Returned to Sender (b@customer.example)", seen: false },
    ]);

    const result = await pollBounceMailbox(dovecot().url, queue);
    expect(result).toMatchObject({ read: 1, queued: 1, processed: 1 });
    expect((await inbox()).map((r) => [r.id, r.event])).toEqual([[key, "bounced"]]);
    expect(await folder("INBOX")).toEqual([]);
  });

  it("says what to check when the mailbox cannot be reached or does not exist", async () => {
    const closed = `imap://${dovecot().user}:${dovecot().password}@127.0.0.1:1/INBOX`;
    await expect(pollBounceMailbox(closed, queue)).rejects.toThrow(
      /^Could not connect to 127\.0\.0\.1:1 \(ECONNREFUSED\): check the host and port in BOUNCE_MAILBOX_URL/,
    );
    const missing = dovecot().url.replace(/\/INBOX$/, "/Bounces");
    await expect(pollBounceMailbox(missing, queue)).rejects.toThrow(
      `The mailbox "Bounces" does not exist for ${dovecot().user} on 127.0.0.1`,
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
    const elsewhere = dovecot().url.replace("@127.0.0.1:", "@127.0.0.2:");
    const refusal = await pollBounceMailbox(elsewhere, queue).catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(BounceMailboxError);
    expect((refusal as Error).message).toBe(
      `127.0.0.2:${dovecot().port} does not offer STARTTLS: use imaps:// (port 993) in BOUNCE_MAILBOX_URL, or a server that encrypts the login.`,
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

// Last: Dovecot delays the next login from an address that gave a wrong password (its auth
// penalty, seconds), so the tests that do come after the others.
describe("a mailbox that refuses the login", () => {
  it("says what to check: the user name and password, never the password itself", async () => {
    const wrongPassword = dovecot().url.replace(dovecot().password, "not-the-password");
    const refusal = await pollBounceMailbox(wrongPassword, queue).catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(BounceMailboxError);
    expect((refusal as Error).message).toBe(
      `The mail server at 127.0.0.1:${dovecot().port} refused the login of ${dovecot().user}: check the user name and password in BOUNCE_MAILBOX_URL (percent-encode @, : and / in them).`,
    );
    expect((refusal as Error).message).not.toContain("not-the-password");
  });

  it("says what to check in the log when the mailbox refuses it, and ends normally for the next poll", async () => {
    process.env.BOUNCE_MAILBOX_URL = dovecot().url.replace(dovecot().password, "wrong-password");
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
