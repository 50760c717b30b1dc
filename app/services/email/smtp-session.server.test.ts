// Opening an SMTP connection (smtp-session.server.ts, with the wire that reads the answers,
// smtp-wire.server.ts) through the SMTP channel, against real SMTP server processes on loopback
// ports (tests/helpers/smtp-servers.ts): STARTTLS and TLS from the start with a certificate made
// for the test, AUTH PLAIN and LOGIN and a relay that offers neither, SMTP_REQUIRE_TLS, a private
// CA (SMTP_TLS_CA_FILE), what a server pipelines in clear after STARTTLS, the EHLO name, and a
// server that sends a line without end.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { SMTPServerOptions } from "smtp-server";
import { afterEach, describe, expect, it } from "vitest";
import { ehloName, smtpClientSettings } from "~/services/sending/smtp-channel.server";
import { isLoopback } from "./smtp-session.server";
import { MAX_LINE } from "./smtp-wire.server";
import { selfSignedCertificate } from "../../../tests/helpers/certificate";
import {
  message,
  sendAll,
  settings,
  startRawServer,
  startServer,
  stops,
  stopServers,
} from "../../../tests/helpers/smtp-servers";

afterEach(stopServers);

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
