// The bounce mailbox as the tests of app/services/feedback/bounce-mailbox.server.ts see it: a real
// Dovecot's mailbox as a person's mail client sees it (IMAP APPEND, a folder's messages, emptied
// between tests), and reports as mail systems write them (a Postfix-style DSN, an ARF abuse report)
// about a message as the SMTP channel writes it.
import { ImapFlow } from "imapflow";
import { afterAll, beforeAll } from "vitest";
import { PROCESSED_FOLDER, UNRECOGNISED_FOLDER } from "~/services/feedback/bounce-mailbox.server";
import { type Dovecot, startDovecot } from "./dovecot";

/**
 * A Dovecot of the test file's own, started before its tests (beforeAll) and stopped after them, and
 * its mailbox (imapMailbox()). `dovecot()` gives the running server.
 */
export function dovecotMailbox() {
  let started: Dovecot | undefined;
  beforeAll(async () => {
    started = await startDovecot();
  }, 60_000);
  afterAll(async () => {
    await started?.stop();
  });
  const dovecot = () => {
    if (!started) throw new Error("dovecotMailbox(): Dovecot starts before the file's first test");
    return started;
  };
  return { dovecot, ...imapMailbox(dovecot) };
}

/** The mailbox of the Dovecot `dovecot()` gives (read when used: it starts in a beforeAll). */
export function imapMailbox(dovecot: () => Dovecot) {
  const withImap = async <T>(work: (client: ImapFlow) => Promise<T>): Promise<T> => {
    const client = new ImapFlow({
      host: "127.0.0.1",
      port: dovecot().port,
      secure: false,
      auth: { user: dovecot().user, pass: dovecot().password },
      logger: false,
    });
    await client.connect();
    try {
      return await work(client);
    } finally {
      await client.logout();
    }
  };

  const append = (raw: string, flags: string[] = []) =>
    withImap((c) => c.append("INBOX", Buffer.from(raw.replace(/\r?\n/g, "\r\n")), flags));

  /** The messages of a folder: subject and whether they are \Seen. */
  const folder = async (name: string): Promise<{ subject: string; seen: boolean }[]> => {
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
  };

  /** Empties the mailbox's folders between tests. */
  const emptyMailbox = async () => {
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
  };
  return { withImap, append, folder, emptyMailbox };
}

/** A Postfix-style DSN for one recipient, returning the original message (or only its headers). */
export function dsn(options: {
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
export function arf(options: { id: string; to: string; returned: string; type?: string }) {
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
export const sent = (key: string, to: string) =>
  `From: Shop <news@shop.example>\nTo: ${to}\nSubject: Offers\nMessage-ID: <${key}@shop.example>\nX-CRM-Delivery-Id: ${key}\n\nHello\n`;

/** A message that is no report. */
export const spam = `From: "Prize desk" <win@spam.example>\nTo: bounces@shop.example\nSubject: You have won\n\nClick here.\n`;
