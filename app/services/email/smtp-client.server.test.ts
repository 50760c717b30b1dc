// The product's SMTP client (smtp-client.server.ts) and message builder (mime.server.ts) through the
// SMTP channel, against real SMTP server processes (smtp-server on loopback ports): PIPELINING on
// and off (seen at the server's side of a loopback relay that records what each write carried),
// STARTTLS and TLS from the start with a certificate made for the test, AUTH PLAIN and LOGIN,
// dot-stuffing, a line longer than SMTP allows, names and subjects that are not ASCII decoded by
// mailparser as typed, a relay that answers in several lines (as Gmail does), and a server that
// drops the connection in the middle of a batch: nothing is lost.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import net, { type AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import tls from "node:tls";
import { simpleParser } from "mailparser";
import { SMTPServer, type SMTPServerOptions } from "smtp-server";
import { afterEach, describe, expect, it } from "vitest";
import type { ChannelResult, OutgoingMessage } from "~/services/sending/channel.server";
import { ehloName, smtpChannel, smtpClientSettings } from "~/services/sending/smtp-channel.server";
import { dotStuffed, isLoopback, MAX_LINE } from "./smtp-client.server";
import { selfSignedCertificate } from "../../../tests/helpers/certificate";

type Received = { to: string; raw: string; secure: boolean; user: string | null };

const stops: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const stop of stops.splice(0).reverse()) await stop();
});

/** A real SMTP server on a loopback port that keeps what it receives. */
async function startServer(options: Partial<SMTPServerOptions> = {}) {
  const received: Received[] = [];
  const server = new SMTPServer({
    authOptional: true,
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on("data", (c: Buffer) => chunks.push(c));
      stream.on("end", () => {
        received.push({
          to: session.envelope.rcptTo[0]?.address ?? "",
          raw: Buffer.concat(chunks).toString("utf8"),
          secure: session.secure,
          user: (session.user as string | undefined) ?? null,
        });
        callback();
      });
    },
    ...options,
  });
  server.on("error", () => {});
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  stops.push(() => new Promise<void>((resolve) => server.close(() => resolve())));
  return { port: (server.server.address() as AddressInfo).port, received };
}

/**
 * A loopback relay between the client and a server: what each of the client's writes carried, as
 * the server's side read it, and a way to cut every connection once the n-th message has gone.
 */
async function startRelay(target: number, options: { cutAfterMessages?: number } = {}) {
  const reads: string[] = [];
  const sockets = new Set<net.Socket>();
  let messages = 0;
  let cut = false;
  const relay = net.createServer((client) => {
    const upstream = net.connect(target, "127.0.0.1");
    sockets.add(client).add(upstream);
    client.on("data", (chunk) => {
      const text = chunk.toString("latin1");
      reads.push(text);
      upstream.write(chunk);
      messages += text.split("\r\n.\r\n").length - 1;
      if (!cut && options.cutAfterMessages !== undefined && messages >= options.cutAfterMessages) {
        // The message went to the server; its answer never comes back.
        cut = true;
        client.destroy();
        upstream.destroy();
      }
    });
    upstream.on("data", (chunk) => client.write(chunk));
    client.on("error", () => upstream.destroy());
    upstream.on("error", () => client.destroy());
    client.on("close", () => upstream.destroy());
    upstream.on("close", () => client.destroy());
  });
  await new Promise<void>((resolve) => relay.listen(0, "127.0.0.1", resolve));
  stops.push(async () => {
    for (const s of sockets) s.destroy();
    await new Promise<void>((resolve) => relay.close(() => resolve()));
  });
  return { port: (relay.address() as AddressInfo).port, reads };
}

