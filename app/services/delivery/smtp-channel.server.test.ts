// The SMTP channel against a real SMTP server process (the smtp-server package, listening on a
// loopback port): what it receives (To, Subject, the personalised body, the Message-ID made from the
// delivery id) and how refusals map to rows: 5.1.1 bounces, other 5xx fail, 4xx are retried.
import type { AddressInfo } from "node:net";
import { SMTPServer } from "smtp-server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { smtpChannel } from "~/services/delivery/smtp-channel.server";

type Received = { from: string; to: string[]; raw: string };
const received: Received[] = [];
let inFlight = 0;
let mostInFlight = 0;
let slowMs = 0;
let server: SMTPServer;
let port: number;

beforeAll(async () => {
  server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    logger: false,
    onAuth(auth, _session, callback) {
      if (auth.username === "crm" && auth.password === "secret") callback(null, { user: "crm" });
      else callback(new Error("Invalid username or password"));
    },
    onRcptTo(address, _session, callback) {
      if (address.address.startsWith("nobody@")) {
        const error = new Error("5.1.1 The e-mail account does not exist") as Error & { responseCode: number };
        error.responseCode = 550;
        return callback(error);
      }
      if (address.address.startsWith("busy@")) {
        const error = new Error("4.2.1 Mailbox busy, try later") as Error & { responseCode: number };
        error.responseCode = 451;
        return callback(error);
      }
      if (address.address.startsWith("policy@")) {
        const error = new Error("5.7.1 Rejected by policy") as Error & { responseCode: number };
        error.responseCode = 554;
        return callback(error);
      }
      callback();
    },
    onData(stream, session, callback) {
      inFlight += 1;
      mostInFlight = Math.max(mostInFlight, inFlight);
      const chunks: Buffer[] = [];
      stream.on("data", (c: Buffer) => chunks.push(c));
      stream.on("end", () => {
        received.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : "",
          to: session.envelope.rcptTo.map((r) => r.address),
          raw: Buffer.concat(chunks).toString("utf8"),
        });
        // A relay that takes a moment over each message, so several are out at once.
        setTimeout(() => {
          inFlight -= 1;
          callback();
        }, slowMs);
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  port = (server.server.address() as AddressInfo).port;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const header = (raw: string, name: string) => new RegExp(`^${name}: (.*)$`, "im").exec(raw)?.[1]?.trim();

describe("SMTP channel", () => {
  it("delivers personalised messages with a Message-ID made from the delivery id, and maps refusals", async () => {
    const channel = smtpChannel({
      url: `smtp://crm:secret@127.0.0.1:${port}`,
      from: "CRM <news@shop.example>",
      messageIdDomain: "crm.example",
    });
    const results = await channel.send([
      {
        key: "6743a1b20000000000000001",
        to: { name: "Asha Rao", email: "asha@example.com", phone: "" },
        subject: "Hello Asha Rao",
        text: "Hi Asha Rao, 10% off",
      },
      {
        key: "6743a1b20000000000000002",
        to: { name: "Nobody", email: "nobody@example.com", phone: "" },
        subject: "s",
        text: "t",
      },
      {
        key: "6743a1b20000000000000003",
        to: { name: "Busy", email: "busy@example.com", phone: "" },
        subject: "s",
        text: "t",
      },
      {
        key: "6743a1b20000000000000004",
        to: { name: "Policy", email: "policy@example.com", phone: "" },
        subject: "s",
        text: "t",
      },
      {
        key: "6743a1b20000000000000005",
        to: { name: "No mail", email: "", phone: "+91 90000 00000" },
        subject: "s",
        text: "t",
      },
    ]);
    await channel.close();
    expect(results.map((r) => r.status)).toEqual(["accepted", "bounced", "retry", "failed", "failed"]);
    expect(results[1]).toMatchObject({ details: expect.stringMatching(/5\.1\.1/) });
    expect(results[2]).toMatchObject({ countsAsError: false, details: expect.stringMatching(/Mailbox busy/) });
    expect(results[3]).toMatchObject({ details: expect.stringMatching(/Rejected by policy/) });
    expect(results[4]).toMatchObject({ details: "No e-mail address" });

    expect(received).toHaveLength(1);
    const mail = received[0];
    expect(mail.to).toEqual(["asha@example.com"]);
    expect(mail.from).toBe("news@shop.example");
    expect(header(mail.raw, "To")).toBe("Asha Rao <asha@example.com>");
    expect(header(mail.raw, "Subject")).toBe("Hello Asha Rao");
    expect(header(mail.raw, "Message-ID")).toBe("<6743a1b20000000000000001@crm.example>");
    expect(mail.raw).toContain("Hi Asha Rao, 10% off");
  });

  it("retries when the server cannot be reached or refuses the login, counting it toward the error cap", async () => {
    const wrong = smtpChannel({
      url: `smtp://crm:wrong@127.0.0.1:${port}`,
      from: "news@shop.example",
      messageIdDomain: "crm.example",
    });
    const [refused] = await wrong.send([
      { key: "k1", to: { name: "", email: "a@example.com", phone: "" }, subject: "s", text: "t" },
    ]);
    await wrong.close();
    expect(refused).toMatchObject({
      status: "retry",
      countsAsError: true,
      details: expect.stringMatching(/Invalid username or password/),
    });
    const down = smtpChannel({ url: "smtp://127.0.0.1:1", from: "news@shop.example", messageIdDomain: "crm.example" });
    const [unreachable] = await down.send([
      { key: "k2", to: { name: "", email: "a@example.com", phone: "" }, subject: "s", text: "t" },
    ]);
    await down.close();
    expect(unreachable).toMatchObject({ status: "retry", countsAsError: true });
  });

  it("hands over at most a connection's worth of messages at once, and none after proceed() says stop", async () => {
    received.length = 0;
    mostInFlight = 0;
    slowMs = 20;
    const channel = smtpChannel({
      url: `smtp://crm:secret@127.0.0.1:${port}`,
      from: "news@shop.example",
      messageIdDomain: "crm.example",
      maxConnections: 3,
    });
    const batch = Array.from({ length: 40 }, (_, i) => ({
      key: `6743a1b2${String(i + 1).padStart(16, "0")}`,
      to: { name: `R${i}`, email: `r${i}@example.com`, phone: "" },
      subject: "s",
      text: "t",
    }));
    const answered: string[] = [];
    let handed = 0;
    const results = await channel.send(batch, {
      proceed: () => {
        if (answered.length >= 10) return false;
        handed += 1;
        return true;
      },
      answered: (r) => answered.push(r.key),
    });
    await channel.close();
    slowMs = 0;
    expect(channel.concurrency).toBe(3);
    expect(mostInFlight).toBeLessThanOrEqual(3);
    // Every message handed over was answered and passed on at once; the rest were held back.
    const accepted = results.filter((r) => r.status === "accepted");
    const held = results.filter((r) => r.status === "held");
    expect(accepted.length).toBe(handed);
    expect(answered.length).toBe(handed);
    expect(handed).toBeGreaterThanOrEqual(10);
    expect(handed).toBeLessThanOrEqual(10 + 3);
    expect(held.length).toBe(40 - handed);
    expect(received.length).toBe(handed);
  });
});
