// The SMTP connection's wire (the SMTP client's lowest part, smtp-client.server.ts): commands
// written in order, and the server's answers read and handed to whoever asked, in order.
// - multi-line answers ("250-..." up to "250 ..."), kept whole ("\n" between lines) so an enhanced
//   status code ("550 5.1.1 ...") reaches smtpOutcome as the server said it; a line longer than
//   MAX_LINE or an answer of more than MAX_LINES lines is a protocol error, not memory without end;
// - an answer asked for with `last` (STARTTLS's) stops the reading: what the server sent in clear
//   after it is thrown away (RFC 3207 4.2);
// - a write the socket could not take at once (write() false) is followed by nothing more until
//   the socket has drained (queued in order until then);
// - a connection that fails (closed, timed out, an answer nobody asked for) rejects every answer
//   still awaited with the same SmtpError, and every one asked for after.
import type net from "node:net";

export type SmtpErrorCode = "EENVELOPE" | "EMESSAGE" | "EAUTH" | "ETLS" | "ECONNECTION" | "ETIMEDOUT" | "EPROTOCOL";

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

/** The longest answer line read (RFC 5321 4.5.3.1.5 allows 512 octets) and lines in one answer. */
export const MAX_LINE = 8192;
export const MAX_LINES = 1000;

/** A refusal as an SmtpError carrying the server's code and text. */
export function refused(reply: SmtpReply, code: SmtpErrorCode, command?: string): SmtpError {
  return new SmtpError(reply.text, code, reply.code, reply.text, command);
}

type Waiter = {
  resolve: (reply: SmtpReply) => void;
  reject: (error: SmtpError) => void;
  /** The answer to STARTTLS: whatever was read after it is thrown away, and reading stops. */
  last?: boolean;
};

const REPLY_LINE = /^(\d{3})([ -]|$)/;

export class SmtpWire {
  protected socket: net.Socket;
  protected broken: SmtpError | null = null;
  private buffer = "";
  private lines: string[] = [];
  private waiters: Waiter[] = [];
  /** Whether what arrives is read (not between STARTTLS's answer and the TLS handshake). */
  private reading = true;
  /** Writes waiting for the socket to drain, in order. */
  private queued: string[] = [];
  private draining = false;
  protected readonly onData = (chunk: string) => this.read(chunk);
  private readonly onDrain = () => this.drained();

  protected constructor(socket: net.Socket) {
    this.socket = socket;
    this.attach(socket);
  }

  get usable(): boolean {
    return this.broken === null;
  }

  /** Reads the answers that arrive on `socket` (the first one, or the TLS one after STARTTLS). */
  protected attach(socket: net.Socket) {
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
  protected reply(last = false): Promise<SmtpReply> {
    if (this.broken) return Promise.reject(this.broken);
    return new Promise((resolve, reject) => this.waiters.push({ resolve, reject, last }));
  }

  /** Writes now, or once the socket has drained what it could not take at once. */
  protected write(text: string) {
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
  protected async command(line: string): Promise<SmtpReply> {
    const answer = this.reply();
    this.write(`${line}\r\n`);
    return answer;
  }

  protected destroy(error: SmtpError) {
    if (!this.broken) this.broken = error;
    this.queued = [];
    const waiters = this.waiters;
    this.waiters = [];
    for (const w of waiters) w.reject(this.broken);
    this.socket.destroy();
  }
}
