// A small SMTP client (RFC 5321) for campaign mail: one connection to the relay SMTP_URL names,
// over which messages go one after another (the SMTP channel keeps a pool of these). What it does:
// - connects with timeouts for the connection, the greeting and every answer after it;
// - EHLO (HELO when refused), STARTTLS when the server offers it on smtp:// and EHLO again, TLS
//   from the start on smtps://; certificates are checked (the `tls` option can add a CA); with
//   `requireTls` (on for every relay not on this machine) nothing goes in clear text: a relay that
//   offers no STARTTLS, or whose STARTTLS fails, gets no message; what was read before the TLS
//   handshake is thrown away (RFC 3207 4.2: nothing a server pipelined in clear counts after it);
// - AUTH with a mechanism the server offered: PLAIN, else LOGIN (with the URL's user and password,
//   percent-decoded); a server that offers neither is refused with a message saying so;
// - PIPELINING (RFC 2920) when offered: MAIL FROM, RCPT TO and DATA (after RSET when needed) go
//   in one write and their answers are read in order, in the same write as the end of the message
//   before when the caller has the next one ready (`finish(message, then)`); otherwise one command
//   at a time;
// - the message in one write after the 354, dot-stuffed, ended by CRLF.CRLF;
// - multi-line answers ("250-..." up to "250 ..."), kept whole ("\n" between lines) so an enhanced
//   status code ("550 5.1.1 ...") reaches smtpOutcome as the server said it; a line longer than
//   MAX_LINE or an answer of more than MAX_LINES lines is a protocol error, not memory without end;
// - the answer to a message's final dot is awaited `dataTimeoutMs` (RFC 5321 4.5.3.2.6: 10
//   minutes; a relay that scans content answers late), every other answer `socketTimeoutMs`;
// - a write the socket could not take at once (write() false) is followed by nothing more until
//   the socket has drained (queued in order until then);
// - RSET before the next message after one that was refused (the transaction's state is then
//   unknown), QUIT when closed.
// A refusal is an SmtpError with the reply's code and text and where it happened: EENVELOPE (MAIL
// or RCPT, told apart by `command`), EMESSAGE (DATA or the message), EAUTH, ETLS, ECONNECTION,
// ETIMEDOUT, EPROTOCOL.
// Line lengths are the message builder's (mime.server.ts: nothing over 998).
import net from "node:net";
import os from "node:os";
import tls from "node:tls";

export type SmtpErrorCode = "EENVELOPE" | "EMESSAGE" | "EAUTH" | "ETLS" | "ECONNECTION" | "ETIMEDOUT" | "EPROTOCOL";

/** Whether the host is this machine (a relay a password may reach without TLS). */
export function isLoopback(host: string): boolean {
  const h = host.replace(/^\[|\]$/g, "").toLowerCase();
  return h === "localhost" || h === "::1" || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(h);
}

export class SmtpError extends Error {
  override name = "SmtpError";
  constructor(
    message: string,
    readonly code: SmtpErrorCode,
    readonly responseCode?: number,
    readonly response?: string,
    /** The command the refusal answered ("MAIL", "RCPT", "DATA", "." for the message's end). */
    readonly command?: string,
  ) {
    super(message);
  }
}

export type SmtpReply = { code: number; text: string };

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

/** The longest answer line read (RFC 5321 4.5.3.1.5 allows 512 octets) and lines in one answer. */
export const MAX_LINE = 8192;
export const MAX_LINES = 1000;

/** What to set when a relay's certificate is not trusted. */
const TLS_HINT = "if the relay's certificate is signed by a private CA, set SMTP_TLS_CA_FILE to that CA's PEM file";

type Target = { host: string; port: number; secure: boolean; user: string; password: string };

