// A small SMTP client (RFC 5321) for campaign mail: one connection to the relay SMTP_URL names,
// over which messages go one after another (the SMTP channel keeps a pool of these). What it does:
// - connects with timeouts for the connection, the greeting and every answer after it;
// - EHLO (HELO when refused), STARTTLS when the server offers it on smtp:// and EHLO again, TLS
//   from the start on smtps://; certificates are checked (the `tls` option can add a CA);
// - AUTH PLAIN, else LOGIN, with the URL's user and password (percent-decoded);
// - PIPELINING (RFC 2920) when offered: MAIL FROM, RCPT TO and DATA (after RSET when needed) go
//   in one write and their answers are read in order, in the same write as the end of the message
//   before when the caller has the next one ready (`finish(message, then)`); otherwise one command
//   at a time;
// - the message in one write after the 354, dot-stuffed, ended by CRLF.CRLF;
// - multi-line answers ("250-..." up to "250 ..."), kept whole ("\n" between lines) so an enhanced
//   status code ("550 5.1.1 ...") reaches smtpOutcome as the server said it;
// - RSET before the next message after one that was refused (the transaction's state is then
//   unknown), QUIT when closed.
// A refusal is an SmtpError with the reply's code and text and where it happened: EENVELOPE (MAIL
// or RCPT), EMESSAGE (DATA or the message), EAUTH, ETLS, ECONNECTION, ETIMEDOUT, EPROTOCOL.
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
  ) {
    super(message);
  }
}

export type SmtpReply = { code: number; text: string };

export type SmtpClientOptions = {
  /** smtp://user:password@host:port (STARTTLS when offered) or smtps://… (TLS from the start). */
  url: string;
  /** The name said in EHLO (default: this host's name). */
  clientName?: string;
  /** Extra TLS settings (a CA to trust, say). */
  tls?: tls.ConnectionOptions;
  connectTimeoutMs?: number;
  greetingTimeoutMs?: number;
  /** How long an answer may take once connected. */
  socketTimeoutMs?: number;
};

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

type Waiter = { resolve: (reply: SmtpReply) => void; reject: (error: SmtpError) => void };

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
  private readonly onData = (chunk: string) => this.read(chunk);

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
    socket.setEncoding("latin1");
    socket.on("data", this.onData);
    socket.on("error", (error) => this.destroy(new SmtpError(error.message, "ECONNECTION")));
    socket.on("close", () => this.destroy(new SmtpError("Connection closed by the server", "ECONNECTION")));
    socket.on("timeout", () => this.destroy(new SmtpError("Timed out waiting for the server's answer", "ETIMEDOUT")));
  }

  private read(chunk: string) {
    this.buffer += chunk;
    let end: number;
    while ((end = this.buffer.indexOf("\n")) >= 0) {
      const line = this.buffer.slice(0, end).replace(/\r$/, "");
      this.buffer = this.buffer.slice(end + 1);
      const match = REPLY_LINE.exec(line);
      if (!match) {
        this.destroy(new SmtpError(`Not an SMTP answer: ${line.slice(0, 200)}`, "EPROTOCOL"));
        return;
      }
      this.lines.push(line);
      if (match[2] === "-") continue;
      const reply = { code: Number(match[1]), text: this.lines.join("\n") };
      this.lines = [];
      const waiter = this.waiters.shift();
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
  }

  /** The next answer (asked for before the command that it answers is written). */
  private reply(): Promise<SmtpReply> {
    if (this.broken) return Promise.reject(this.broken);
    return new Promise((resolve, reject) => this.waiters.push({ resolve, reject }));
  }

  private write(text: string) {
    this.socket.write(text);
  }

  /** Writes a command and reads its answer. */
  private async command(line: string): Promise<SmtpReply> {
    const answer = this.reply();
    this.write(`${line}\r\n`);
    return answer;
  }

  private destroy(error: SmtpError) {
    if (!this.broken) this.broken = error;
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
    this.socket.setTimeout(this.options.socketTimeoutMs ?? 30_000);
    if (greeting.code !== 220) throw refused(greeting, "ECONNECTION");
    await this.hello();
    let encrypted = this.target.secure;
    if (!encrypted && this.features.has("STARTTLS")) {
      const answer = await this.command("STARTTLS");
      if (answer.code !== 220) throw refused(answer, "ETLS");
      await this.upgrade();
      await this.hello();
      encrypted = true;
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

  private async hello() {
    const name = this.options.clientName ?? clientName();
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
        servername: net.isIP(this.target.host) ? undefined : this.target.host,
        ...this.options.tls,
      });
      s.once("secureConnect", () => resolve(s));
      s.once("error", (error) => reject(new SmtpError(`STARTTLS failed: ${error.message}`, "ETLS")));
    });
    this.socket = secured;
    this.attach(secured);
    secured.setTimeout(this.options.socketTimeoutMs ?? 30_000);
  }

  private async login() {
    const { user, password } = this.target;
    if (this.authMechanisms.has("PLAIN") || !this.authMechanisms.has("LOGIN")) {
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
    const final = this.reply().then((answer) => {
      if (answer.code >= 300) throw refused(answer, "EMESSAGE");
      return answer;
    });
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
    if (!refusedAt) return;
    // The transaction's state is not known: RSET before the next.
    this.dirty = true;
    if (data?.code === 354) {
      // A server that opened DATA for no recipient: an empty message ends it.
      await this.command(".");
    }
    throw refused(refusedAt, refusedAt === data ? "EMESSAGE" : "EENVELOPE");
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

function refused(reply: SmtpReply, code: SmtpErrorCode): SmtpError {
  return new SmtpError(reply.text, code, reply.code, reply.text);
}

function clientName(): string {
  const host = os.hostname();
  return host.includes(".") ? host : "[127.0.0.1]";
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
      reject(new SmtpError(`Could not connect to ${target.host}:${target.port}: ${error.message}`, code));
    });
  });
}