function message(n: number, fields: Partial<OutgoingMessage> = {}): OutgoingMessage {
  return {
    key: `6743a1b2${String(n).padStart(16, "0")}`,
    to: { name: "Asha Rao", email: `r${n}@example.com`, phone: "" },
    from: { name: "Shop", address: "news@shop.example", replyTo: null },
    subject: "Hello Asha Rao",
    text: "Hi Asha Rao, 10% off\n\nUnsubscribe: https://crm.example/u/tok",
    html: '<p>Hi Asha Rao, 10% off</p><p><a href="https://crm.example/u/tok">Unsubscribe</a></p>',
    unsubscribeUrl: "https://crm.example/u/tok",
    ...fields,
  };
}

async function sendAll(url: string, batch: OutgoingMessage[], extra: Parameters<typeof smtpChannel>[0] = { url }) {
  const channel = smtpChannel({ ...extra, url });
  try {
    return await channel.send(batch);
  } finally {
    await channel.close();
  }
}

describe("PIPELINING", () => {
  const refuseSome: Partial<SMTPServerOptions> = {
    onRcptTo(address, _session, callback) {
      if (address.address.startsWith("r2@")) {
        return callback(Object.assign(new Error("5.1.1 No such mailbox"), { responseCode: 550 }));
      }
      callback();
    },
  };

  it("when offered, MAIL FROM, RCPT TO and DATA go in one write, the message in another; a refused recipient is followed by RSET", async () => {
    const server = await startServer({ ...refuseSome, disabledCommands: ["STARTTLS"] });
    const relay = await startRelay(server.port);
    const results = await sendAll(`smtp://127.0.0.1:${relay.port}`, [message(1), message(2), message(3), message(4)], {
      url: "",
      maxConnections: 1,
    });
    expect(results.map((r) => r.status)).toEqual(["accepted", "bounced", "accepted", "accepted"]);
    expect(server.received.map((m) => m.to)).toEqual(["r1@example.com", "r3@example.com", "r4@example.com"]);
    // Each write as the server's side read it, the message text cut to its Message-ID.
    const writes = relay.reads
      .filter((r) => /MAIL FROM|Message-ID/.test(r))
      .map((r) => r.replace(/[^]*Message-ID: <(\w+)@[^]*\r\n\.\r\n/, "<$1>\r\n.\r\n"));
    const envelope = (n: number) => `MAIL FROM:<news@shop.example>\r\nRCPT TO:<r${n}@example.com>\r\nDATA\r\n`;
    const text = (n: number) => `<${message(n).key}>\r\n.\r\n`;
    expect(writes).toEqual([
      envelope(1),
      // The message's text and its end: one write.
      text(1),
      envelope(2),
      // r2 refused: its DATA is refused too; RSET opens the next transaction.
      `RSET\r\n${envelope(3)}`,
      text(3),
      envelope(4),
      text(4),
    ]);
  });

  it("with an engine that can be asked again before a text goes, the next envelope goes with the text before: one write a message", async () => {
    const server = await startServer({ ...refuseSome, disabledCommands: ["STARTTLS"] });
    const relay = await startRelay(server.port);
    const channel = smtpChannel({ url: `smtp://127.0.0.1:${relay.port}`, maxConnections: 1 });
    const asked: string[] = [];
    const batch = [message(1), message(2), message(3), message(4)];
    const results = await channel
      .send(batch, {
        proceed: (key) => (asked.push(`proceed ${key}`), true),
        stillGoing: (key) => (asked.push(`stillGoing ${key}`), true),
      })
      .finally(() => channel.close());
    expect(results.map((r) => r.status)).toEqual(["accepted", "bounced", "accepted", "accepted"]);
    expect(server.received.map((m) => m.to)).toEqual(["r1@example.com", "r3@example.com", "r4@example.com"]);
    const writes = relay.reads
      .filter((r) => /MAIL FROM|Message-ID/.test(r))
      .map((r) => r.replace(/[^]*Message-ID: <(\w+)@[^]*\r\n\.\r\n/, "<$1>\r\n.\r\n"));
    const envelope = (n: number) => `MAIL FROM:<news@shop.example>\r\nRCPT TO:<r${n}@example.com>\r\nDATA\r\n`;
    const text = (n: number) => `<${message(n).key}>\r\n.\r\n`;
    expect(writes).toEqual([
      envelope(1),
      // The first message's text and end, and the next one's envelope: one write.
      text(1) + envelope(2),
      // r2 refused, so no text goes for it; RSET opens the next transaction.
      `RSET\r\n${envelope(3)}`,
      text(3) + envelope(4),
      text(4),
    ]);
    // Each message was let go before its envelope went; one whose envelope went ahead was asked
    // about again just before its text (r2's never went).
    const [k1, k2, k3, k4] = batch.map((m) => m.key);
    expect(asked).toEqual([`proceed ${k1}`, `proceed ${k2}`, `proceed ${k3}`, `proceed ${k4}`, `stillGoing ${k4}`]);
  });

  it("when not offered, one command at a time, and the DATA never follows a refused recipient", async () => {
    const server = await startServer({
      ...refuseSome,
      disabledCommands: ["STARTTLS"],
      hidePIPELINING: true,
    } as Partial<SMTPServerOptions>);
    const relay = await startRelay(server.port);
    const results = await sendAll(`smtp://127.0.0.1:${relay.port}`, [message(1), message(2), message(3)], {
      url: "",
      maxConnections: 1,
    });
    expect(results.map((r) => r.status)).toEqual(["accepted", "bounced", "accepted"]);
    expect(server.received.map((m) => m.to)).toEqual(["r1@example.com", "r3@example.com"]);
    const commands = relay.reads.filter((r) => /^(MAIL|RCPT|DATA|RSET)/.test(r));
    expect(commands).toEqual([
      "MAIL FROM:<news@shop.example>\r\n",
      "RCPT TO:<r1@example.com>\r\n",
      "DATA\r\n",
      "MAIL FROM:<news@shop.example>\r\n",
      "RCPT TO:<r2@example.com>\r\n",
      "RSET\r\n",
      "MAIL FROM:<news@shop.example>\r\n",
      "RCPT TO:<r3@example.com>\r\n",
      "DATA\r\n",
    ]);
  });
});

