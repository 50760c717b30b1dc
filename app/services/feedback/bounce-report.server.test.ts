// The bounce mailbox's reader on reports shaped as real mail systems send them: Postfix's DSN with
// the returned message, a Gmail-style DSN with only the headers, an Exchange-style failure on a
// temporary status, a delayed notice, abuse reports (ARF) from a mailbox provider's feedback loop,
// a qmail plain-text bounce, and what must be ignored without error.
import { describe, expect, it } from "vitest";
import { deliveryKey } from "~/lib/campaigns";
import { readBounceReport, readFields } from "~/services/feedback/bounce-report.server";

const KEY = deliveryKey("019ac2d4-campaign", 7, 0);
const RETRY_KEY = deliveryKey("019ac2d4-campaign", 9, 2);
const NOW = Date.UTC(2026, 10, 26, 8, 0, 0);

const mail = (text: string) => Buffer.from(text.replace(/\r?\n/g, "\r\n"), "utf8");

/** The message as the SMTP channel sends it (the returned part of a DSN or ARF). */
const original = (key = KEY) => `Received: from crm.shop.example (crm.shop.example [192.0.2.10])
\tby mx.shop.example (Postfix) with ESMTPS id 4Z1
\tfor <asha@customer.example>; Thu, 26 Nov 2026 07:40:02 +0000 (UTC)
From: Shop <news@shop.example>
To: Asha Rao <asha@customer.example>
Subject: Diwali offers
Date: Thu, 26 Nov 2026 07:40:01 +0000
Message-ID: <${key}@shop.example>
X-CRM-Delivery-Id: ${key}
List-Unsubscribe: <https://crm.example/u/tok>
MIME-Version: 1.0
Content-Type: text/plain; charset=utf-8

Hello Asha, 20% off this week.
`;

const postfixHard = `Return-Path: <>
Delivered-To: bounces@shop.example
Date: Thu, 26 Nov 2026 07:40:05 +0000 (UTC)
From: MAILER-DAEMON@mx.shop.example (Mail Delivery System)
Subject: Undelivered Mail Returned to Sender
To: news@shop.example
Auto-Submitted: auto-replied
MIME-Version: 1.0
Content-Type: multipart/report; report-type=delivery-status;
\tboundary="4Z1.1764142805/mx.shop.example"
Message-Id: <20261126074005.4Z1@mx.shop.example>

This is a MIME-encapsulated message.

--4Z1.1764142805/mx.shop.example
Content-Description: Notification
Content-Type: text/plain; charset=us-ascii

This is the mail system at host mx.shop.example.

I'm sorry to have to inform you that your message could not
be delivered to one or more recipients.

<asha@customer.example>: host mx.customer.example[198.51.100.7] said: 550 5.1.1
    <asha@customer.example>: Recipient address rejected: User unknown in
    virtual mailbox table (in reply to RCPT TO command)

--4Z1.1764142805/mx.shop.example
Content-Description: Delivery report
Content-Type: message/delivery-status

Reporting-MTA: dns; mx.shop.example
X-Postfix-Queue-ID: 4Z1
X-Postfix-Sender: rfc822; news@shop.example
Arrival-Date: Thu, 26 Nov 2026 07:40:02 +0000 (UTC)

Final-Recipient: rfc822; asha@customer.example
Original-Recipient: rfc822;asha@customer.example
Action: failed
Status: 5.1.1
Remote-MTA: dns; mx.customer.example
Diagnostic-Code: smtp; 550 5.1.1 <asha@customer.example>: Recipient address
    rejected: User unknown in virtual mailbox table

--4Z1.1764142805/mx.shop.example
Content-Description: Undelivered Message
Content-Type: message/rfc822

${original()}
--4Z1.1764142805/mx.shop.example--
`;

