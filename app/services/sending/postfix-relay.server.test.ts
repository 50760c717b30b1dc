// Campaign mail through a real mail server: the SMTP channel (DELIVERY_CHANNEL=smtp, built from the
// settings as the server builds it) sends real campaigns through Debian's Postfix as the relay
// (tests/helpers/postfix.ts), over STARTTLS with a certificate the test makes (the relay refuses
// mail in clear text), and Postfix delivers them into a real mailbox, Dovecot's, read back over
// IMAP. Every message that arrives is checked by an independent DKIM verifier (mailauth, with the
// record `crm dkim generate` prints as the only DNS it knows) and scored by SpamAssassin (local
// tests only: no network rules); the score and the rules hit are printed, and a clean marketing
// message must hit nothing that counts against it.
//
// And the relay's unusual answers, each made by Postfix's own configuration: a content filter that
// takes its time over the final answer (a before-queue smtpd_proxy_filter written here), a sender
// domain the relay refuses (check_sender_access: 553 5.1.8), a limit on recipients per client
// (smtpd_client_recipient_rate_limit: "450 4.7.1 Error: too many recipients"), and a session cut
// with 421 in its middle (smtpd_hard_error_limit, after refused recipients).
//
// Skipped only when Postfix is not installed (CI installs it: postfix, dovecot-imapd, spamassassin).
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { ImapFlow } from "imapflow";
import { simpleParser } from "mailparser";
import { dkimVerify } from "mailauth";
import nodemailer from "nodemailer";
import { SMTPServer } from "smtp-server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { selfSignedCertificate } from "../../../tests/helpers/certificate";
import { createTestUser, useTestConnection, useTestDatabase } from "../../../tests/helpers/db";
import { type Dovecot, startDovecot } from "../../../tests/helpers/dovecot";
import { type Postfix, postfixInstalled, startPostfix } from "../../../tests/helpers/postfix";
import { sqlRows, sqlRun } from "../../../tests/helpers/sql";

const MAIL_FROM = "Lotus Crafts <news@shop.example>";
process.env.PUBLIC_URL = "https://crm.example";
// eslint-disable-next-line react-hooks/rules-of-hooks -- a test helper named use*, not a React hook
useTestDatabase();
// eslint-disable-next-line react-hooks/rules-of-hooks -- a test helper named use*, not a React hook
const connection = useTestConnection();

import { getEnv, resetEnvCache } from "~/env.server";
import { notifications } from "~/models/notifications/store.server";
import { suppressions } from "~/models/suppressions/store.server";
import { createChannel, dkimKeyFor } from "~/services/sending/channels.server";
import { createDeliveryEngine, type EngineSettings } from "~/services/sending/engine.server";
import { smtpChannel, smtpClientSettings } from "~/services/sending/smtp-channel.server";
import { dnsRecordsFor, generateDkimKey } from "~/services/email/dkim-keys.server";
import { seedTenant } from "~/services/seed.server";
import { campaignRow, expectCountersAddUp, launchToEveryone } from "../../../tests/helpers/campaign-send";
import { notifyPaused } from "~/services/campaigns/reports.server";

const DOMAIN = "mail.test";
const CUSTOMERS = 6;

if (!postfixInstalled()) {
  console.warn(
    "postfix-relay.server.test.ts: SKIPPED: Postfix is not installed (/usr/sbin/postfix). Install Debian's postfix, dovecot-imapd and spamassassin packages to run it (CI does).",
  );
}

type Received = { uid: number; raw: string; to: string; messageId: string };

/** SpamAssassin's verdict on one message: its score and the rules it hit, with their points. */
type Verdict = { score: number; rules: { name: string; points: number }[] };

/**
 * Scores a message with Debian's spamassassin, local tests only (-L: no DNS or network rules), its
 * per-user files in a directory of its own (nothing is written under the test's HOME).
 */