describe("TLS and AUTH", () => {
  // A self-signed certificate for "localhost", made for this test.
  const { key, cert } = selfSignedCertificate();
  const onAuth: SMTPServerOptions["onAuth"] = (auth, _session, callback) => {
    if (auth.username === "crm@shop.example" && auth.password === "p@ss:w/rd") callback(null, { user: "crm" });
    else callback(new Error("Invalid username or password"));
  };

  it("upgrades with STARTTLS when offered on smtp://, then logs in with AUTH PLAIN (user and password percent-decoded)", async () => {
    const server = await startServer({ key, cert, onAuth, authMethods: ["PLAIN"] });
    const results = await sendAll(`smtp://crm%40shop.example:p%40ss%3Aw%2Frd@localhost:${server.port}`, [message(1)], {
      url: "",
      client: { tls: { ca: cert } },
    });
    expect(results).toMatchObject([{ status: "accepted" }]);
    expect(server.received).toMatchObject([{ to: "r1@example.com", secure: true, user: "crm" }]);
  });

  it("logs in without TLS only on this machine, and never to a server that offers no AUTH", async () => {
    // A relay elsewhere without STARTTLS gets no password (the address test: only loopback may).
    expect(["localhost", "127.0.0.1", "127.1.2.3", "::1", "[::1]"].every(isLoopback)).toBe(true);
    expect(
      ["mail.example.com", "10.0.0.5", "192.168.1.2", "127.0.0.1.example.com", "::ffff:10.0.0.1"].some(isLoopback),
    ).toBe(false);
    const noAuth = await startServer({ disabledCommands: ["AUTH", "STARTTLS"] });
    const results = await sendAll(`smtp://crm%40shop.example:secret@127.0.0.1:${noAuth.port}`, [message(1)]);
    expect(results).toMatchObject([
      { status: "retry", countsAsError: true, details: expect.stringMatching(/offers no login \(AUTH\)/) },
    ]);
    expect(noAuth.received).toHaveLength(0);
  });

  it("uses TLS from the start on smtps://, and AUTH LOGIN when it is the one offered", async () => {
    const server = await startServer({ key, cert, onAuth, secure: true, authMethods: ["LOGIN"] });
    const results = await sendAll(`smtps://crm%40shop.example:p%40ss%3Aw%2Frd@localhost:${server.port}`, [message(1)], {
      url: "",
      client: { tls: { ca: cert } },
    });
    expect(results).toMatchObject([{ status: "accepted" }]);
    expect(server.received).toMatchObject([{ secure: true, user: "crm" }]);
  });

  it("does not send to a server whose certificate is not trusted, nor with a wrong password: retried, counted as errors", async () => {
    const server = await startServer({ key, cert, onAuth });
    const untrusted = await sendAll(`smtp://localhost:${server.port}`, [message(1), message(2)]);
    expect(untrusted).toMatchObject([
      { status: "retry", countsAsError: true, details: expect.stringMatching(/STARTTLS failed: .*certificate/i) },
      { status: "retry", countsAsError: true },
    ]);
    const wrong = await sendAll(`smtp://crm%40shop.example:nope@localhost:${server.port}`, [message(3)], {
      url: "",
      client: { tls: { ca: cert } },
    });
    expect(wrong).toMatchObject([
      { status: "retry", countsAsError: true, details: expect.stringMatching(/^535 .*Invalid username or password/) },
    ]);
    expect(server.received).toHaveLength(0);
  });
});

