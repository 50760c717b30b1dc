// The product's SMTP client's transaction (smtp-client.server.ts) and message builder
// (mime.server.ts) through the SMTP channel, against real SMTP server processes (smtp-server on
// loopback ports, tests/helpers/smtp-servers.ts): PIPELINING on and off (seen at the server's side
// of a loopback relay that records what each write carried), dot-stuffing, a line longer than SMTP
// allows, names and subjects that are not ASCII decoded by mailparser as typed, addresses that are
// not ASCII, a relay that answers in several lines (as Gmail does), and a server that drops the
// connection in the middle of a batch: nothing is lost. Opening the connection (STARTTLS, TLS,
// AUTH, EHLO): smtp-session.server.test.ts.
import net, { type AddressInfo } from "node:net";
import { simpleParser } from "mailparser";
import type { SMTPServerOptions } from "smtp-server";
import { afterEach, describe, expect, it } from "vitest";
import type { ChannelResult } from "~/services/sending/channel.server";
import { smtpChannel } from "~/services/sending/smtp-channel.server";
import { dotStuffed } from "./smtp-client.server";
import { message, sendAll, startRelay, startServer, stops, stopServers } from "../../../tests/helpers/smtp-servers";

afterEach(stopServers);

describe("PIPELINING", () => {
  const refuseSome: Partial<SMTPServerOptions> = {
    onRcptTo(address, _session, callback) {
      if (address.address.startsWith("r2@")) {
        return callback(Object.assign(new Error("5.1.1 No such mailbox"), { responseCode: 550 }));
      }
      callback();
    },
  };
  /** Each write that carried an envelope or a text, as the server's side read it, the text cut to its Message-ID. */
  const writesOf = (reads: string[]) =>
    reads
      .filter((r) => /MAIL FROM|Message-ID/.test(r))
      .map((r) => r.replace(/[^]*Message-ID: <(\w+)@[^]*\r\n\.\r\n/, "<$1>\r\n.\r\n"));
  /** Message n's envelope, and its text and end as writesOf() cuts them. */
  const envelope = (n: number) => `MAIL FROM:<news@shop.example>\r\nRCPT TO:<r${n}@example.com>\r\nDATA\r\n`;
  const text = (n: number) => `<${message(n).key}>\r\n.\r\n`;

  it("when offered, MAIL FROM, RCPT TO and DATA go in one write, the message in another; a refused recipient is followed by RSET", async () => {
    const server = await startServer({ ...refuseSome, disabledCommands: ["STARTTLS"] });
    const relay = await startRelay(server.port);
    const results = await sendAll(`smtp://127.0.0.1:${relay.port}`, [message(1), message(2), message(3), message(4)], {
      url: "",
      maxConnections: 1,
    });
    expect(results.map((r) => r.status)).toEqual(["accepted", "bounced", "accepted", "accepted"]);
    expect(server.received.map((m) => m.to)).toEqual(["r1@example.com", "r3@example.com", "r4@example.com"]);
    expect(writesOf(relay.reads)).toEqual([
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
    expect(writesOf(relay.reads)).toEqual([
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
