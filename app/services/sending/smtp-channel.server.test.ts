// The SMTP channel against a real SMTP server process (the smtp-server package, listening on a
// loopback port): the message a mailbox provider receives (multipart/alternative with both parts,
// From with the sender's name, To, Reply-To, Date, a Message-ID on the sender's domain made from the
// delivery id, RFC 8058 one-click unsubscribe headers, RFC 2047 encoded words, no header injection),
// its DKIM signature checked by a real verifier (mailauth) against the published key, and how the
// server's answers map to rows: 5.1.x bounces, other 5xx fail, 4xx are retried.
import { generateKeyPairSync } from "node:crypto";
import type { AddressInfo } from "node:net";
import { simpleParser } from "mailparser";
import { dkimVerify } from "mailauth";
import { SMTPServer } from "smtp-server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { OutgoingMessage } from "~/services/sending/channel.server";
import { smtpChannel, smtpOutcome } from "~/services/sending/smtp-channel.server";

type Received = { from: string; to: string[]; raw: string };
const received: Received[] = [];
let inFlight = 0;
let mostInFlight = 0;
let slowMs = 0;
let server: SMTPServer;
let port: number;

const refusal = (responseCode: number, message: string) => Object.assign(new Error(message), { responseCode });

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
      const local = address.address.split("@")[0];
      if (local === "nobody") return callback(refusal(550, "5.1.1 The e-mail account does not exist"));
      if (local === "busy") return callback(refusal(451, "4.2.1 Mailbox busy, try later"));
      if (local === "slow") return callback(refusal(454, "4.7.0 Too many messages, slow down"));
      if (local === "policy") return callback(refusal(554, "5.7.1 Rejected by policy"));
      if (local === "gone") return callback(refusal(550, "Mailbox unavailable"));
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

const SENDER = { name: "Shop", address: "news@shop.example", replyTo: null };

/** A message as the engine builds it. */
function message(key: string, email: string, fields: Partial<OutgoingMessage> = {}): OutgoingMessage {
  return {
    key,
    to: { name: "Asha Rao", email, phone: "" },
    from: SENDER,
    subject: "Hello Asha Rao",
    text: "Hi Asha Rao, 10% off\n\nUnsubscribe: https://crm.example/u/tok",
    html: '<p>Hi Asha Rao, 10% off</p><p><a href="https://crm.example/u/tok">Unsubscribe</a></p>',
    unsubscribeUrl: "https://crm.example/u/tok",
    ...fields,
  };
}

/** The header lines of a raw message, unfolded. */
const headerLines = (raw: string) =>
  raw
    .slice(0, raw.indexOf("\r\n\r\n"))
    .replace(/\r\n[ \t]/g, " ")
    .split("\r\n");