describe("the message", () => {
  it("dot-stuffs a line that starts with '.', and a line longer than 998 arrives whole in lines SMTP allows", async () => {
    const server = await startServer({ disabledCommands: ["STARTTLS"] });
    const long = `${"word ".repeat(300)}and${"x".repeat(1500)}`;
    const text = `Hi Asha,\n.\n.hidden line\n..two dots\n${long}\nBye`;
    const results = await sendAll(`smtp://127.0.0.1:${server.port}`, [
      message(1, { text, html: `<p>${"y".repeat(2500)}</p>\n.<p>dot</p>` }),
    ]);
    expect(results).toMatchObject([{ status: "accepted" }]);
    const raw = server.received[0]!.raw;
    for (const line of raw.split("\r\n")) expect(line.length).toBeLessThanOrEqual(998);
    const parsed = await simpleParser(raw);
    expect(parsed.text?.replace(/\r\n/g, "\n").trimEnd()).toBe(text);
    expect(parsed.html).toBe(`<p>${"y".repeat(2500)}</p>\n.<p>dot</p>`);
    expect(dotStuffed(".a\r\nb\r\n.c\r\n")).toBe("..a\r\nb\r\n..c\r\n.\r\n");
  });

  it("encodes names and subjects that are not ASCII, long ones too, and quotes ASCII names with specials; decoded as typed", async () => {
    const server = await startServer({ disabledCommands: ["STARTTLS"] });
    const subject = "दिवाली की शुभकामनाएँ, प्रिया! आपके लिए 20% की छूट, रविवार तक — Rao Textiles";
    const results = await sendAll(`smtp://127.0.0.1:${server.port}`, [
      message(1, {
        subject,
        to: { name: 'Priyā "Pia" Śarmā', email: "priya@example.com", phone: "" },
        from: { name: "Rao Textiles, Jaipur (est. 1962)", address: "news@shop.example", replyTo: null },
        text: "नमस्ते प्रिया, दिवाली की शुभकामनाएँ! ₹500 की छूट।",
        html: "<p>नमस्ते प्रिया — ₹500 off</p>",
      }),
    ]);
    expect(results).toMatchObject([{ status: "accepted" }]);
    const raw = server.received[0]!.raw;
    const head = raw.slice(0, raw.indexOf("\r\n\r\n"));
    expect(/^[\x20-\x7e\r\n\t]*$/.test(raw)).toBe(true);
    for (const line of head.split("\r\n")) expect(line.length).toBeLessThanOrEqual(78);
    const parsed = await simpleParser(raw);
    expect(parsed.subject).toBe(subject);
    expect(parsed.from?.value).toEqual([{ name: "Rao Textiles, Jaipur (est. 1962)", address: "news@shop.example" }]);
    const to = Array.isArray(parsed.to) ? parsed.to[0] : parsed.to;
    expect(to?.value).toEqual([{ name: 'Priyā "Pia" Śarmā', address: "priya@example.com" }]);
    expect(parsed.text?.trim()).toBe("नमस्ते प्रिया, दिवाली की शुभकामनाएँ! ₹500 की छूट।");
    expect(parsed.html).toBe("<p>नमस्ते प्रिया — ₹500 off</p>");
  });
});

