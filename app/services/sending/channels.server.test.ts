// The channel the settings choose and what the log says at start: with DELIVERY_CHANNEL=smtp, the
// DKIM key `crm dkim generate` stored for MAIL_FROM's domain signs every message (checked on what a
// real SMTP server received), and the start notes say so, or say how to set it up.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type SmtpCapture, startSmtpCapture } from "../../../tests/helpers/smtp";
import { message as outgoingMessage } from "../../../tests/helpers/smtp-servers";
import { type Env, getEnv, resetEnvCache } from "~/env.server";
import { createChannel, deliveryStartNotes } from "~/services/sending/channels.server";
import { dkimKeyFile, generateDkimKey } from "~/services/email/dkim-keys.server";

const dataDir = mkdtempSync(path.join(tmpdir(), "crm-channels-"));
let smtp: SmtpCapture;
beforeAll(async () => {
  smtp = await startSmtpCapture();
});
afterAll(async () => {
  await smtp.close();
  rmSync(dataDir, { recursive: true, force: true });
});

function smtpEnv(extra: Record<string, string> = {}): Env {
  Object.assign(process.env, {
    DATA_DIR: dataDir,
    DELIVERY_CHANNEL: "smtp",
    SMTP_URL: `smtp://127.0.0.1:${smtp.port}`,
    MAIL_FROM: "Shop <news@shop.example>",
    PUBLIC_URL: "https://crm.example",
    ...extra,
  });
  resetEnvCache();
  return getEnv();
}
afterAll(() => {
  for (const key of ["DELIVERY_CHANNEL", "SMTP_URL", "MAIL_FROM", "PUBLIC_URL", "MAIL_UNSUBSCRIBE_ADDRESS"])
    delete process.env[key];
  resetEnvCache();
});

const message = outgoingMessage(1);

describe("the SMTP channel from the settings", () => {
  it("without a key for MAIL_FROM's domain: unsigned, and the log says how to make one", async () => {
    const env = smtpEnv({ PUBLIC_URL: "http://localhost:3000" });
    const notes = deliveryStartNotes(env);
    expect(notes).toEqual([
      { level: "warn", message: expect.stringMatching(/^PUBLIC_URL is http:\/\/localhost:3000/) },
      {
        level: "warn",
        message: expect.stringContaining("will NOT be DKIM-signed: no key for shop.example"),
      },
    ]);
    expect(notes[1].message).toContain("crm dkim generate --domain shop.example");
    smtp.messages.length = 0;
    const channel = createChannel(env, {});
    expect((await channel.send([message]))[0]).toMatchObject({ status: "accepted" });
    await channel.close();
    expect(smtp.messages[0].raw).not.toMatch(/^DKIM-Signature:/im);
  });

  it("with the key `crm dkim generate` stored: every message signed for the domain with its selector", async () => {
    generateDkimKey(dataDir, "shop.example", { selector: "crm2026" });
    const env = smtpEnv({ MAIL_UNSUBSCRIBE_ADDRESS: "unsubscribe@shop.example" });
    expect(deliveryStartNotes(env)).toEqual([
      {
        level: "info",
        message: "Campaign e-mail from shop.example will be DKIM-signed (d=shop.example, selector crm2026).",
      },
    ]);
    smtp.messages.length = 0;
    const channel = createChannel(env, {});
    expect((await channel.send([message]))[0]).toMatchObject({ status: "accepted" });
    await channel.close();
    const raw = smtp.messages[0].raw.replace(/\r\n[ \t]/g, " ");
    expect(raw).toMatch(/^DKIM-Signature: .*\bd=shop\.example;.*\bs=crm2026;/im);
    expect(raw).toMatch(
      /^List-Unsubscribe: <https:\/\/crm\.example\/u\/tok>, <mailto:unsubscribe@shop\.example\?subject=unsubscribe>$/im,
    );
  });

  it("a key file that is there but broken stops the channel with what to do, never sends unsigned", () => {
    writeFileSync(dkimKeyFile(dataDir, "shop.example"), "{ not json");
    const env = smtpEnv();
    expect(deliveryStartNotes(env)).toEqual([
      {
        level: "error",
        message: expect.stringMatching(/^Campaign e-mail cannot be sent: The DKIM key file .* is not valid JSON/),
      },
    ]);
    expect(() => createChannel(env, {})).toThrow(/crm dkim generate --domain shop\.example --force/);
  });

  it("a MAIL_FROM domain DKIM cannot sign for (localhost) sends unsigned", () => {
    const env = smtpEnv({ MAIL_FROM: "crm@localhost" });
    expect(deliveryStartNotes(env)[0]).toMatchObject({ level: "warn", message: expect.stringContaining("NOT") });
    expect(createChannel(env, {}).name).toBe("smtp");
  });
});