describe("a campaign message", () => {
  const { privateKey, publicKey } = generateKeyPairSync("rsa", {
    modulusLength: 2048,
    privateKeyEncoding: { type: "pkcs8", format: "pem" },
    publicKeyEncoding: { type: "spki", format: "der" },
  });
  // The TXT record `crm dkim generate` tells the admin to publish.
  const record = `v=DKIM1; k=rsa; p=${publicKey.toString("base64")}`;
  const resolver = async (name: string, type: string) => {
    if (type === "TXT" && name === "crm202611._domainkey.shop.example") return [[record]];
    throw Object.assign(new Error(`no ${type} record for ${name}`), { code: "ENOTFOUND" });
  };

  it("is multipart text + HTML with the sender, the recipient, Reply-To, Date, Message-ID and one-click unsubscribe, DKIM-signed", async () => {
    received.length = 0;
    const channel = smtpChannel({
      url: `smtp://crm:secret@127.0.0.1:${port}`,
      dkim: { domainName: "shop.example", keySelector: "crm202611", privateKey },
      unsubscribeMailbox: "unsubscribe@shop.example",
    });
    const before = Date.now();
    const [result] = await channel.send([
      message("6743a1b20000000000000001", "asha@example.com", {
        from: { name: "Rao Textiles", address: "news@shop.example", replyTo: "replies@shop.example" },
      }),
    ]);
    await channel.close();
    expect(result).toMatchObject({ status: "accepted" });
    expect(received).toHaveLength(1);
    const mail = received[0];
    expect(mail.from).toBe("news@shop.example");
    expect(mail.to).toEqual(["asha@example.com"]);

    const parsed = await simpleParser(mail.raw);
    expect(parsed.headers.get("content-type")).toMatchObject({ value: "multipart/alternative" });
    expect(parsed.text?.trim()).toBe("Hi Asha Rao, 10% off\n\nUnsubscribe: https://crm.example/u/tok");
    expect(parsed.html).toContain('<a href="https://crm.example/u/tok">Unsubscribe</a>');
    expect(parsed.from?.value).toEqual([{ name: "Rao Textiles", address: "news@shop.example" }]);
    expect(parsed.replyTo?.value).toEqual([{ name: "", address: "replies@shop.example" }]);
    const to = Array.isArray(parsed.to) ? parsed.to[0] : parsed.to;
    expect(to?.value).toEqual([{ name: "Asha Rao", address: "asha@example.com" }]);
    expect(parsed.subject).toBe("Hello Asha Rao");
    // The Message-ID is on MAIL_FROM's domain, made from the delivery id.
    expect(parsed.messageId).toBe("<6743a1b20000000000000001@shop.example>");
    expect(parsed.date?.getTime()).toBeGreaterThanOrEqual(Math.floor(before / 1000) * 1000);
    expect(parsed.date?.getTime()).toBeLessThanOrEqual(Date.now());
    const lines = headerLines(mail.raw);
    expect(lines).toContain(
      "List-Unsubscribe: <https://crm.example/u/tok>, <mailto:unsubscribe@shop.example?subject=unsubscribe>",
    );
    expect(lines).toContain("List-Unsubscribe-Post: List-Unsubscribe=One-Click");

    // A real DKIM verifier, against the published record: it passes, for d=shop.example, and the
    // signature covers both unsubscribe headers (RFC 8058 section 4).
    const verified = await dkimVerify(Buffer.from(mail.raw), { resolver });
    expect(verified.results).toHaveLength(1);
    const signature = verified.results[0];
    expect(signature.status.result).toBe("pass");
    expect(signature.signingDomain).toBe("shop.example");
    expect(signature.selector).toBe("crm202611");
    const dkimHeader = lines.find((l) => l.startsWith("DKIM-Signature:")) ?? "";
    const signed = /\bh=([^;]+)/.exec(dkimHeader)?.[1]?.replace(/\s/g, "").toLowerCase().split(":") ?? [];
    expect(signed).toEqual(
      expect.arrayContaining([
        "from",
        "to",
        "subject",
        "date",
        "message-id",
        "list-unsubscribe",
        "list-unsubscribe-post",
      ]),
    );

    // The same verifier fails a copy whose unsubscribe link was changed in transit, and one
    // checked against another key: the pass above means something.
    const altered = mail.raw.replace("https://crm.example/u/tok", "https://evil.example/u/tok");
    expect((await dkimVerify(Buffer.from(altered), { resolver })).results[0].status.result).toBe("fail");
    const otherKey = generateKeyPairSync("rsa", { modulusLength: 2048 }).publicKey;
    const wrongRecord = `v=DKIM1; k=rsa; p=${otherKey.export({ type: "spki", format: "der" }).toString("base64")}`;
    const wrong = await dkimVerify(Buffer.from(mail.raw), { resolver: async () => [[wrongRecord]] });
    expect(wrong.results[0].status.result).not.toBe("pass");
  });

  it("encodes names and subjects that are not ASCII (RFC 2047), and never lets CR/LF reach a header", async () => {
    received.length = 0;
    const channel = smtpChannel({ url: `smtp://127.0.0.1:${port}` });
    const results = await channel.send([
      message("6743a1b20000000000000002", "priya@example.com", {
        to: { name: "Priyā Śarmā", email: "priya@example.com", phone: "" },
        from: { name: "Rao Textiles — साड़ी", address: "news@shop.example", replyTo: null },
        subject: "दिवाली offer for Priyā: 10% off",
      }),
      message("6743a1b20000000000000003", "eve@example.com", {
        to: { name: "Eve\r\nBcc: x@y.example", email: "eve@example.com", phone: "" },
        from: { name: "Shop\r\nBcc: x@y.example", address: "news@shop.example", replyTo: null },
        subject: "Hello\r\nBcc: x@y.example\r\n\r\nInjected body",
      }),
    ]);
    await channel.close();
    expect(results.map((r) => r.status)).toEqual(["accepted", "accepted"]);

    const unicode = received.find((m) => m.to[0] === "priya@example.com")?.raw ?? "";
    const unicodeLines = headerLines(unicode);
    // Every header is 7-bit ASCII: encoded words carry the rest.
    expect(unicodeLines.every((l) => /^[\x20-\x7e\t]*$/.test(l))).toBe(true);
    expect(unicodeLines.find((l) => l.startsWith("Subject:"))).toMatch(/=\?UTF-8\?[BQ]\?/i);
    expect(unicodeLines.find((l) => l.startsWith("From:"))).toMatch(/=\?UTF-8\?[BQ]\?.*<news@shop\.example>/i);
    expect(unicodeLines.find((l) => l.startsWith("To:"))).toMatch(/=\?UTF-8\?[BQ]\?.*<priya@example\.com>/i);
    const decoded = await simpleParser(unicode);
    expect(decoded.subject).toBe("दिवाली offer for Priyā: 10% off");
    expect(decoded.from?.value).toEqual([{ name: "Rao Textiles — साड़ी", address: "news@shop.example" }]);
    const decodedTo = Array.isArray(decoded.to) ? decoded.to[0] : decoded.to;
    expect(decodedTo?.value).toEqual([{ name: "Priyā Śarmā", address: "priya@example.com" }]);

    // The server got the message for eve only; no Bcc header, the body is the message's own.
    const injected = received.find((m) => m.to[0] === "eve@example.com");
    expect(injected?.to).toEqual(["eve@example.com"]);
    expect(received.some((m) => m.to.includes("x@y.example"))).toBe(false);
    const injectedLines = headerLines(injected?.raw ?? "");
    expect(injectedLines.some((l) => /^bcc:/i.test(l))).toBe(false);
    const parsed = await simpleParser(injected?.raw ?? "");
    expect(parsed.bcc).toBeUndefined();
    expect(parsed.subject).toBe("Hello Bcc: x@y.example Injected body");
    expect(parsed.from?.value).toEqual([{ name: "Shop Bcc: x@y.example", address: "news@shop.example" }]);
    expect(parsed.text).not.toContain("Injected body");
  });
});