describe("answers in several lines", () => {
  it("reads a multi-line refusal whole: its enhanced code decides (550-5.1.1 … bounces)", async () => {
    // Gmail answers an unknown mailbox in several lines; smtp-server writes one, so this relay is
    // a script of what Gmail says, over a real socket.
    const server = net.createServer((socket) => {
      let buffer = "";
      let inData = false;
      let recipients = 0;
      socket.write("220 mx.example ESMTP\r\n");
      socket.on("data", (chunk) => {
        buffer += chunk.toString("latin1");
        for (;;) {
          if (inData) {
            const end = buffer.indexOf("\r\n.\r\n");
            if (end < 0) return;
            buffer = buffer.slice(end + 5);
            inData = false;
            socket.write("250-2.0.0 OK\r\n250 2.0.0 queued as 42\r\n");
            continue;
          }
          const end = buffer.indexOf("\r\n");
          if (end < 0) return;
          const line = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          if (line.startsWith("EHLO")) socket.write("250-mx.example\r\n250-PIPELINING\r\n250 ENHANCEDSTATUSCODES\r\n");
          else if (line.startsWith("MAIL") || line.startsWith("RSET")) {
            recipients = 0;
            socket.write("250 2.1.0 OK\r\n");
          } else if (line.startsWith("RCPT") && line.includes("<r2@")) {
            socket.write(
              "550-5.1.1 The email account that you tried to reach does not exist. Please try\r\n" +
                "550-5.1.1 double-checking the recipient's email address for typos or\r\n" +
                "550 5.1.1 unnecessary spaces. https://support.example/mail/?p=NoSuchUser\r\n",
            );
          } else if (line.startsWith("RCPT")) {
            recipients += 1;
            socket.write("250 2.1.5 OK\r\n");
          } else if (line === "DATA" && recipients === 0) socket.write("554 5.5.1 No valid recipients\r\n");
          else if (line === "DATA") {
            socket.write("354 Go ahead\r\n");
            inData = true;
          } else if (line === "QUIT") socket.end("221 2.0.0 closing\r\n");
          else socket.write("502 5.5.1 Unrecognized command\r\n");
        }
      });
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    stops.push(() => new Promise<void>((resolve) => server.close(() => resolve())));
    const port = (server.address() as AddressInfo).port;
    const results = await sendAll(`smtp://127.0.0.1:${port}`, [message(1), message(2), message(3)], {
      url: "",
      maxConnections: 1,
    });
    expect(results.map((r) => r.status)).toEqual(["accepted", "bounced", "accepted"]);
    expect(results[0]).toMatchObject({ details: "250-2.0.0 OK\n250 2.0.0 queued as 42" });
    expect(results[1]).toMatchObject({
      details: expect.stringMatching(
        /^550-5\.1\.1 The email account .*\n550-5\.1\.1 .*\n550 5\.1\.1 unnecessary spaces/,
      ),
    });
  });
});

describe("a server that drops the connection in the middle of a batch", () => {
  it("retries the messages whose answer never came, sends the rest on new connections, and loses nothing", async () => {
    const server = await startServer({ disabledCommands: ["STARTTLS"] });
    const relay = await startRelay(server.port, { cutAfterMessages: 7 });
    const batch = Array.from({ length: 30 }, (_, i) => message(i + 1));
    const answered: ChannelResult[] = [];
    const channel = smtpChannel({ url: `smtp://127.0.0.1:${relay.port}`, maxConnections: 3 });
    const results = await channel.send(batch, { proceed: () => true, answered: (r) => answered.push(r) });
    await channel.close();
    // Each answer reached the engine as it came, once.
    expect(answered.map((r) => r.key).sort()).toEqual(results.map((r) => r.key).sort());
    const retried = results.filter((r) => r.status === "retry");
    const accepted = results.filter((r) => r.status === "accepted");
    expect(retried.length).toBeGreaterThanOrEqual(1);
    expect(retried.length).toBeLessThanOrEqual(3);
    for (const r of retried)
      expect(r).toMatchObject({ countsAsError: true, details: expect.stringMatching(/closed|ECONNRESET/i) });
    expect(accepted.length + retried.length).toBe(30);
    // Every accepted message arrived once; the retried ones go again, and then every one is there.
    const arrivedIds = () => server.received.map((m) => /^Message-ID: <(\w+)@/m.exec(m.raw)?.[1]);
    for (const r of accepted) expect(arrivedIds().filter((id) => id === r.key)).toHaveLength(1);
    const again = await sendAll(
      `smtp://127.0.0.1:${server.port}`,
      batch.filter((m) => retried.some((r) => r.key === m.key)),
    );
    expect(again.every((r) => r.status === "accepted")).toBe(true);
    expect(new Set(arrivedIds())).toEqual(new Set(batch.map((m) => m.key)));
  });
});

/** The settings' defaults, as getEnv gives them, with what a test sets. */
function settings(fields: Partial<Parameters<typeof smtpClientSettings>[0]>): Parameters<typeof smtpClientSettings>[0] {
  return {
    SMTP_URL: undefined,
    SMTP_EHLO_NAME: undefined,
    SMTP_REQUIRE_TLS: undefined,
    SMTP_TLS_CA_FILE: undefined,
    SMTP_DATA_TIMEOUT_SECONDS: 600,
    PUBLIC_URL: undefined,
    mailFrom: { name: "Shop", address: "news@shop.example" },
    ...fields,
  };
}

/**
 * A hand-written SMTP server on a loopback port (for what smtp-server will not do): it answers each
 * command with `answer(line)`, and after STARTTLS's 220 carries on over TLS with `tlsOptions`.
 */
async function startRawServer(options: {
  greeting?: (socket: net.Socket) => void;
  answer?: (line: string) => string;
  tlsOptions?: tls.TlsOptions;
}) {
  const received: string[] = [];
  const sockets = new Set<net.Socket>();
  const serve = (socket: net.Socket, secure: boolean) => {
    let buffer = "";
    let inData = false;
    let data = "";
    socket.setEncoding("latin1");
    socket.on("error", () => {});
    socket.on("data", (chunk: string) => {
      buffer += chunk;
      let end: number;
      while ((end = buffer.indexOf("\r\n")) >= 0) {
        const line = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        if (inData) {
          if (line === ".") {
            inData = false;
            received.push(data);
            data = "";
            socket.write("250 2.0.0 Ok: queued\r\n");
          } else data += `${line}\r\n`;
          continue;
        }
        const verb = line.slice(0, 4).toUpperCase();
        if (verb === "STAR" && !secure && options.tlsOptions) {
          socket.removeAllListeners("data");
          // 220, and junk pipelined after it in the same write, in clear (RFC 3207 4.2).
          socket.write("220 2.0.0 Ready to start TLS\r\n250-injected.example\r\n250 AUTH PLAIN\r\n");
          const secured = new tls.TLSSocket(socket, { isServer: true, ...options.tlsOptions });
          serve(secured, true);
          return;
        }
        if (verb === "DATA") {
          inData = true;
          socket.write("354 End data with <CR><LF>.<CR><LF>\r\n");
        } else if (verb === "QUIT") socket.end("221 2.0.0 Bye\r\n");
        else socket.write(`${options.answer?.(line) ?? "250 2.0.0 Ok"}\r\n`);
      }
    });
  };
  const server = net.createServer((socket) => {
    sockets.add(socket);
    if (options.greeting) options.greeting(socket);
    else socket.write("220 raw.example ESMTP\r\n");
    serve(socket, false);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  stops.push(async () => {
    for (const s of sockets) s.destroy();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });
  return { port: (server.address() as AddressInfo).port, received };
}

describe("TLS required, and certificates", () => {
  const { key, cert } = selfSignedCertificate();

  it("SMTP_REQUIRE_TLS is on for a relay elsewhere, off on this machine; on, a relay without STARTTLS gets nothing, with what to set", async () => {
    expect(smtpClientSettings(settings({ SMTP_URL: "smtp://mail.example.com:587" })).requireTls).toBe(true);
    expect(smtpClientSettings(settings({ SMTP_URL: "smtp://127.0.0.1:25" })).requireTls).toBe(false);
    expect(
      smtpClientSettings(settings({ SMTP_URL: "smtp://mail.example.com", SMTP_REQUIRE_TLS: false })).requireTls,
    ).toBe(false);
    const clear = await startServer({ disabledCommands: ["STARTTLS"] });
    const results = await sendAll(`smtp://127.0.0.1:${clear.port}`, [message(1), message(2)], {
      url: "",
      client: smtpClientSettings(settings({ SMTP_URL: `smtp://127.0.0.1:${clear.port}`, SMTP_REQUIRE_TLS: true })),
    });
    expect(results).toMatchObject([
      {
        status: "retry",
        countsAsError: true,
        details: expect.stringMatching(
          /offers no STARTTLS, so mail would travel in clear text.*SMTP_REQUIRE_TLS=false/,
        ),
      },
      { status: "retry", countsAsError: true },
    ]);
    expect(clear.received).toHaveLength(0);
  });

  it("a relay whose certificate a private CA signed: refused, saying to set SMTP_TLS_CA_FILE; with it set, sent over TLS", async () => {
    const server = await startServer({ key, cert });
    const url = `smtp://localhost:${server.port}`;
    const untrusted = await sendAll(url, [message(1)], {
      url: "",
      client: smtpClientSettings(settings({ SMTP_URL: url })),
    });
    expect(untrusted).toMatchObject([{ status: "retry", details: expect.stringMatching(/set SMTP_TLS_CA_FILE/) }]);
    const dir = mkdtempSync(path.join(tmpdir(), "crm-smtp-ca-"));
    stops.push(async () => rmSync(dir, { recursive: true, force: true }));
    const caFile = path.join(dir, "ca.pem");
    writeFileSync(caFile, cert);
    const trusted = await sendAll(url, [message(2)], {
      url: "",
      client: smtpClientSettings(settings({ SMTP_URL: url, SMTP_TLS_CA_FILE: caFile })),
    });
    expect(trusted).toMatchObject([{ status: "accepted" }]);
    expect(server.received).toMatchObject([{ to: "r2@example.com", secure: true }]);
  });

  it("throws away what the server pipelined in clear after STARTTLS's 220 (RFC 3207 4.2), and sends over TLS", async () => {
    const server = await startRawServer({
      answer: (line) => (line.startsWith("EHLO") ? "250-raw.example\r\n250 STARTTLS" : "250 2.0.0 Ok"),
      tlsOptions: { key, cert },
    });
    const results = await sendAll(`smtp://localhost:${server.port}`, [message(1)], {
      url: "",
      client: { tls: { ca: cert } },
    });
    expect(results).toMatchObject([{ status: "accepted", details: expect.stringMatching(/^250 2\.0\.0 Ok: queued/) }]);
    expect(server.received).toHaveLength(1);
  });
});

describe("EHLO, AUTH and the answers read", () => {
  it("says EHLO with SMTP_EHLO_NAME, else PUBLIC_URL's host, else MAIL_FROM's domain; never a bracketed loopback address", async () => {
    expect(ehloName(settings({ SMTP_EHLO_NAME: "mta.shop.example", PUBLIC_URL: "https://crm.shop.example" }))).toBe(
      "mta.shop.example",
    );
    expect(ehloName(settings({ PUBLIC_URL: "https://crm.shop.example/app" }))).toBe("crm.shop.example");
    for (const publicUrl of ["http://localhost:3000", "http://10.1.2.3:3000", "http://[::1]:3000", "http://crm:3000"]) {
      expect(ehloName(settings({ PUBLIC_URL: publicUrl })), publicUrl).toBe("shop.example");
    }
    const names: string[] = [];
    const server = await startServer({
      disabledCommands: ["STARTTLS"],
      onMailFrom(_address, session, callback) {
        names.push(session.hostNameAppearsAs);
        callback();
      },
    });
    const url = `smtp://127.0.0.1:${server.port}`;
    const client = smtpClientSettings(settings({ SMTP_URL: url, PUBLIC_URL: "http://localhost:3000" }));
    expect(await sendAll(url, [message(1)], { url: "", client })).toMatchObject([{ status: "accepted" }]);
    expect(names).toEqual(["shop.example"]);
  });

  it("logs in only with a mechanism the relay offered: one that offers neither PLAIN nor LOGIN is told so, and gets no password", async () => {
    let tried = 0;
    const server = await startServer({
      disabledCommands: ["STARTTLS"],
      authMethods: ["CRAM-MD5"],
      onAuth(_auth, _session, callback) {
        tried += 1;
        callback(new Error("no"));
      },
    });
    const results = await sendAll(`smtp://crm:secret@127.0.0.1:${server.port}`, [message(1)]);
    expect(results).toMatchObject([
      {
        status: "retry",
        countsAsError: true,
        details: expect.stringMatching(/offers AUTH CRAM-MD5; this product logs in with PLAIN or LOGIN only/),
      },
    ]);
    expect(tried).toBe(0);
    expect(server.received).toHaveLength(0);
  });

  it("a server that sends a line without end is an error at once, not a buffer that grows", async () => {
    const server = await startRawServer({
      greeting: (socket) => {
        const chunk = "x".repeat(64 * 1024);
        const timer = setInterval(() => socket.writable && socket.write(chunk), 5);
        socket.on("close", () => clearInterval(timer));
        socket.write("220-");
      },
    });
    const started = Date.now();
    const results = await sendAll(`smtp://127.0.0.1:${server.port}`, [message(1)], {
      url: "",
      client: { greetingTimeoutMs: 5000 },
    });
    expect(results).toMatchObject([
      { status: "retry", details: expect.stringMatching(new RegExp(`a line longer than ${MAX_LINE} characters`)) },
    ]);
    expect(Date.now() - started).toBeLessThan(2000);
  });
});

describe("addresses that are not ASCII", () => {
  it("are not sent (no SMTPUTF8, no broken signature): the row fails saying why, and the rest of the batch goes", async () => {
    const server = await startServer({ disabledCommands: ["STARTTLS"] });
    const results = await sendAll(`smtp://127.0.0.1:${server.port}`, [
      message(1, { to: { name: "Jöhn", email: "jöhn@example.com", phone: "" } }),
      message(2, { to: { name: "Asha", email: "asha@exämple.com", phone: "" } }),
      message(3),
    ]);
    expect(results).toMatchObject([
      { status: "failed", details: expect.stringMatching(/^Not sent: jöhn@example\.com has characters outside ASCII/) },
      { status: "failed", details: expect.stringMatching(/outside ASCII/) },
      { status: "accepted" },
    ]);
    expect(server.received.map((r) => r.to)).toEqual(["r3@example.com"]);
  });
});
