// A small SMTP client (RFC 5321) for campaign mail: one connection to the relay SMTP_URL names,
// over which messages go one after another (the SMTP channel keeps a pool of these). In three parts:
// - smtp-wire.server.ts: commands written in order (waiting for the socket to drain), answers
//   read (multi-line, bounded) and handed to whoever asked, in order;
// - smtp-session.server.ts: the connection opened — greeting, EHLO (HELO when refused), STARTTLS
//   or TLS from the start, certificates checked, nothing in clear text with `requireTls`, AUTH
//   PLAIN or LOGIN;
// - this file: the messages sent on it, the transaction:
//   - PIPELINING (RFC 2920) when offered: MAIL FROM, RCPT TO and DATA (after RSET when needed) go
//     in one write and their answers are read in order, in the same write as the end of the
//     message before when the caller has the next one ready (`finish(message, then)`); otherwise
//     one command at a time;
//   - the message in one write after the 354, dot-stuffed, ended by CRLF.CRLF;
//   - the answer to a message's final dot is awaited `dataTimeoutMs` (RFC 5321 4.5.3.2.6: 10
//     minutes; a relay that scans content answers late), every other answer `socketTimeoutMs`;
//   - RSET before the next message after one that was refused (the transaction's state is then
//     unknown), QUIT when closed.
// A refusal is an SmtpError with the reply's code and text and where it happened: EENVELOPE (MAIL
// or RCPT, told apart by `command`), EMESSAGE (DATA or the message), EAUTH, ETLS, ECONNECTION,
// ETIMEDOUT, EPROTOCOL.
// Line lengths are the message builder's (mime.server.ts: nothing over 998).
import { connect, parseSmtpUrl, SmtpSession, type SmtpClientOptions } from "./smtp-session.server";
import { refused, SmtpError, type SmtpReply } from "./smtp-wire.server";

/** The message as it goes after DATA: lines starting with "." get another, and CRLF.CRLF ends it. */
export function dotStuffed(message: string): string {
  let out = message.charCodeAt(0) === 46 ? `.${message}` : message;
  if (out.includes("\r\n.")) out = out.replace(/\r\n\./g, "\r\n..");
  return out.endsWith("\r\n") ? `${out}.\r\n` : `${out}\r\n.\r\n`;
}

export class SmtpConnection extends SmtpSession {
  /** Messages accepted or refused on this connection. */
  messages = 0;
  private dirty = false;

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