async function spamAssassin(raw: string, home: string): Promise<Verdict> {
  const child = spawn("spamassassin", ["-L", "-t", "-x"], {
    env: { PATH: process.env.PATH, HOME: home, NODE_ENV: "test" },
  });
  let out = "";
  let err = "";
  child.stdout.on("data", (d: Buffer) => (out += d.toString()));
  child.stderr.on("data", (d: Buffer) => (err += d.toString()));
  child.stdin.end(raw);
  const code = await new Promise<number | null>((resolve) => child.on("close", resolve));
  const status = /^X-Spam-Status: \w+, score=(-?[\d.]+)/m.exec(out);
  if (code !== 0 || !status) throw new Error(`spamassassin failed (exit ${code}): ${err}`);
  const report = out.slice(out.indexOf("Content analysis details"));
  const rules = [...report.matchAll(/^\s*(-?\d+\.\d+)\s+([A-Z][A-Z0-9_]+)\s/gm)].map((m) => ({
    name: m[2]!,
    points: Number(m[1]),
  }));
  return { score: Number(status[1]), rules };
}

/**
 * A before-queue content filter (Postfix's smtpd_proxy_filter): takes each message, holds it
 * `delayMs`, hands it on to Postfix's second smtpd, and answers with what that said. What a
 * relay that scans content slowly looks like to its client: a final answer long in coming.
 */
async function startSlowFilter(target: () => number) {
  const filter = { delayMs: 0, messages: 0 };
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS", "AUTH"],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on("data", (c: Buffer) => chunks.push(c));
      stream.on("end", () => {
        filter.messages += 1;
        const hand = nodemailer.createTransport({ host: "127.0.0.1", port: target(), secure: false, ignoreTLS: true });
        setTimeout(() => {
          hand
            .sendMail({
              envelope: {
                from: session.envelope.mailFrom ? session.envelope.mailFrom.address : "",
                to: session.envelope.rcptTo.map((r) => r.address),
              },
              raw: Buffer.concat(chunks),
            })
            .then(
              (info) => callback(null, info.response.replace(/^250\s+(\d\.\d\.\d\s+)?/, "")),
              (error: Error) => callback(error),
            )
            .finally(() => hand.close());
        }, filter.delayMs);
      });
    },
  });
  server.on("error", () => {});
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return Object.assign(filter, {
    port: (server.server.address() as AddressInfo).port,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  });
}

