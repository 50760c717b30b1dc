// The relay's unusual answers, each made by Postfix's own configuration, to real campaigns the
// SMTP channel (DELIVERY_CHANNEL=smtp, built from the settings as the server builds it) sends
// through Debian's Postfix into a real mailbox (tests/helpers/postfix-relay.ts): a content filter
// that takes its time over the final answer (a before-queue smtpd_proxy_filter), a sender domain
// the relay refuses (check_sender_access: 553 5.1.8), a limit on recipients per client
// (smtpd_client_recipient_rate_limit: "450 4.7.1 Error: too many recipients"), and a session cut
// with 421 in its middle (smtpd_hard_error_limit, after refused recipients). Clean mail, DKIM and
// SpamAssassin: postfix-relay.server.test.ts.
//
// Skipped only when Postfix is not installed (CI installs it: postfix, dovecot-imapd, spamassassin).
import { describe, expect, it } from "vitest";
import { useTestConnection, useTestDatabase } from "../../../tests/helpers/db";
import { postfixInstalled } from "../../../tests/helpers/postfix";
import { CUSTOMERS, DOMAIN, MAIL_FROM, usePostfixRelay } from "../../../tests/helpers/postfix-relay";

process.env.PUBLIC_URL = "https://crm.example";
// eslint-disable-next-line react-hooks/rules-of-hooks -- a test helper named use*, not a React hook
useTestDatabase();
// eslint-disable-next-line react-hooks/rules-of-hooks -- a test helper named use*, not a React hook
const connection = useTestConnection();

import { getEnv } from "~/env.server";
import { notifications } from "~/models/notifications/store.server";
import { suppressions } from "~/models/suppressions/store.server";
import { dkimKeyFor } from "~/services/sending/channels.server";
import { smtpChannel, smtpClientSettings } from "~/services/sending/smtp-channel.server";
import { campaignRow, expectCountersAddUp } from "../../../tests/helpers/campaign-send";

if (!postfixInstalled()) {
  console.warn(
    "postfix-relay-answers.server.test.ts: SKIPPED: Postfix is not installed (/usr/sbin/postfix). Install Debian's postfix, dovecot-imapd and spamassassin packages to run it (CI does).",
  );
}

