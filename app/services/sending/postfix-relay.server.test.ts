// Campaign mail through a real mail server: the SMTP channel (DELIVERY_CHANNEL=smtp, built from the
// settings as the server builds it) sends real campaigns through Debian's Postfix as the relay
// (tests/helpers/postfix.ts), over STARTTLS with a certificate the test makes (the relay refuses
// mail in clear text), and Postfix delivers them into a real mailbox, Dovecot's, read back over
// IMAP. Every message that arrives is checked by an independent DKIM verifier (mailauth, with the
// record `crm dkim generate` prints as the only DNS it knows) and scored by SpamAssassin (local
// tests only: no network rules); the score and the rules hit are printed, and a clean marketing
// message must hit nothing that counts against it.
// The relay's unusual answers: postfix-relay-answers.server.test.ts. The relay, the mailbox and the
// checks are tests/helpers/postfix-relay.ts.
//
// Skipped only when Postfix is not installed (CI installs it: postfix, dovecot-imapd, spamassassin).
import { simpleParser } from "mailparser";
import { describe, expect, it } from "vitest";
import { useTestConnection, useTestDatabase } from "../../../tests/helpers/db";
import { postfixInstalled } from "../../../tests/helpers/postfix";
import { CUSTOMERS, DOMAIN, spamAssassin, usePostfixRelay } from "../../../tests/helpers/postfix-relay";

process.env.PUBLIC_URL = "https://crm.example";
// eslint-disable-next-line react-hooks/rules-of-hooks -- a test helper named use*, not a React hook
useTestDatabase();
// eslint-disable-next-line react-hooks/rules-of-hooks -- a test helper named use*, not a React hook
const connection = useTestConnection();

import { campaignRow, expectCountersAddUp } from "../../../tests/helpers/campaign-send";

if (!postfixInstalled()) {
  console.warn(
    "postfix-relay.server.test.ts: SKIPPED: Postfix is not installed (/usr/sbin/postfix). Install Debian's postfix, dovecot-imapd and spamassassin packages to run it (CI does).",
  );
}

describe.skipIf(!postfixInstalled())("campaign mail through Postfix into a real mailbox", () => {
  const relay = usePostfixRelay(connection);
  const { send, inbox, emptyInbox, expectDkimPass, setEnv } = relay;

  it("delivers a clean marketing message over STARTTLS, DKIM-signed, and SpamAssassin finds nothing against it", async () => {
    await emptyInbox();
    const message = [
      "Hi {NAME},",
      "",
      "Our winter collection is here: hand-woven shawls from Kullu, block-printed cotton quilts from Jaipur and brass lamps made by the same family in Moradabad for three generations.",
      "",
      "As someone who has shopped with us before, you get 15% off everything in the collection until Sunday. The discount is applied at checkout, no code needed.",
      "",
      "See the collection: https://shop.example/winter",
      "",
      "Every piece is made by hand, so colours and sizes vary a little from the photographs. If something is not right, send it back within 30 days and we refund it in full.",
      "",
      "Warm regards,",
      "Meera and the Lotus Crafts team",
    ].join("\n");
    // The footer names the sender once, with the postal address the settings give.
    setEnv({ MAIL_POSTAL_ADDRESS: "Lotus Crafts, 12 MG Road, Bengaluru 560001" });
    let sent: Awaited<ReturnType<typeof send>>;
    try {
      sent = await send({ name: "Winter collection", message, trackingEnabled: 1 });
    } finally {
      setEnv({ MAIL_POSTAL_ADDRESS: undefined });
    }
    const { id, errors } = sent;
    expect(errors).toEqual([]);
    expect((await campaignRow(connection(), id)).status).toBe("Completed");
    const received = await inbox(CUSTOMERS);
    expect(received.map((m) => m.to).sort()).toEqual(["c0", "c1", "c2", "c3", "c4", "c5"].map((l) => `${l}@${DOMAIN}`));
    expect(new Set(received.map((m) => m.messageId)).size).toBe(CUSTOMERS);
    for (const m of received) {
      // Postfix says in its Received header that the message came over TLS.
      expect(m.raw).toMatch(/^Received: from .*\r?\n(?:\s.*\r?\n)*?\s+\(using TLSv1\.[23] with cipher /m);
      expect(m.raw).toMatch(/by relay\.test \(Postfix\) with ESMTPS/);
      await expectDkimPass(m);
      const parsed = await simpleParser(m.raw);
      expect(parsed.text).toMatch(/\nSent by [^\n]+, Lotus Crafts, 12 MG Road, Bengaluru 560001\.\n/);
      expect(parsed.text?.match(/Sent by/g)).toHaveLength(1);
    }
    const verdict = await spamAssassin(received[0]!.raw, relay.dir);
    relay.verdicts.push({ campaign: "Winter collection", to: received[0]!.to, verdict });
    // Nothing a clean message should trip: only informational rules (0 points or less).
    expect(verdict.rules.filter((r) => r.points > 0)).toEqual([]);
    expect(verdict.score).toBeLessThanOrEqual(0);
    await expectCountersAddUp(connection(), id);
  }, 90_000);

  it("a short message with the open pixel does not look image-only to SpamAssassin", async () => {
    await emptyInbox();
    const { id, errors } = await send({
      name: "Short",
      message: "Hi {NAME}, 20% off everything today.",
      trackingEnabled: 1,
    });
    expect(errors).toEqual([]);
    expect((await campaignRow(connection(), id)).status).toBe("Completed");
    const received = await inbox(CUSTOMERS);
    expect(received).toHaveLength(CUSTOMERS);
    await expectDkimPass(received[0]!);
    // The open pixel is in the message (an open can be counted) ...
    expect(received[0]!.raw).toMatch(/https:\/\/crm\.example\/o\/[A-Za-z0-9_-]+/);
    const verdict = await spamAssassin(received[0]!.raw, relay.dir);
    relay.verdicts.push({ campaign: "Short", to: received[0]!.to, verdict });
    // ... and weighs as no image: none of HTML_IMAGE_ONLY_04 … _32, nothing that counts.
    expect(verdict.rules.map((r) => r.name).filter((n) => n.startsWith("HTML_IMAGE_"))).toEqual([]);
    expect(verdict.rules.filter((r) => r.points > 0)).toEqual([]);
  }, 90_000);
});
