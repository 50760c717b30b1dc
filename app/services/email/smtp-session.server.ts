// Opening an SMTP connection (the SMTP client's first part, smtp-client.server.ts): from SMTP_URL
// to a connection ready for messages.
// - connects with timeouts for the connection, the greeting and every answer after it;
// - EHLO (HELO when refused), STARTTLS when the server offers it on smtp:// and EHLO again, TLS
//   from the start on smtps://; certificates are checked (the `tls` option can add a CA); with
//   `requireTls` (on for every relay not on this machine) nothing goes in clear text: a relay that
//   offers no STARTTLS, or whose STARTTLS fails, gets no message; what was read before the TLS
//   handshake is thrown away (RFC 3207 4.2: nothing a server pipelined in clear counts after it);
// - AUTH with a mechanism the server offered: PLAIN, else LOGIN (with the URL's user and password,
//   percent-decoded); a server that offers neither is refused with a message saying so.
import net from "node:net";
import os from "node:os";
import tls from "node:tls";
import { refused, SmtpError, SmtpWire, type SmtpReply } from "./smtp-wire.server";

export type SmtpClientOptions = {
  /** smtp://user:password@host:port (STARTTLS when offered) or smtps://… (TLS from the start). */
  url: string;
  /** The name said in EHLO (default: this host's name when it has a dot, else the address the
   * connection leaves from as an address literal). */
  clientName?: string;
  /** Extra TLS settings (a CA to trust, say). */
  tls?: tls.ConnectionOptions;
  connectTimeoutMs?: number;
  greetingTimeoutMs?: number;
  /** How long an answer may take once connected (all but the answer to a message's end). */
  socketTimeoutMs?: number;
  /** How long the answer to a message's final dot may take (RFC 5321 4.5.3.2.6: 10 minutes). */
  dataTimeoutMs?: number;
  /**
   * Send nothing in clear text: a relay that offers no STARTTLS on smtp://, or whose STARTTLS
   * fails, gets no message (default: on unless the relay is on this machine).
   */
  requireTls?: boolean;
};

/** Whether the host is this machine (a relay a password may reach without TLS). */
export function isLoopback(host: string): boolean {
  const h = host.replace(/^\[|\]$/g, "").toLowerCase();
  return h === "localhost" || h === "::1" || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(h);
}

/** What to set when a relay's certificate is not trusted. */
const TLS_HINT = "if the relay's certificate is signed by a private CA, set SMTP_TLS_CA_FILE to that CA's PEM file";

export type SmtpTarget = { host: string; port: number; secure: boolean; user: string; password: string };

export function parseSmtpUrl(url: string): SmtpTarget {
  const u = new URL(url);
  const secure = u.protocol === "smtps:";
  if (!secure && u.protocol !== "smtp:") throw new Error(`Not an SMTP URL: ${u.protocol}`);
  return {
    host: u.hostname.replace(/^\[(.*)\]$/, "$1"),
    port: u.port ? Number(u.port) : secure ? 465 : 587,
    secure,
    user: decodeURIComponent(u.username),
    password: decodeURIComponent(u.password),
  };
}

/** A connection from its greeting to its login; smtp-client.server.ts sends the messages on it. */
export class SmtpSession extends SmtpWire {
  /** EHLO's keywords, upper case (PIPELINING, STARTTLS, AUTH, …), and the AUTH mechanisms. */
  readonly features = new Set<string>();
  readonly authMechanisms = new Set<string>();

  protected constructor(
    socket: net.Socket,
    protected readonly options: SmtpClientOptions,
    private readonly target: SmtpTarget,
  ) {
    super(socket);
  }

  get pipelining(): boolean {
    return this.features.has("PIPELINING");
  }

  /** Reads the greeting, says EHLO, upgrades to TLS when offered and logs in. */
  protected async start() {
    const greetingTimeout = this.options.greetingTimeoutMs ?? 10_000;
    const timer = setTimeout(
      () => this.destroy(new SmtpError("No greeting from the server", "ETIMEDOUT")),
      greetingTimeout,
    );
    let greeting: SmtpReply;
    try {
      greeting = await this.reply();
    } finally {
      clearTimeout(timer);
    }
    this.socket.setTimeout(this.socketTimeout);
    if (greeting.code !== 220) throw refused(greeting, "ECONNECTION");
    await this.hello();
    let encrypted = this.target.secure;
    const requireTls = this.options.requireTls ?? !isLoopback(this.target.host);
    if (!encrypted && this.features.has("STARTTLS")) {
      const answered = this.reply(true);
      this.write("STARTTLS\r\n");
      const answer = await answered;
      if (answer.code !== 220) {
        throw new SmtpError(
          `${this.target.host} refused STARTTLS (${answer.text.slice(0, 200)}): nothing is sent in clear text while SMTP_REQUIRE_TLS is on`,
          "ETLS",
          answer.code,
          answer.text,
        );
      }
      await this.upgrade();
      await this.hello();
      encrypted = true;
    }
    if (!encrypted && requireTls) {
      throw new SmtpError(
        `${this.target.host} offers no STARTTLS, so mail would travel in clear text: use smtps://, turn STARTTLS on at the relay, or set SMTP_REQUIRE_TLS=false for a relay on a network you trust`,
        "ETLS",
      );
    }
    if (this.target.user) {
      // A password never crosses the network in clear text: a relay elsewhere that offers no
      // STARTTLS (or whose offer was stripped on the way) gets no login. On this machine it may.
      if (!encrypted && !isLoopback(this.target.host))
        throw new SmtpError(
          `${this.target.host} offers no STARTTLS, so the password in SMTP_URL would travel unencrypted: use smtps:// or a relay that offers STARTTLS`,
          "ETLS",
        );
      if (this.authMechanisms.size === 0)
        throw new SmtpError(
          `${this.target.host} offers no login (AUTH): remove the user and password from SMTP_URL, or check the relay's settings`,
          "EAUTH",
        );
      await this.login();
    }
  }

