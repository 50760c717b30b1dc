// The SMTP servers the SMTP client's tests send to (app/services/email/smtp-client.server.test.ts
// and smtp-session.server.test.ts), each on a loopback port and stopped after each test by
// `stopServers`: a real smtp-server that keeps what it receives, a relay between the client and it
// that records what each write carried (and can cut the connections), and a hand-written server
// for what smtp-server will not do; with the messages and the settings the tests send with.
import net, { type AddressInfo } from "node:net";
import tls from "node:tls";
import { SMTPServer, type SMTPServerOptions } from "smtp-server";
import type { OutgoingMessage } from "~/services/sending/channel.server";
import { smtpChannel, type smtpClientSettings } from "~/services/sending/smtp-channel.server";

type Received = { to: string; raw: string; secure: boolean; user: string | null };

/** What stops the servers a test started, run (last first) by `stopServers` after each test. */
export const stops: (() => Promise<void>)[] = [];

export async function stopServers() {
  for (const stop of stops.splice(0).reverse()) await stop();
}

/** A real SMTP server on a loopback port that keeps what it receives. */
export async function startServer(options: Partial<SMTPServerOptions> = {}) {
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
export async function startRelay(target: number, options: { cutAfterMessages?: number } = {}) {
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

export function message(n: number, fields: Partial<OutgoingMessage> = {}): OutgoingMessage {
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

export async function sendAll(
  url: string,
  batch: OutgoingMessage[],
  extra: Parameters<typeof smtpChannel>[0] = { url },
) {
  const channel = smtpChannel({ ...extra, url });
  try {
    return await channel.send(batch);
  } finally {
    await channel.close();
  }
}

/** The settings' defaults, as getEnv gives them, with what a test sets. */
export function settings(
  fields: Partial<Parameters<typeof smtpClientSettings>[0]>,
): Parameters<typeof smtpClientSettings>[0] {
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
export async function startRawServer(options: {
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