describe.skipIf(!postfixInstalled())("campaign mail through Postfix into a real mailbox", () => {
  let dovecot: Dovecot;
  let postfix: Postfix;
  let filter: Awaited<ReturnType<typeof startSlowFilter>>;
  let tenantId: string;
  let dir: string;
  let resolver: (name: string, type: string) => Promise<string[][]>;
  const verdicts: { campaign: string; to: string; verdict: Verdict }[] = [];

  /** The settings the channel is built from, as the server reads them. */
  const setEnv = (changes: Record<string, string | undefined>) => {
    for (const [name, value] of Object.entries(changes)) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
    resetEnvCache();
  };

  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), "crm-postfix-test-"));
    const certificate = selfSignedCertificate("relay.test", ["DNS:relay.test", "IP:127.0.0.1"]);
    const caFile = path.join(dir, "relay-ca.pem");
    writeFileSync(caFile, certificate.cert);
    dovecot = await startDovecot();
    filter = await startSlowFilter(() => postfix.afterFilterPort);
    postfix = await startPostfix({
      domain: DOMAIN,
      store: dovecot.mailStore,
      unknownUsers: "gone-[0-9]+",
      tls: certificate,
      // Mail in clear text is refused ("530 5.7.0 Must issue a STARTTLS command first").
      settings: { smtpd_tls_security_level: "encrypt" },
    });
    setEnv({
      DELIVERY_CHANNEL: "smtp",
      SMTP_URL: `smtp://127.0.0.1:${postfix.port}`,
      MAIL_FROM,
      SMTP_POOL: "2",
      SMTP_REQUIRE_TLS: "true",
      SMTP_TLS_CA_FILE: caFile,
      SMTP_DATA_TIMEOUT_SECONDS: "30",
    });
    const { key } = generateDkimKey(getEnv().DATA_DIR, "shop.example", { selector: "crm202611" });
    const record = dnsRecordsFor(key).dkim;
    resolver = async (name, type) => {
      if (type === "TXT" && name === record.name) return [record.strings];
      throw Object.assign(new Error(`queryTxt ENOTFOUND ${name}`), { code: "ENOTFOUND" });
    };

    tenantId = (await createTestUser("Postfix sender")).id;
    await seedTenant(tenantId, { customers: CUSTOMERS, orders: 0, seed: 34 });
    await useAddresses(["c0", "c1", "c2", "c3", "c4", "c5"]);
  }, 60_000);

  afterAll(async () => {
    for (const { campaign, to, verdict } of verdicts) {
      console.info(
        `SpamAssassin ${verdict.score.toFixed(1)} for "${campaign}" to ${to}: ${verdict.rules.map((r) => `${r.name} (${r.points})`).join(", ") || "no rules"}`,
      );
    }
    await postfix?.stop();
    await dovecot?.stop();
    await filter?.close();
    // The settings name files in `dir`: the test database's own cleanup reads them once more.
    setEnv({
      DELIVERY_CHANNEL: undefined,
      SMTP_URL: undefined,
      MAIL_FROM: undefined,
      SMTP_POOL: undefined,
      SMTP_REQUIRE_TLS: undefined,
      SMTP_TLS_CA_FILE: undefined,
      SMTP_DATA_TIMEOUT_SECONDS: undefined,
    });
    rmSync(dir, { recursive: true, force: true });
  });

  /** The tenant's customers get these local parts at the test's domain, in the order they were made. */
  async function useAddresses(localParts: readonly string[]) {
    const customers = await sqlRows<{ id: string }>(
      connection(),
      `SELECT "id" FROM "Customer" WHERE "userId" = ? ORDER BY "createdAt", "id"`,
      [tenantId],
    );
    expect(customers).toHaveLength(localParts.length);
    for (const [i, c] of customers.entries()) {
      await sqlRun(connection(), `UPDATE "Customer" SET "email" = ? WHERE "id" = ?`, [
        `${localParts[i]}@${DOMAIN}`,
        c.id,
      ]);
    }
  }

  /**
   * Launches a campaign to every customer and runs the delivery engine with the SMTP channel until
   * the campaign is no longer Active; the channel is the server's (createChannel) unless given.
   */
  async function send(
    campaign: { name: string; message: string; trackingEnabled?: number },
    options: {
      channel?: ReturnType<typeof createChannel>;
      settings?: Partial<EngineSettings>;
      timeoutMs?: number;
    } = {},
  ) {
    // Only this campaign sends.
    await sqlRun(connection(), `UPDATE "Campaign" SET "status" = 'Completed' WHERE "status" = 'Active'`);
    const id = await launchToEveryone(connection(), tenantId, { subject: "Hello {NAME}", ...campaign });
    const channel = options.channel ?? createChannel(getEnv(), {});
    const errors: string[] = [];
    const pauses: Promise<unknown>[] = [];
    const engine = createDeliveryEngine({
      connection: connection(),
      channel,
      settings: { batchSize: 100, concurrency: 2, idleMs: 10, retryBaseMs: 200, ...options.settings },
      onEvent: (e) => {
        if (e.type === "error") errors.push(e.message);
        // What the delivery job does with a pause (job.server.ts): the owner's notification.
        if (e.type === "paused") pauses.push(notifyPaused(e.campaign));
      },
    });
    const running = engine.run();
    const deadline = Date.now() + (options.timeoutMs ?? 30_000);
    while ((await campaignRow(connection(), id)).status === "Active" && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 50));
    await engine.stop();
    await running;
    await channel.close();
    await Promise.all(pauses);
    return { id, errors };
  }

  /** The mailbox's messages once it holds `count` (Postfix delivers a moment after it accepts). */
  async function inbox(count: number, timeoutMs = 20_000): Promise<Received[]> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = await readInbox();
      if (found.length >= count || Date.now() > deadline) return found;
      await new Promise((r) => setTimeout(r, 200));
    }
  }

  async function readInbox(): Promise<Received[]> {
    const imap = new ImapFlow({
      host: "127.0.0.1",
      port: dovecot.port,
      secure: false,
      auth: { user: dovecot.user, pass: dovecot.password },
      logger: false,
    });
    await imap.connect();
    const lock = await imap.getMailboxLock("INBOX");
    const found: Received[] = [];
    try {
      if (imap.mailbox && imap.mailbox.exists > 0) {
        for await (const m of imap.fetch("1:*", { uid: true, source: true })) {
          const raw = m.source?.toString("latin1") ?? "";
          found.push({
            uid: m.uid,
            raw,
            to: /^To: .*<([^>]+)>/m.exec(raw)?.[1] ?? "",
            messageId: /^Message-ID: (.*)$/im.exec(raw)?.[1]?.trim() ?? "",
          });
        }
      }
    } finally {
      lock.release();
      await imap.logout();
    }
    return found;
  }

  /** Empties the mailbox between tests. */
  async function emptyInbox() {
    const imap = new ImapFlow({
      host: "127.0.0.1",
      port: dovecot.port,
      secure: false,
      auth: { user: dovecot.user, pass: dovecot.password },
      logger: false,
    });
    await imap.connect();
    const lock = await imap.getMailboxLock("INBOX");
    try {
      if (imap.mailbox && imap.mailbox.exists > 0) await imap.messageDelete("1:*");
    } finally {
      lock.release();
      await imap.logout();
    }
  }

  async function expectDkimPass(message: Received) {
    const result = await dkimVerify(Buffer.from(message.raw, "latin1"), { resolver });
    expect(result.results, `DKIM of the message to ${message.to}`).toHaveLength(1);
    const [signature] = result.results;
    expect(signature!.status.result, signature!.info).toBe("pass");
    expect(signature!.signingDomain).toBe("shop.example");
    expect(signature!.status.aligned).toBe("shop.example");
  }

  /** Delivery rows of a campaign, in order. */
  const rowsOf = (id: string) =>
    sqlRows<{ email: string; status: string; attempts: number; details: string }>(
      connection(),
      `SELECT "email", "status", "attempts", "details" FROM "Delivery" WHERE "campaignId" = ? ORDER BY "seq"`,
      [id],
    );

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
    const verdict = await spamAssassin(received[0]!.raw, dir);
    verdicts.push({ campaign: "Winter collection", to: received[0]!.to, verdict });
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
    const verdict = await spamAssassin(received[0]!.raw, dir);
    verdicts.push({ campaign: "Short", to: received[0]!.to, verdict });
    // ... and weighs as no image: none of HTML_IMAGE_ONLY_04 … _32, nothing that counts.
    expect(verdict.rules.map((r) => r.name).filter((n) => n.startsWith("HTML_IMAGE_"))).toEqual([]);
    expect(verdict.rules.filter((r) => r.points > 0)).toEqual([]);
  }, 90_000);

  it("waits for a content filter's late final answer: every message arrives once, none is sent again", async () => {
    await emptyInbox();
    await postfix.configure({ smtpd_proxy_filter: `127.0.0.1:${filter.port}`, smtpd_proxy_timeout: "60s" });
    filter.delayMs = 4000;
    filter.messages = 0;
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
      expect(filter.messages).toBe(CUSTOMERS);
      expect(received).toHaveLength(CUSTOMERS);
      expect(new Set(received.map((m) => m.messageId)).size).toBe(CUSTOMERS);
      for (const m of received) await expectDkimPass(m);
      const rows = await rowsOf(id);
      expect(rows.map((r) => [r.status, r.attempts])).toEqual(rows.map(() => ["delivered", 1]));
      await expectCountersAddUp(connection(), id);
    } finally {
      filter.delayMs = 0;
      await postfix.configure({ smtpd_proxy_filter: null, smtpd_proxy_timeout: null });
    }
  }, 90_000);

  it("a relay's limit on recipients defers the rest, which go later: each arrives once", async () => {
    await emptyInbox();
    // Two recipients a client every 2 s; the others are answered "450 4.7.1 Error: too many recipients".
    await postfix.configure({
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
      expect(postfix.log()).toMatch(/warning: Recipient address rate limit exceeded/);
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
      await postfix.configure({
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
    await postfix.configure({ smtpd_hard_error_limit: "2" });
    setEnv({ SMTP_POOL: "1" });
    try {
      const { id, errors } = await send(
        { name: "Cut short", message: "Hi {NAME}, our sale." },
        { settings: { retryBaseMs: 100 } },
      );
      expect(errors).toEqual([]);
      expect((await campaignRow(connection(), id)).status).toBe("Completed");
      expect(postfix.log()).toMatch(/too many errors after /);
      const received = await inbox(4);
      expect(received.map((m) => m.to).sort()).toEqual(["c0", "c2", "c4", "c5"].map((l) => `${l}@${DOMAIN}`));
      expect(new Set(received.map((m) => m.messageId)).size).toBe(4);
      const rows = await rowsOf(id);
      const bounced = rows.filter((r) => r.status === "bounced");
      expect(bounced.map((r) => r.email).sort()).toEqual([`gone-1@${DOMAIN}`, `gone-2@${DOMAIN}`]);
      for (const row of bounced) {
        expect(row.details).toMatch(/^550 5\.1\.1 <gone-\d@mail\.test>: Recipient address rejected: User unknown/);
        expect(await suppressions.findSuppression(tenantId, row.email)).toMatchObject({
          reason: "hard-bounced",
          campaignId: id,
        });
      }
      expect(rows.filter((r) => r.status === "delivered")).toHaveLength(4);
      await expectCountersAddUp(connection(), id);
    } finally {
      setEnv({ SMTP_POOL: "2" });
      await postfix.configure({ smtpd_hard_error_limit: null });
      await useAddresses(["c0", "c1", "c2", "c3", "c4", "c5"]);
    }
  }, 60_000);
  it("a sender domain the relay refuses pauses the campaign: nobody bounces or is suppressed, the owner is told", async () => {
    await emptyInbox();
    // A mistyped MAIL_FROM domain, refused by the relay as Postfix refuses a sender domain it cannot find.
    const refused = postfix.table("sender_access", [
      "/^(.*@shop\\.exmaple)$/ 553 5.1.8 <$1>: Sender address rejected: Domain not found",
    ]);
    await postfix.configure({ smtpd_sender_restrictions: `check_sender_access ${refused}` });
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
      for (const row of rows) expect(await suppressions.findSuppression(tenantId, row.email)).toBeNull();
      const { rows: notes } = await notifications.findNotificationsWithUnread(tenantId, { take: 20 });
      expect(notes.find((n) => n.title === "Campaign paused")?.details).toContain("news@shop.exmaple");
      expect(await readInbox()).toEqual([]);
      // Postfix refuses a sender at RCPT TO by default (smtpd_delay_reject): the product reads the
      // enhanced status, 5.1.8, as the sender's, not the recipient's.
      expect(postfix.log()).toMatch(/reject: RCPT from .*553 5\.1\.8 <news@shop\.exmaple>: Sender address rejected/);
    } finally {
      setEnv({ MAIL_FROM });
      await postfix.configure({ smtpd_sender_restrictions: null });
    }
  }, 60_000);
});