describe("the server's answers", () => {
  it("accepted, bounced (5.1.1), retried (4xx, not an error), failed (other 5xx), and no address", async () => {
    received.length = 0;
    const channel = smtpChannel({ url: `smtp://crm:secret@127.0.0.1:${port}` });
    const results = await channel.send([
      message("6743a1b20000000000000011", "asha@example.com"),
      message("6743a1b20000000000000012", "nobody@example.com"),
      message("6743a1b20000000000000013", "busy@example.com"),
      message("6743a1b20000000000000014", "policy@example.com"),
      message("6743a1b20000000000000015", "", { to: { name: "No mail", email: "", phone: "+91 90000 00000" } }),
      message("6743a1b20000000000000016", "slow@example.com"),
      message("6743a1b20000000000000017", "gone@example.com"),
      message("6743a1b20000000000000018", "two@example.com, three@example.com"),
    ]);
    await channel.close();
    expect(results.map((r) => r.status)).toEqual([
      "accepted",
      "bounced",
      "retry",
      "failed",
      "failed",
      "retry",
      "bounced",
      "failed",
    ]);
    expect(results[1]).toMatchObject({ details: expect.stringMatching(/5\.1\.1/) });
    expect(results[2]).toMatchObject({ countsAsError: false, details: expect.stringMatching(/Mailbox busy/) });
    expect(results[3]).toMatchObject({ details: expect.stringMatching(/Rejected by policy/) });
    expect(results[4]).toMatchObject({ details: "No e-mail address" });
    expect(results[5]).toMatchObject({ countsAsError: false, details: expect.stringMatching(/^454 4\.7\.0/) });
    expect(results[6]).toMatchObject({ details: expect.stringMatching(/^550 Mailbox unavailable/) });
    expect(received.map((m) => m.to)).toEqual([["asha@example.com"]]);
  });

  it("maps reply codes and enhanced status codes: the enhanced code decides a bounce when there is one", () => {
    const outcome = (responseCode: number | undefined, response: string | undefined, code = "EENVELOPE") =>
      smtpOutcome("k", Object.assign(new Error(response ?? "Connection closed"), { responseCode, response, code }));
    for (const temporary of [421, 450, 451, 452, 454, 471]) {
      expect(outcome(temporary, `${temporary} 4.3.0 Try again later`)).toMatchObject({
        status: "retry",
        countsAsError: false,
      });
    }
    // A 421 as the server closes the connection is temporary too, whatever the stage.
    expect(outcome(421, "421 4.3.2 Service shutting down", "EPROTOCOL")).toMatchObject({
      status: "retry",
      countsAsError: false,
    });
    expect(outcome(550, "550 5.1.1 No such user")).toMatchObject({ status: "bounced" });
    expect(outcome(550, "550-5.1.1 The email account that you tried to reach does not exist")).toMatchObject({
      status: "bounced",
    });
    expect(outcome(554, "554 5.1.10 Null MX")).toMatchObject({ status: "bounced" });
    expect(outcome(553, "553 5.1.3 Bad address syntax", "EMESSAGE")).toMatchObject({ status: "bounced" });
    // The enhanced code says it is not about the mailbox: failed, even with 550.
    expect(outcome(550, "550 5.7.1 Message rejected as spam")).toMatchObject({ status: "failed" });
    expect(outcome(552, "552 5.2.2 Mailbox full")).toMatchObject({ status: "failed" });
    // No enhanced code: 550, 551 and 553 say the mailbox does not exist; others fail.
    expect(outcome(550, "550 Requested action not taken: mailbox unavailable")).toMatchObject({ status: "bounced" });
    expect(outcome(551, "551 User not local")).toMatchObject({ status: "bounced" });
    expect(outcome(554, "554 Transaction failed")).toMatchObject({ status: "failed" });
    // A "5.1.1" somewhere in the text is not the enhanced code.
    expect(outcome(554, "554 Transaction failed (see rule 5.1.1)")).toMatchObject({ status: "failed" });
    // Nothing said about this message: a refused login, a dropped connection.
    expect(outcome(535, "535 5.7.8 Authentication failed", "EAUTH")).toMatchObject({
      status: "retry",
      countsAsError: true,
    });
    expect(outcome(undefined, undefined, "ECONNECTION")).toMatchObject({ status: "retry", countsAsError: true });
    expect(outcome(undefined, undefined, "EMESSAGE")).toMatchObject({ status: "retry", countsAsError: true });
  });

  it("retries when the server cannot be reached or refuses the login, counting it toward the error cap", async () => {
    const wrong = smtpChannel({ url: `smtp://crm:wrong@127.0.0.1:${port}` });
    const [refused] = await wrong.send([message("k1", "a@example.com")]);
    await wrong.close();
    expect(refused).toMatchObject({
      status: "retry",
      countsAsError: true,
      details: expect.stringMatching(/Invalid username or password/),
    });
    const down = smtpChannel({ url: "smtp://127.0.0.1:1" });
    const [unreachable] = await down.send([message("k2", "a@example.com")]);
    await down.close();
    expect(unreachable).toMatchObject({ status: "retry", countsAsError: true });
  });
});