  protected get socketTimeout(): number {
    return this.options.socketTimeoutMs ?? 30_000;
  }

  private async hello() {
    const name = this.options.clientName ?? clientName(this.socket);
    let answer = await this.command(`EHLO ${name}`);
    this.features.clear();
    this.authMechanisms.clear();
    if (answer.code !== 250) {
      answer = await this.command(`HELO ${name}`);
      if (answer.code !== 250) throw refused(answer, "EPROTOCOL");
      return;
    }
    for (const line of answer.text.split("\n").slice(1)) {
      const words = line
        .slice(4)
        .trim()
        .toUpperCase()
        .split(/[\s=]+/);
      this.features.add(words[0]);
      if (words[0] === "AUTH") for (const m of words.slice(1)) this.authMechanisms.add(m);
    }
  }

  private async upgrade() {
    const plain = this.socket;
    plain.removeListener("data", this.onData);
    plain.removeAllListeners("close");
    plain.removeAllListeners("timeout");
    plain.setTimeout(0);
    const secured = await new Promise<tls.TLSSocket>((resolve, reject) => {
      const s = tls.connect({
        socket: plain,
        // The name the certificate is checked against: without it Node checks "localhost", and a
        // relay given by its address (a certificate naming IP 127.0.0.1) would be refused.
        host: this.target.host,
        servername: net.isIP(this.target.host) ? undefined : this.target.host,
        ...this.options.tls,
      });
      // A handshake that never ends (or a connection gone under it) is an error, not a wait forever.
      const late = () => s.destroy(new Error("no TLS handshake within the answer timeout"));
      const closed = () => reject(new SmtpError("STARTTLS failed: the connection closed", "ETLS"));
      s.setTimeout(this.socketTimeout, late);
      s.once("close", closed);
      s.once("secureConnect", () => {
        s.setTimeout(0);
        s.removeListener("timeout", late);
        s.removeListener("close", closed);
        resolve(s);
      });
      s.once("error", (error) => reject(new SmtpError(`STARTTLS failed: ${tlsFailure(error)}`, "ETLS")));
    });
    this.socket = secured;
    this.attach(secured);
    secured.setTimeout(this.socketTimeout);
  }

  private async login() {
    const { user, password } = this.target;
    if (!this.authMechanisms.has("PLAIN") && !this.authMechanisms.has("LOGIN")) {
      throw new SmtpError(
        `${this.target.host} offers AUTH ${[...this.authMechanisms].join(" ")}; this product logs in with PLAIN or LOGIN only: enable one of them at the relay`,
        "EAUTH",
      );
    }
    if (this.authMechanisms.has("PLAIN")) {
      const answer = await this.command(
        `AUTH PLAIN ${Buffer.from(`\u0000${user}\u0000${password}`).toString("base64")}`,
      );
      if (answer.code !== 235) throw refused(answer, "EAUTH");
      return;
    }
    let answer = await this.command("AUTH LOGIN");
    if (answer.code === 334) answer = await this.command(Buffer.from(user).toString("base64"));
    if (answer.code === 334) answer = await this.command(Buffer.from(password).toString("base64"));
    if (answer.code !== 235) throw refused(answer, "EAUTH");
  }
}

/**
 * The EHLO name when none is set: this host's name when it has a dot (a name the relay can look
 * up), else the address the connection leaves from as an address literal (RFC 5321 4.1.3).
 */
function clientName(socket: net.Socket): string {
  const host = os.hostname();
  if (host.includes(".")) return host;
  const address = (socket.localAddress ?? "").replace(/^::ffff:/, "");
  if (net.isIPv4(address)) return `[${address}]`;
  if (net.isIPv6(address)) return `[IPv6:${address}]`;
  return "localhost";
}

/** A TLS failure in words, with what to set when the certificate is not trusted. */
function tlsFailure(error: NodeJS.ErrnoException): string {
  const untrusted = /CERT|SELF_SIGNED|UNABLE_TO|ISSUER|ALTNAME/i.test(`${error.code ?? ""} ${error.message}`);
  return untrusted ? `${error.message} (${TLS_HINT})` : error.message;
}

/** The socket to the relay (TLS from the start on smtps://), within the connection timeout. */
export function connect(target: SmtpTarget, options: SmtpClientOptions): Promise<net.Socket> {
  return new Promise((resolve, reject) => {
    const timeoutMs = options.connectTimeoutMs ?? 10_000;
    const socket = target.secure
      ? tls.connect({
          host: target.host,
          port: target.port,
          servername: net.isIP(target.host) ? undefined : target.host,
          ...options.tls,
        })
      : net.connect({ host: target.host, port: target.port });
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new SmtpError(`Could not connect to ${target.host}:${target.port} within ${timeoutMs} ms`, "ETIMEDOUT"));
    }, timeoutMs);
    socket.once(target.secure ? "secureConnect" : "connect", () => {
      clearTimeout(timer);
      socket.removeAllListeners("error");
      socket.setNoDelay(true);
      resolve(socket);
    });
    socket.once("error", (error: NodeJS.ErrnoException) => {
      clearTimeout(timer);
      socket.destroy();
      const code = target.secure && !error.code?.startsWith("E") ? "ETLS" : "ECONNECTION";
      const text = code === "ETLS" ? tlsFailure(error) : error.message;
      reject(new SmtpError(`Could not connect to ${target.host}:${target.port}: ${text}`, code));
    });
  });
}