export function parseSmtpUrl(url: string): Target {
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

/** The message as it goes after DATA: lines starting with "." get another, and CRLF.CRLF ends it. */
export function dotStuffed(message: string): string {
  let out = message.charCodeAt(0) === 46 ? `.${message}` : message;
  if (out.includes("\r\n.")) out = out.replace(/\r\n\./g, "\r\n..");
  return out.endsWith("\r\n") ? `${out}.\r\n` : `${out}\r\n.\r\n`;
}

type Waiter = {
  resolve: (reply: SmtpReply) => void;
  reject: (error: SmtpError) => void;
  /** The answer to STARTTLS: whatever was read after it is thrown away, and reading stops. */
  last?: boolean;
};

const REPLY_LINE = /^(\d{3})([ -]|$)/;

export class SmtpConnection {
  /** Messages accepted or refused on this connection. */
  messages = 0;
  /** EHLO's keywords, upper case (PIPELINING, STARTTLS, AUTH, …), and the AUTH mechanisms. */
  readonly features = new Set<string>();
  readonly authMechanisms = new Set<string>();
  private socket: net.Socket;
  private buffer = "";
  private lines: string[] = [];
  private waiters: Waiter[] = [];
  private broken: SmtpError | null = null;
  private dirty = false;
  /** Whether what arrives is read (not between STARTTLS's answer and the TLS handshake). */
  private reading = true;
  /** Writes waiting for the socket to drain, in order. */
  private queued: string[] = [];
  private draining = false;
  private readonly onData = (chunk: string) => this.read(chunk);
  private readonly onDrain = () => this.drained();

  private constructor(
    socket: net.Socket,
    private readonly options: SmtpClientOptions,
    private readonly target: Target,
  ) {
    this.socket = socket;
    this.attach(socket);
  }

  /** Connects, reads the greeting, says EHLO, upgrades to TLS when offered and logs in. */
  static async open(options: SmtpClientOptions): Promise<SmtpConnection> {
    const target = parseSmtpUrl(options.url);
    const socket = await connect(target, options);
    const connection = new SmtpConnection(socket, options, target);
    try {
      await connection.start();
      return connection;
    } catch (error) {
      connection.destroy(error as SmtpError);
      throw error;
    }
  }

  get usable(): boolean {
    return this.broken === null;
  }

  get pipelining(): boolean {
    return this.features.has("PIPELINING");
  }

  private attach(socket: net.Socket) {
    this.reading = true;
    socket.setEncoding("latin1");
    socket.on("data", this.onData);
    socket.on("error", (error) => this.destroy(new SmtpError(error.message, "ECONNECTION")));
    socket.on("close", () => this.destroy(new SmtpError("Connection closed by the server", "ECONNECTION")));
    socket.on("timeout", () => this.destroy(new SmtpError("Timed out waiting for the server's answer", "ETIMEDOUT")));
  }

  private read(chunk: string) {
    if (!this.reading) return;
    this.buffer += chunk;
    let end: number;
    while ((end = this.buffer.indexOf("\n")) >= 0) {
      if (end > MAX_LINE) break;
      const line = this.buffer.slice(0, end).replace(/\r$/, "");
      this.buffer = this.buffer.slice(end + 1);
      const match = REPLY_LINE.exec(line);
      if (!match) {
        this.destroy(new SmtpError(`Not an SMTP answer: ${line.slice(0, 200)}`, "EPROTOCOL"));
        return;
      }
      this.lines.push(line);
      if (match[2] === "-") {
        if (this.lines.length > MAX_LINES) {
          this.destroy(new SmtpError(`The server's answer goes on past ${MAX_LINES} lines`, "EPROTOCOL"));
          return;
        }
        continue;
      }
      const reply = { code: Number(match[1]), text: this.lines.join("\n") };
      this.lines = [];
      const waiter = this.waiters.shift();
      if (waiter?.last) {
        // RFC 3207 4.2: nothing the server sent in clear after this answer is read.
        this.buffer = "";
        this.reading = false;
        waiter.resolve(reply);
        return;
      }
      if (waiter) waiter.resolve(reply);
      else if (reply.code !== 421) {
        this.destroy(new SmtpError(`An answer nothing was asked for: ${reply.text.slice(0, 200)}`, "EPROTOCOL"));
        return;
      } else {
        // 421 unasked: the server is closing the connection.
        this.destroy(new SmtpError(reply.text, "ECONNECTION", reply.code, reply.text));
        return;
      }
    }
    // A line without end (or longer than any answer may be) is an error, not a buffer that grows.
    if (this.buffer.length > MAX_LINE || this.buffer.indexOf("\n") > MAX_LINE) {
      this.destroy(new SmtpError(`The server sent a line longer than ${MAX_LINE} characters`, "EPROTOCOL"));
    }
  }

  /** The next answer (asked for before the command that it answers is written). */
  private reply(last = false): Promise<SmtpReply> {
    if (this.broken) return Promise.reject(this.broken);
    return new Promise((resolve, reject) => this.waiters.push({ resolve, reject, last }));
  }

  /** Writes now, or once the socket has drained what it could not take at once. */
  private write(text: string) {
    if (this.draining) {
      this.queued.push(text);
      return;
    }
    if (!this.socket.write(text)) {
      this.draining = true;
      this.socket.once("drain", this.onDrain);
    }
  }

  private drained() {
    this.draining = false;
    while (this.queued.length > 0 && !this.draining && !this.broken) this.write(this.queued.shift() ?? "");
  }

  /** Whether everything written so far has left for the socket (none waiting for it to drain). */
  get flushed(): boolean {
    return !this.draining && this.queued.length === 0;
  }

  /** Writes a command and reads its answer. */
  private async command(line: string): Promise<SmtpReply> {
    const answer = this.reply();
    this.write(`${line}\r\n`);
    return answer;
  }

  private destroy(error: SmtpError) {
    if (!this.broken) this.broken = error;
    this.queued = [];
    const waiters = this.waiters;
    this.waiters = [];
    for (const w of waiters) w.reject(this.broken);
    this.socket.destroy();
  }

  private async start() {
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

  private get socketTimeout(): number {
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

  /**
   * Sends one message to one recipient: the server's final answer (2xx), or an SmtpError with its
   * refusal. `message` is CRLF text of 7-bit lines; it is dot-stuffed here.
   */
  async send(from: string, to: string, message: string): Promise<SmtpReply> {
    await this.begin(from, to);
    return this.finish(message).final;
  }

  /**
   * Opens a message's transaction: MAIL FROM, RCPT TO and DATA (after RSET when the last envelope
   * was refused), in one write with PIPELINING. Settles at the server's 354, or with its refusal.
   */
  begin(from: string, to: string): Promise<void> {
    if (this.broken) return Promise.reject(this.broken);
    this.messages += 1;
    const commands = this.envelope(from, to);
    if (!this.pipelining) return this.oneByOne(commands);
    const answers = commands.map(() => this.reply());
    this.write(`${commands.join("\r\n")}\r\n`);
    return this.opened(commands, answers);
  }

  /**
   * Sends the message of the open transaction: `final` is its final answer (2xx), or the refusal.
   * With `then` (and PIPELINING), the next message's MAIL FROM, RCPT TO and DATA go in the same
   * write, after the end of this one (RFC 2920 lets commands follow the end of the data): one write
   * a message. `next` is then that message's opening, as `begin` gives it.
   */
  finish(message: string, then?: { from: string; to: string }): { final: Promise<SmtpReply>; next?: Promise<void> } {
    if (this.broken) return { final: Promise.reject(this.broken) };
    // The answer to the end of the message may take the RFC's 10 minutes (a relay that scans the
    // content); the answers after it keep the usual timeout.
    this.socket.setTimeout(this.options.dataTimeoutMs ?? 600_000);
    const final = this.reply().then(
      (answer) => {
        if (!this.broken) this.socket.setTimeout(this.socketTimeout);
        if (answer.code >= 300) throw refused(answer, "EMESSAGE", ".");
        return answer;
      },
      (error: SmtpError) => {
        throw error.code === "ETIMEDOUT"
          ? new SmtpError(
              `No answer to the end of the message within ${Math.round((this.options.dataTimeoutMs ?? 600_000) / 1000)} s`,
              "ETIMEDOUT",
            )
          : error;
      },
    );
    if (!then || !this.pipelining) {
      this.write(dotStuffed(message));
      return { final };
    }
    this.messages += 1;
    const commands = this.envelope(then.from, then.to);
    const answers = commands.map(() => this.reply());
    this.write(`${dotStuffed(message)}${commands.join("\r\n")}\r\n`);
    // Its answers are read whatever becomes of this message, so a refusal is never left unhandled.
    const next = this.opened(commands, answers);
    next.catch(() => undefined);
    return { final, next };
  }

  private envelope(from: string, to: string): string[] {
    const commands = [`MAIL FROM:<${from}>`, `RCPT TO:<${to}>`, "DATA"];
    if (this.dirty) commands.unshift("RSET");
    this.dirty = false;
    return commands;
  }

  /** The answers to a pipelined envelope: every one is read, whatever the first ones say. */
  private async opened(commands: string[], pending: Promise<SmtpReply>[]): Promise<void> {
    const settled = await Promise.allSettled(pending);
    const answers: SmtpReply[] = [];
    for (const s of settled) {
      if (s.status === "rejected") throw s.reason as SmtpError;
      answers.push(s.value);
    }
    await this.check(commands, answers);
  }

  /** Without PIPELINING: one command at a time, none after a refusal. */
  private async oneByOne(commands: string[]): Promise<void> {
    const answers: SmtpReply[] = [];
    for (const command of commands) {
      const answer = await this.command(command);
      answers.push(answer);
      if (command !== "RSET" && answer.code >= 300 && !(command === "DATA" && answer.code === 354)) break;
    }
    await this.check(commands, answers);
  }

  private async check(commands: string[], answers: SmtpReply[]) {
    let i = 0;
    if (commands[0] === "RSET") {
      if (answers[0].code !== 250) {
        this.dirty = true;
        throw refused(answers[0], "EPROTOCOL");
      }
      i = 1;
    }
    // Without PIPELINING the commands stopped at the first refusal: what is missing was not sent.
    const [mail, rcpt, data] = answers.slice(i);
    const refusedAt = mail.code >= 300 ? mail : rcpt!.code >= 300 ? rcpt! : data!.code !== 354 ? data! : null;
    const command = refusedAt === mail ? "MAIL" : refusedAt === rcpt ? "RCPT" : "DATA";
    if (!refusedAt) return;
    // The transaction's state is not known: RSET before the next.
    this.dirty = true;
    if (data?.code === 354) {
      // A server that opened DATA for no recipient: an empty message ends it.
      await this.command(".");
    }
    throw refused(refusedAt, refusedAt === data ? "EMESSAGE" : "EENVELOPE", command);
  }

  /** Drops the connection at once (an open DATA is discarded by the server). */
  abort(): void {
    this.destroy(new SmtpError("Closed", "ECONNECTION"));
  }

  /** QUIT, then the connection closed (at once if the server does not answer within a second). */
  async quit(): Promise<void> {
    if (this.broken) return;
    const timer = setTimeout(() => this.destroy(new SmtpError("Closed", "ECONNECTION")), 1000);
    try {
      await this.command("QUIT");
    } catch {
      /* closed anyway */
    } finally {
      clearTimeout(timer);
      this.destroy(new SmtpError("Closed", "ECONNECTION"));
    }
  }
}

function refused(reply: SmtpReply, code: SmtpErrorCode, command?: string): SmtpError {
  return new SmtpError(reply.text, code, reply.code, reply.text, command);
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

function connect(target: Target, options: SmtpClientOptions): Promise<net.Socket> {
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