const gmailHeadersOnly = `Delivered-To: bounces@shop.example
Return-Path: <>
From: Mail Delivery Subsystem <mailer-daemon@googlemail.com>
To: news@shop.example
Auto-Submitted: auto-replied
Subject: Delivery Status Notification (Failure)
Message-ID: <6745a1c3.050a0220.gmail.bounce@mx.google.com>
Date: Thu, 26 Nov 2026 07:41:00 -0800 (PST)
MIME-Version: 1.0
Content-Type: multipart/report; boundary="000000000000gmail"; report-type=delivery-status

--000000000000gmail
Content-Type: multipart/related; boundary="000000000000related"

--000000000000related
Content-Type: multipart/alternative; boundary="000000000000alt"

--000000000000alt
Content-Type: text/plain; charset="UTF-8"

** Address not found **

Your message wasn't delivered to ravi@gmail.example because the address couldn't be found, or is unable to receive mail.

--000000000000alt
Content-Type: text/html; charset="UTF-8"

<html><body><h2>Address not found</h2></body></html>

--000000000000alt--
--000000000000related--
--000000000000gmail
Content-Type: message/delivery-status

Reporting-MTA: dns; googlemail.com
Received-From-MTA: dns; crm.shop.example
Arrival-Date: Thu, 26 Nov 2026 07:40:59 -0800 (PST)
X-Original-Message-ID: <${RETRY_KEY}@shop.example>

Final-Recipient: rfc822; ravi@gmail.example
Action: failed
Status: 5.1.1
Diagnostic-Code: smtp; The email account that you tried to reach does not exist. Please try
 double-checking the recipient's email address for typos or unnecessary spaces.
 For more information, go to https://support.google.com/mail/?p=NoSuchUser
Last-Attempt-Date: Thu, 26 Nov 2026 07:41:00 -0800 (PST)

--000000000000gmail
Content-Type: text/rfc822-headers

From: Shop <news@shop.example>
To: ravi@gmail.example
Subject: Diwali offers
Message-ID: <${RETRY_KEY}@shop.example>
Date: Thu, 26 Nov 2026 15:40:58 +0000

--000000000000gmail--
`;

const exchangeSoft = `From: postmaster@outlook.example
To: news@shop.example
Subject: Undeliverable: Diwali offers
Message-ID: <ex-4455@outlook.example>
Date: Thu, 26 Nov 2026 07:45:00 +0000
Content-Type: multipart/report; report-type=delivery-status; boundary="ex"

--ex
Content-Type: text/plain; charset=utf-8

Delivery has failed to these recipients or groups: meera@outlook.example
The recipient's mailbox is full and can't accept messages now.

--ex
Content-Type: message/delivery-status

Reporting-MTA: dns;EX01.outlook.example

Final-recipient: RFC822; meera@outlook.example
Action: failed
Status: 4.2.2
Diagnostic-code: smtp;452 4.2.2 Mailbox full

--ex
Content-Type: message/rfc822

${original()}
--ex--
`;

const postfixDelayed = postfixHard
  .replace("Action: failed\nStatus: 5.1.1", "Action: delayed\nStatus: 4.4.1")
  .replace("Undelivered Mail Returned to Sender", "Delayed Mail (still being retried)")
  .replace("<20261126074005.4Z1@mx.shop.example>", "<20261126074005.delay@mx.shop.example>");

const arf = (
  feedbackType: string,
  returned: string,
  returnedType = "message/rfc822",
) => `From: Yahoo! Mail AntiSpam Feedback <feedback@arf.mail.yahoo.example>
To: fbl@shop.example
Subject: FW: Diwali offers
Date: Thu, 26 Nov 2026 07:55:00 +0000
Message-ID: <arf-20261126-001@arf.mail.yahoo.example>
MIME-Version: 1.0
Content-Type: multipart/report; report-type=feedback-report; boundary="arf_boundary"

--arf_boundary
Content-Type: text/plain; charset="US-ASCII"
Content-Transfer-Encoding: 7bit

This is an email abuse report for an email message received from IP 192.0.2.10 on Thu, 26 Nov 2026 07:40:02 +0000.
For more information about this format please see http://www.mipassoc.org/arf/.

--arf_boundary
Content-Type: message/feedback-report

Feedback-Type: ${feedbackType}
User-Agent: Yahoo!-Mail-Feedback/2.0
Version: 1
Original-Mail-From: <news@shop.example>
Original-Rcpt-To: <asha@customer.example>
Arrival-Date: Thu, 26 Nov 2026 07:40:02 +0000
Reporting-MTA: dns; mta1.arf.mail.yahoo.example
Source-IP: 192.0.2.10
Reported-Domain: shop.example

--arf_boundary
Content-Type: ${returnedType}
Content-Disposition: inline

${returned}
--arf_boundary--
`;

const qmailPlain = `From: MAILER-DAEMON@mail.oldhost.example
To: news@shop.example
Subject: failure notice
Date: Thu, 26 Nov 2026 07:50:00 +0000
Message-ID: <qmail-77@mail.oldhost.example>

Hi. This is the qmail-send program at mail.oldhost.example.
I'm afraid I wasn't able to deliver your message to the following addresses.
This is a permanent error; I've given up. Sorry it didn't work out.

<kiran@oldhost.example>:
192.0.2.77 does not like recipient.
Remote host said: 550 5.1.1 kiran@oldhost.example... User unknown
Giving up on 192.0.2.77.

--- Below this line is a copy of the message.

Return-Path: <news@shop.example>
Received: (qmail 1234 invoked from network); 26 Nov 2026 07:49:59 -0000
From: Shop <news@shop.example>
To: kiran@oldhost.example
Subject: Diwali offers
Message-ID: <${KEY}@shop.example>

Hello Kiran
`;

