// Real e-mail end to end: the production server sends campaigns through the SMTP channel to a real
// SMTP server (the smtp-server package, in this test's process, outside the server's), with a DKIM
// key made by `crm dkim generate`. What arrives is multipart text + HTML with one-click unsubscribe
// headers (RFC 8058) and a DKIM signature that a real verifier (mailauth) accepts against the record
// the CLI prints. A one-click POST to the link, with no cookie, suppresses the recipient at once, also
// while a campaign to them is going out: their row ends Suppressed and no message reaches them; the
// next launch leaves them out and says so.
import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { expect, test } from "@playwright/test";
import Database from "better-sqlite3";
import { dkimVerify } from "mailauth";
import { simpleParser } from "mailparser";
import { dnsRecordsFor, readDkimKey } from "../../app/services/email/dkim-keys.server.ts";
import { freePort, productionServerEnv, repoRoot as root, serverCommand } from "../helpers/production-server.ts";
import { type SmtpCapture, startSmtpCapture } from "../helpers/smtp.ts";

const CUSTOMERS = 400;
const DOMAIN = "shop.example.in";

test.describe("real e-mail through SMTP", () => {
  test.setTimeout(240_000);
  let dataDir = "";
  let smtp: SmtpCapture | undefined;
  let server: ChildProcess | undefined;

  test.afterEach(async () => {
    try {
      if (server?.pid) process.kill(-server.pid, "SIGKILL");
    } catch {
      /* already gone */
    }
    await smtp?.close();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  test("multipart, signed, one-click unsubscribe honoured in the middle of a campaign and at the next launch", async () => {
    dataDir = mkdtempSync(path.join(tmpdir(), "crm-real-email-"));
    smtp = await startSmtpCapture();
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    const env = productionServerEnv({
      port,
      publicUrl: base,
      dataDir,
      extra: {
        DELIVERY_CHANNEL: "smtp",
        SMTP_URL: `smtp://127.0.0.1:${smtp.port}`,
        SMTP_POOL: "2",
        MAIL_FROM: `Shop News <news@${DOMAIN}>`,
        MAIL_REPLY_TO: `care@${DOMAIN}`,
      },
    });
    const cli = (...argv: string[]) =>
      execFileSync(process.execPath, [path.join(root, "bin/crm.mjs"), ...argv], { cwd: root, env }).toString();
    cli("users", "create", "--email", "mail@example.com", "--name", "Mail Test");
    cli("seed", "--user", "mail@example.com", "--customers", String(CUSTOMERS), "--seed", "7");
    cli("dkim", "generate", "--domain", DOMAIN, "--selector", "e2e");
    const token = cli("users", "token", "mail@example.com").trim().split("\n").pop() ?? "";

    server = spawn(serverCommand.file, serverCommand.args, { cwd: root, env, stdio: "ignore", detached: true });
    for (let i = 0; ; i++) {
      try {
        if ((await fetch(`${base}/healthz`)).ok) break;
      } catch {
        /* not yet */
      }
      if (i > 1200) throw new Error("the server did not start");
      await new Promise((r) => setTimeout(r, 100));
    }
    const api = async (pathname: string, init: RequestInit = {}) => {
      const r = await fetch(`${base}${pathname}`, {
        ...init,
        headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json" },
      });
      return (await r.json()) as Record<string, unknown>;
    };
    const db = new Database(path.join(dataDir, "crm.db"), { readonly: true });
    const campaign = (id: string) =>
      db
        .prepare(
          `SELECT "status", "audienceSize", "pendingCount", "deliveredCount", "failedCount", "bouncedCount",
             "suppressedCount", "suppressedAtLaunch" FROM "Campaign" WHERE "id" = ?`,
        )
        .get(id) as Record<string, number | string>;
    const until = async (what: () => boolean, ms = 120_000) => {
      const end = Date.now() + ms;
      while (!what()) {
        if (Date.now() > end) throw new Error("timed out waiting");
        await new Promise((r) => setTimeout(r, 100));
      }
    };
    const segment = await api("/api/segments", {
      method: "POST",
      body: JSON.stringify({ name: "Everyone", conditions: { visits: { $gte: 0 } } }),
    });
    const launch = async (name: string) => {
      const launched = await api("/api/campaigns", {
        method: "POST",
        body: JSON.stringify({
          name,
          subject: "Diwali offers for {NAME} — 20% off",
          segmentId: segment._id,
          message: "Hello {NAME},\n\nOur sale starts today: https://shop.example.in/sale?from=mail&x=1",
        }),
      });
      return launched;
    };

    // 1. The first campaign: every customer gets one message, multipart, signed, with the headers.
    const first = await launch("First");
    const firstId = first.id as string;
    expect(first.audienceSize).toBe(CUSTOMERS);
    await until(() => campaign(firstId).status === "Completed");
    expect(smtp.messages).toHaveLength(CUSTOMERS);

    const sample = smtp.messages[0]!;
    // Headers as one line each (a long header is folded onto continuation lines).
    const headersOf = (raw: string) => raw.split(/\r?\n\r?\n/)[0]!.replace(/\r?\n[ \t]+/g, " ");
    const header = (raw: string, name: string) => new RegExp(`^${name}: (.*)$`, "im").exec(headersOf(raw))?.[1]?.trim();
    const parsed = await simpleParser(sample.raw);
    expect(parsed.headers.get("content-type")).toMatchObject({ value: "multipart/alternative" });
    expect(parsed.text).toContain("Our sale starts today");
    // The link reads as the original address and goes through the tracked redirect (/c/…), which
    // answers 302 to exactly that address.
    const link = /<a [^>]*href="([^"]+)"[^>]*>https:\/\/shop\.example\.in\/sale\?from=mail&amp;x=1<\/a>/.exec(
      String(parsed.html),
    );
    expect(link?.[1]).toMatch(new RegExp(`^${base}/c/[A-Za-z0-9_-]+$`));
    const redirect = await fetch(link![1]!, { redirect: "manual" });
    expect(redirect.status).toBe(302);
    expect(redirect.headers.get("location")).toBe("https://shop.example.in/sale?from=mail&x=1");
    expect(parsed.from?.value[0]).toMatchObject({ address: `news@${DOMAIN}` });
    expect(parsed.replyTo?.value[0]?.address).toBe(`care@${DOMAIN}`);
    expect(parsed.messageId).toMatch(new RegExp(`^<[0-9a-f]{24}@${DOMAIN.replace(/\./g, "\\.")}>$`));
    expect(parsed.subject).toMatch(/^Diwali offers for .+ — 20% off$/);
    expect(header(sample.raw, "Subject")).toMatch(/^=\?UTF-8\?/i);
    expect(header(sample.raw, "List-Unsubscribe-Post")).toBe("List-Unsubscribe=One-Click");
    const listUnsubscribe = /^<([^>]+)>$/.exec(header(sample.raw, "List-Unsubscribe") ?? "")?.[1] ?? "";
    expect(listUnsubscribe).toMatch(new RegExp(`^${base}/u/[A-Za-z0-9_-]+$`));
    // The unsubscribe link is in both parts as well.
    expect(parsed.text).toContain(listUnsubscribe);
    expect(parsed.html).toContain(listUnsubscribe);
    // The DKIM signature verifies against the record `crm dkim generate` printed.
    const records = dnsRecordsFor(readDkimKey(dataDir, DOMAIN)!);
    const verified = await dkimVerify(Buffer.from(sample.raw), {
      resolver: async (name: string) => {
        if (name !== records.dkim.name) throw Object.assign(new Error(`ENOTFOUND ${name}`), { code: "ENOTFOUND" });
        return [records.dkim.strings];
      },
    });
    expect(verified.results[0]?.status.result).toBe("pass");
    expect(verified.results[0]?.signingDomain).toBe(DOMAIN);

    // Each recipient's link: the last two customers in send order (the rows' order) are the ones the
    // second campaign reaches last.
    const unsubscribeOf = new Map<string, string>();
    for (const m of smtp.messages) {
      const url = /^<([^>]+)>$/.exec(header(m.raw, "List-Unsubscribe") ?? "")?.[1];
      if (url) unsubscribeOf.set(m.to, url);
    }
    const order = db
      .prepare(`SELECT "email" FROM "Delivery" WHERE "campaignId" = ? ORDER BY "seq" DESC LIMIT 2`)
      .pluck()
      .all(firstId) as string[];
    const [last, secondLast] = order;

    // 2. The second campaign goes out slowly; the last recipient unsubscribes with one click meanwhile.
    smtp.delayMs = 25;
    const before = smtp.messages.length;
    const second = await launch("Second");
    const secondId = second.id as string;
    await until(() => smtp!.messages.length > before + 20);
    const oneClick = await fetch(unsubscribeOf.get(last!)!, {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
      body: "List-Unsubscribe=One-Click",
    });
    expect(oneClick.status).toBe(200);
    // At once: the address is on the list before the campaign has finished.
    expect(campaign(secondId).status).toBe("Active");
    expect(db.prepare(`SELECT "reason" FROM "Suppression" WHERE "email" = ?`).pluck().get(last)).toBe("unsubscribed");
    // Repeating it changes nothing; an altered token changes nothing.
    const again = await fetch(unsubscribeOf.get(last!)!, {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
      body: "List-Unsubscribe=One-Click",
    });
    expect(again.status).toBe(200);
    const altered = unsubscribeOf.get(secondLast!)!.replace(/.$/, (c) => (c === "A" ? "B" : "A"));
    expect((await fetch(altered, { method: "POST", body: "List-Unsubscribe=One-Click" })).status).toBe(404);
    // A GET (a link scanner) shows the page and unsubscribes nobody.
    const page = await fetch(unsubscribeOf.get(secondLast!)!);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain("Shop News");

    smtp.delayMs = 0;
    await until(() => campaign(secondId).status === "Completed");
    const secondFigures = campaign(secondId);
    expect(secondFigures).toMatchObject({ audienceSize: CUSTOMERS, suppressedCount: 1, pendingCount: 0 });
    expect(
      Number(secondFigures.deliveredCount) +
        Number(secondFigures.failedCount) +
        Number(secondFigures.bouncedCount) +
        Number(secondFigures.suppressedCount),
    ).toBe(CUSTOMERS);
    const secondMessages = smtp.messages.slice(before);
    expect(secondMessages.filter((m) => m.to === last)).toHaveLength(0);
    expect(secondMessages.filter((m) => m.to === secondLast)).toHaveLength(1);
    expect(
      db.prepare(`SELECT "status" FROM "Delivery" WHERE "campaignId" = ? AND "email" = ?`).pluck().get(secondId, last),
    ).toBe("suppressed");

    // 3. The next launch leaves them out and says so.
    const third = await launch("Third");
    expect(third).toMatchObject({ audienceSize: CUSTOMERS - 1, suppressedAtLaunch: 1 });
    db.close();
  });
});