describe.skipIf(!postfixInstalled())("campaign mail through Postfix into a real mailbox", () => {
  const relay = usePostfixRelay(connection);
  const { send, inbox, readInbox, emptyInbox, expectDkimPass, rowsOf, setEnv, useAddresses } = relay;

  it("waits for a content filter's late final answer: every message arrives once, none is sent again", async () => {
    await emptyInbox();
    await relay.postfix.configure({ smtpd_proxy_filter: `127.0.0.1:${relay.filter.port}`, smtpd_proxy_timeout: "60s" });
    relay.filter.delayMs = 4000;
    relay.filter.messages = 0;
    try {
      // Every other answer is given 1.5 s; the answer to the final dot SMTP_DATA_TIMEOUT_SECONDS (30).
      const env = getEnv();
      const channel = smtpChannel({
        url: env.SMTP_URL ?? "",
        maxConnections: 3,
        dkim: dkimKeyFor(env),
        client: { ...smtpClientSettings(env), socketTimeoutMs: 1500 },
      });
      const { id, errors } = await send({ name: "Scanned slowly", message: "Hi {NAME}, our sale." }, { channel });
      expect(errors).toEqual([]);
      expect((await campaignRow(connection(), id)).status).toBe("Completed");
      const received = await inbox(CUSTOMERS);
      // Exactly once each: the filter saw each message once, and the mailbox holds one copy.
      expect(relay.filter.messages).toBe(CUSTOMERS);
      expect(received).toHaveLength(CUSTOMERS);
      expect(new Set(received.map((m) => m.messageId)).size).toBe(CUSTOMERS);
      for (const m of received) await expectDkimPass(m);
      const rows = await rowsOf(id);
      expect(rows.map((r) => [r.status, r.attempts])).toEqual(rows.map(() => ["delivered", 1]));
      await expectCountersAddUp(connection(), id);
    } finally {
      relay.filter.delayMs = 0;
      await relay.postfix.configure({ smtpd_proxy_filter: null, smtpd_proxy_timeout: null });
    }
  }, 90_000);

  it("a relay's limit on recipients defers the rest, which go later: each arrives once", async () => {
    await emptyInbox();
    // Two recipients a client every 2 s; the others are answered "450 4.7.1 Error: too many recipients".
    await relay.postfix.configure({
      smtpd_client_recipient_rate_limit: "2",
      smtpd_client_event_limit_exceptions: "",
      anvil_rate_time_unit: "2s",
    });
    try {
      const { id, errors } = await send(
        { name: "Rate limited", message: "Hi {NAME}, our sale." },
        { settings: { retryBaseMs: 1000, maxAttempts: 20 }, timeoutMs: 45_000 },
      );
      expect(errors).toEqual([]);
      expect((await campaignRow(connection(), id)).status).toBe("Completed");
      expect(relay.postfix.log()).toMatch(/warning: Recipient address rate limit exceeded/);
      const received = await inbox(CUSTOMERS);
      expect(received).toHaveLength(CUSTOMERS);
      expect(new Set(received.map((m) => m.messageId)).size).toBe(CUSTOMERS);
      const rows = await rowsOf(id);
      expect(rows.every((r) => r.status === "delivered")).toBe(true);
      expect(rows.some((r) => r.attempts > 1)).toBe(true);
      const campaign = await campaignRow(connection(), id);
      expect(campaign.sendErrors).toBe(0);
      await expectCountersAddUp(connection(), id);
    } finally {
      await relay.postfix.configure({
        smtpd_client_recipient_rate_limit: null,
        smtpd_client_event_limit_exceptions: null,
        anvil_rate_time_unit: null,
      });
    }
  }, 90_000);

  it("a session cut with 421 in its middle loses nothing: unknown mailboxes bounce, the rest arrive once", async () => {
    await emptyInbox();
    // Postfix ends a session with "421 4.7.0 … Error: too many errors" once a client has had two
    // refusals (delivered mail does not reset the count): here after the second unknown mailbox,
    // with one connection, so the messages before and after it share the session.
    await useAddresses(["c0", "gone-1", "c2", "gone-2", "c4", "c5"]);
    await relay.postfix.configure({ smtpd_hard_error_limit: "2" });
    setEnv({ SMTP_POOL: "1" });
    try {
      const { id, errors } = await send(
        { name: "Cut short", message: "Hi {NAME}, our sale." },
        { settings: { retryBaseMs: 100 } },
      );
      expect(errors).toEqual([]);
      expect((await campaignRow(connection(), id)).status).toBe("Completed");
      expect(relay.postfix.log()).toMatch(/too many errors after /);
      const received = await inbox(4);
      expect(received.map((m) => m.to).sort()).toEqual(["c0", "c2", "c4", "c5"].map((l) => `${l}@${DOMAIN}`));
      expect(new Set(received.map((m) => m.messageId)).size).toBe(4);
      const rows = await rowsOf(id);
      const bounced = rows.filter((r) => r.status === "bounced");
      expect(bounced.map((r) => r.email).sort()).toEqual([`gone-1@${DOMAIN}`, `gone-2@${DOMAIN}`]);
      for (const row of bounced) {
        expect(row.details).toMatch(/^550 5\.1\.1 <gone-\d@mail\.test>: Recipient address rejected: User unknown/);
        expect(await suppressions.findSuppression(relay.tenantId, row.email)).toMatchObject({
          reason: "hard-bounced",
          campaignId: id,
        });
      }
      expect(rows.filter((r) => r.status === "delivered")).toHaveLength(4);
      await expectCountersAddUp(connection(), id);
    } finally {
      setEnv({ SMTP_POOL: "2" });
      await relay.postfix.configure({ smtpd_hard_error_limit: null });
      await useAddresses(["c0", "c1", "c2", "c3", "c4", "c5"]);
    }
  }, 60_000);

  it("a sender domain the relay refuses pauses the campaign: nobody bounces or is suppressed, the owner is told", async () => {
    await emptyInbox();
    // A mistyped MAIL_FROM domain, refused by the relay as Postfix refuses a sender domain it cannot find.
    const refused = relay.postfix.table("sender_access", [
      "/^(.*@shop\\.exmaple)$/ 553 5.1.8 <$1>: Sender address rejected: Domain not found",
    ]);
    await relay.postfix.configure({ smtpd_sender_restrictions: `check_sender_access ${refused}` });
    setEnv({ MAIL_FROM: "Lotus Crafts <news@shop.exmaple>" });
    try {
      const { id } = await send({ name: "Wrong sender", message: "Hi {NAME}, our sale." }, { timeoutMs: 20_000 });
      const campaign = await campaignRow(connection(), id);
      expect(campaign.status).toBe("Paused");
      expect(campaign.statusDetail).toContain("news@shop.exmaple");
      expect(campaign.statusDetail).toContain("553 5.1.8");
      expect(campaign.bouncedCount).toBe(0);
      const rows = await rowsOf(id);
      expect(rows.filter((r) => r.status === "bounced" || r.status === "failed")).toEqual([]);
      for (const row of rows) expect(await suppressions.findSuppression(relay.tenantId, row.email)).toBeNull();
      const { rows: notes } = await notifications.findNotificationsWithUnread(relay.tenantId, { take: 20 });
      expect(notes.find((n) => n.title === "Campaign paused")?.details).toContain("news@shop.exmaple");
      expect(await readInbox()).toEqual([]);
      // Postfix refuses a sender at RCPT TO by default (smtpd_delay_reject): the product reads the
      // enhanced status, 5.1.8, as the sender's, not the recipient's.
      expect(relay.postfix.log()).toMatch(
        /reject: RCPT from .*553 5\.1\.8 <news@shop\.exmaple>: Sender address rejected/,
      );
    } finally {
      setEnv({ MAIL_FROM });
      await relay.postfix.configure({ smtpd_sender_restrictions: null });
    }
  }, 60_000);
});