describe("readBounceReport", () => {
  it("reads Postfix's DSN with the returned message as a hard bounce of the delivery", async () => {
    const reading = await readBounceReport(mail(postfixHard), NOW);
    expect(reading.kind).toBe("dsn");
    expect(reading.receipts).toEqual([
      {
        id: KEY,
        event: "bounced",
        at: Date.UTC(2026, 10, 26, 7, 40, 5),
        details:
          "550 5.1.1 <asha@customer.example>: Recipient address rejected: User unknown in virtual mailbox table (bounce mailbox)",
        source: "imap",
        eventId: "<20261126074005.4Z1@mx.shop.example> asha@customer.example",
        email: "asha@customer.example",
      },
    ]);
  });

  it("reads a permanent failure that is not about the address (5.7.1, refused as spam) as a soft bounce", async () => {
    const refused = postfixHard
      .replace(/Status: 5\.1\.1/, "Status: 5.7.1")
      .replace(/Diagnostic-Code: .*/, "Diagnostic-Code: smtp; 554 5.7.1 Message rejected as spam");
    expect(refused).not.toBe(postfixHard);
    const reading = await readBounceReport(mail(refused), NOW);
    expect(reading.receipts).toMatchObject([{ event: "soft-bounced", email: "asha@customer.example" }]);
  });

  it("reads a Gmail-style DSN with only the returned headers, a retry's key included", async () => {
    const reading = await readBounceReport(mail(gmailHeadersOnly), NOW);
    expect(reading.receipts).toHaveLength(1);
    expect(reading.receipts[0]).toMatchObject({ id: RETRY_KEY, event: "bounced", source: "imap" });
    expect(reading.receipts[0]?.details).toMatch(/^The email account that you tried to reach does not exist\./);
    expect(reading.receipts[0]?.details).toMatch(/\(bounce mailbox\)$/);
  });

  it("finds the delivery from a DSN's X-Original-Message-ID when no headers came back", async () => {
    const noHeaders = gmailHeadersOnly.replace(
      /--000000000000gmail\nContent-Type: text\/rfc822-headers[\s\S]*?(?=--000000000000gmail--)/,
      "",
    );
    expect(noHeaders).not.toContain("text/rfc822-headers");
    const reading = await readBounceReport(mail(noHeaders), NOW);
    expect(reading.receipts.map((r) => r.id)).toEqual([RETRY_KEY]);
  });

  it("counts a failure on a temporary status (mailbox full) as a soft bounce", async () => {
    const reading = await readBounceReport(mail(exchangeSoft), NOW);
    expect(reading.receipts).toEqual([
      expect.objectContaining({
        id: KEY,
        event: "soft-bounced",
        details: "452 4.2.2 Mailbox full (bounce mailbox)",
        eventId: "<ex-4455@outlook.example> meera@outlook.example",
      }),
    ]);
  });

  it("understands a delayed notice and counts nothing for it (the MTA is still trying)", async () => {
    const reading = await readBounceReport(mail(postfixDelayed), NOW);
    expect(reading.kind).toBe("dsn");
    expect(reading.receipts).toEqual([]);
    expect(reading.note).toContain("delayed (still trying: not counted)");
  });

  it("reads an abuse report (ARF) with the returned message as a complaint", async () => {
    const reading = await readBounceReport(mail(arf("abuse", original())), NOW);
    expect(reading.kind).toBe("arf");
    expect(reading.receipts).toEqual([
      {
        id: KEY,
        event: "complained",
        at: Date.UTC(2026, 10, 26, 7, 55, 0),
        details: "Marked as spam (abuse report from Yahoo!-Mail-Feedback/2.0) (bounce mailbox)",
        source: "imap",
        eventId: "<arf-20261126-001@arf.mail.yahoo.example> asha@customer.example",
        email: "asha@customer.example",
      },
    ]);
  });

  it("reads an ARF report that returns only the headers (text/rfc822-headers), recipient redacted", async () => {
    const headers = headerOnly(original()).replace("To: Asha Rao <asha@customer.example>", "To: redacted");
    const report = arf("fraud", headers, "text/rfc822-headers").replace(/Original-Rcpt-To: .*\n/, "");
    const reading = await readBounceReport(mail(report), NOW);
    expect(reading.receipts).toEqual([
      expect.objectContaining({
        id: KEY,
        event: "complained",
        eventId: "<arf-20261126-001@arf.mail.yahoo.example>",
      }),
    ]);
  });

  it("understands an ARF report that is not a complaint and counts nothing", async () => {
    const reading = await readBounceReport(mail(arf("not-spam", original())), NOW);
    expect(reading).toMatchObject({ kind: "arf", receipts: [] });
  });

  it("reads a qmail plain-text bounce that quotes the original headers", async () => {
    const reading = await readBounceReport(mail(qmailPlain), NOW);
    expect(reading.kind).toBe("plain-bounce");
    expect(reading.receipts).toEqual([
      expect.objectContaining({
        id: KEY,
        event: "bounced",
        details: "Remote host said: 550 5.1.1 kiran@oldhost.example... User unknown (bounce mailbox)",
        eventId: "<qmail-77@mail.oldhost.example>",
      }),
    ]);
  });

  it("finds the delivery from a VERP address when the report returns nothing of the message", async () => {
    const verp = exchangeSoft
      .replace("To: news@shop.example", `To: bounces+${KEY}@shop.example`)
      .replace(/--ex\nContent-Type: message\/rfc822[\s\S]*?(?=--ex--)/, "");
    expect(verp).not.toContain("message/rfc822");
    const reading = await readBounceReport(mail(verp), NOW);
    expect(reading.receipts.map((r) => [r.id, r.event])).toEqual([[KEY, "soft-bounced"]]);
  });

  it("ignores a bounce of a message that is not one of ours", async () => {
    const theirs = postfixHard.replaceAll(KEY, "personal-mail-1234");
    const reading = await readBounceReport(mail(theirs), NOW);
    expect(reading).toMatchObject({ kind: "unrecognised", receipts: [] });
  });

  it("ignores a Message-ID that only looks like ours (not a delivery key)", async () => {
    const fake = postfixHard.replaceAll(KEY, "019ac2d4zzzzzzzzzzzzzzzz");
    expect((await readBounceReport(mail(fake), NOW)).receipts).toEqual([]);
  });

  it("ignores an auto-reply, spam and garbage without an error", async () => {
    const autoReply = `From: Asha <asha@customer.example>
To: news@shop.example
Subject: Out of office: Diwali offers
Auto-Submitted: auto-replied
In-Reply-To: <${KEY}@shop.example>
Message-ID: <ooo-1@customer.example>

I am away until Monday.
`;
    const spam = `From: "Prize" <win@spam.example>\nTo: bounces@shop.example\nSubject: You won!!!\n\nClick here.\n`;
    for (const raw of [mail(autoReply), mail(spam), Buffer.from([0, 1, 2, 255, 254, 10, 13]), Buffer.alloc(0)]) {
      const reading = await readBounceReport(raw, NOW);
      expect(reading).toMatchObject({ kind: "unrecognised", receipts: [] });
    }
  });

  it("gives a report without a Message-ID a stable event id (the same report twice is one event)", async () => {
    const noId = exchangeSoft.replace(/^Message-ID: .*\n/m, "");
    const [a, b] = await Promise.all([readBounceReport(mail(noId), NOW), readBounceReport(mail(noId), NOW)]);
    expect(a.receipts[0]?.eventId).toMatch(/^sha256:[0-9a-f]{64} meera@outlook\.example$/);
    expect(a.receipts[0]?.eventId).toBe(b.receipts[0]?.eventId);
  });

  it("takes a report dated in the future as arriving now", async () => {
    const future = exchangeSoft.replace(
      "Date: Thu, 26 Nov 2026 07:45:00 +0000",
      "Date: Fri, 27 Nov 2026 07:45:00 +0000",
    );
    expect((await readBounceReport(mail(future), NOW)).receipts[0]?.at).toBe(NOW);
  });
});

describe("readFields", () => {
  it("joins folded lines, lower-cases names and keeps repeated fields", () => {
    const fields = readFields(
      "Status: 5.1.1\nDiagnostic-Code: smtp; 550 a\n  b\nReceived: one\nReceived: two\nnot a field",
    );
    expect(fields.get("status")).toEqual(["5.1.1"]);
    expect(fields.get("diagnostic-code")).toEqual(["smtp; 550 a b"]);
    expect(fields.get("received")).toEqual(["one", "two"]);
  });
});

function headerOnly(message: string): string {
  return message.slice(0, message.indexOf("\n\n") + 1);
}