describe("the pool", () => {
  it("hands over at most a connection's worth of messages at once, and none after proceed() says stop", async () => {
    received.length = 0;
    mostInFlight = 0;
    slowMs = 20;
    const channel = smtpChannel({ url: `smtp://crm:secret@127.0.0.1:${port}`, maxConnections: 3 });
    const batch = Array.from({ length: 40 }, (_, i) =>
      message(`6743a1b2${String(i + 1).padStart(16, "0")}`, `r${i}@example.com`),
    );
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

  it("drops a message whose envelope went ahead when it may no longer go: its text never goes, the rest is held", async () => {
    received.length = 0;
    const channel = smtpChannel({ url: `smtp://crm:secret@127.0.0.1:${port}`, maxConnections: 1 });
    const batch = Array.from({ length: 6 }, (_, i) =>
      message(`6743a1c3${String(i + 1).padStart(16, "0")}`, `p${i}@example.com`),
    );
    const answered: string[] = [];
    const results = await channel.send(batch, {
      proceed: () => true,
      // A pause answered once the third message's envelope had gone with the second's text.
      stillGoing: (key) => key !== batch[2].key,
      answered: (r) => answered.push(r.key),
    });
    expect(results.map((r) => r.status)).toEqual(["accepted", "accepted", "held", "held", "held", "held"]);
    expect(answered).toEqual([batch[0].key, batch[1].key]);
    expect(received.map((r) => r.to)).toEqual([["p0@example.com"], ["p1@example.com"]]);
    // The connection that waited for the third text was dropped: the next message goes on a new one.
    const [again] = await channel.send([message("6743a1c30000000000000009", "p9@example.com")]);
    await channel.close();
    expect(again).toMatchObject({ status: "accepted" });
    expect(received.map((r) => r.to)).toEqual([["p0@example.com"], ["p1@example.com"], ["p9@example.com"]]);
  });

  it("sends no text ahead of the engine's recording of the answer before it on that connection", async () => {
    received.length = 0;
    const channel = smtpChannel({ url: `smtp://crm:secret@127.0.0.1:${port}`, maxConnections: 1 });
    const batch = Array.from({ length: 4 }, (_, i) =>
      message(`6743a1d4${String(i + 1).padStart(16, "0")}`, `q${i}@example.com`),
    );
    const arrivedWhileRecording: number[] = [];
    const results = await channel.send(batch, {
      proceed: () => true,
      stillGoing: () => true,
      // A slow write of the answers: the next text, whose envelope went ahead, waits for it.
      answersRecorded: async () => {
        await new Promise((resolve) => setTimeout(resolve, 30));
        arrivedWhileRecording.push(received.length);
      },
    });
    await channel.close();
    expect(results.map((r) => r.status)).toEqual(["accepted", "accepted", "accepted", "accepted"]);
    // Before the second, third and fourth texts: only the messages before had arrived.
    expect(arrivedWhileRecording).toEqual([1, 2, 3]);
    expect(received.map((r) => r.to)).toEqual(batch.map((m) => [m.to.email]));
  });
});
