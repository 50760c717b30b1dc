// Campaign mail through a real mail server, for the tests of the SMTP channel against Postfix
// (app/services/sending/postfix-relay*.server.test.ts): Debian's Postfix as the relay
// (tests/helpers/postfix.ts) over STARTTLS with a certificate made here (mail in clear text is
// refused), delivering into Dovecot's mailbox (read back over IMAP), a before-queue content filter
// that takes its time, the settings the channel is built from as the server reads them, a tenant
// whose customers have addresses at the test's domain, DKIM checked by an independent verifier
// (mailauth, with the record `crm dkim generate` prints as the only DNS it knows), and
// SpamAssassin's verdicts (local tests only), printed when the tests end.
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { ImapFlow } from "imapflow";
import { dkimVerify } from "mailauth";
import nodemailer from "nodemailer";
import { SMTPServer } from "smtp-server";
import { afterAll, beforeAll, expect } from "vitest";
import type { AnyConnection } from "~/db/connection.server";
import { getEnv, resetEnvCache } from "~/env.server";
import { notifyPaused } from "~/services/campaigns/reports.server";
import { dnsRecordsFor, generateDkimKey } from "~/services/email/dkim-keys.server";
import { createChannel } from "~/services/sending/channels.server";
import { createDeliveryEngine } from "~/services/sending/engine.server";
import type { EngineSettings } from "~/services/sending/engine-settings.server";
import { seedTenant } from "~/services/seed.server";
import { campaignRow, launchToEveryone } from "./campaign-send";
import { selfSignedCertificate } from "./certificate";
import { createTestUser } from "./db";
import { type Dovecot, startDovecot } from "./dovecot";
import { type Postfix, startPostfix } from "./postfix";
import { sqlRows, sqlRun } from "./sql";

export const MAIL_FROM = "Lotus Crafts <news@shop.example>";
export const DOMAIN = "mail.test";
export const CUSTOMERS = 6;

export type Received = { uid: number; raw: string; to: string; messageId: string };

/** SpamAssassin's verdict on one message: its score and the rules it hit, with their points. */
export type Verdict = { score: number; rules: { name: string; points: number }[] };

/**
 * Scores a message with Debian's spamassassin, local tests only (-L: no DNS or network rules), its
 * per-user files in a directory of its own (nothing is written under the test's HOME).
 */
export async function spamAssassin(raw: string, home: string): Promise<Verdict> {
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

/**
 * The relay, the mailbox and the tenant for the tests of one describe block (started in its
 * beforeAll, stopped in its afterAll): call it inside the describe.
 */
export function usePostfixRelay(connection: () => AnyConnection) {
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
    // eslint-disable-next-line react-hooks/rules-of-hooks -- a test helper named use*, not a React hook
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

  return {
    get postfix() {
      return postfix;
    },
    get filter() {
      return filter;
    },
    get tenantId() {
      return tenantId;
    },
    get dir() {
      return dir;
    },
    verdicts,
    setEnv,
    useAddresses,
    send,
    inbox,
    readInbox,
    emptyInbox,
    expectDkimPass,
    rowsOf,
  };
}
