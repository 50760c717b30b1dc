// Real e-mail over SMTP (DELIVERY_CHANNEL=smtp) with the product's own client
// (app/services/email/smtp-client.server.ts, decision 0024). Each message is multipart/alternative
// (the text and HTML parts the engine rendered; app/services/email/mime.server.ts), From the
// tenant's sender name at MAIL_FROM's address, with Reply-To when set, Date, a Message-ID made from
// its delivery id on the sender's domain (so a message sent again after a crash is the same message
// to every server that sees it), and RFC 8058 one-click unsubscribe headers; with a DKIM key for the
// sender's domain every message is signed (app/services/email/dkim-signature.server.ts), List-Unsubscribe
// and List-Unsubscribe-Post included, the RSA work in a thread of its own
// (app/services/email/dkim-signing-threads.server.ts). Names and subjects go through headerSafe (no CR/LF
// reaches a header); what is not ASCII is encoded (RFC 2047).
//
// At most `maxConnections` messages are out at once across every batch (the pool's size): each is
// handed over only when a connection is free and the engine still says to proceed, and its answer
// is passed on at once, so a pause stops the next message and a crash can repeat only the messages
// in flight. The next messages of a batch are built and signed ahead while those go (in signing
// threads, one a core). While the batch's next message is ready, its envelope goes in the same
// write as the text before (one write and one round trip a message): the engine lets it go then,
// and is asked again just before its text goes, once the answer before it is recorded. The server's
// answer decides the row (smtpOutcome): a 2xx is accepted (the engine records it as delivered); a
// 4xx (slow down, mailbox busy, greylisting) is retried later; a 5xx is final, a bounce when it says
// the address does not exist (5.1.x) and a failure otherwise. A connection that cannot be opened
// (or logged in to) fails the rest of the batch with the same answer at once, retried later.
//
// A sender the relay refuses for good (a 5xx to MAIL FROM: 5.1.7, 5.1.8, a bare 550 or 553) says
// nothing about the recipient: the message and the rest of the batch are held (queued as they
// were, no one bounced or suppressed) and the result asks the engine to pause the campaign with
// the sender and the relay's answer in its statusDetail, so a mistyped MAIL_FROM costs a pause,
// not an audience.
//
// The answer to a message's final dot may take the RFC's 10 minutes (SMTP_DATA_TIMEOUT_SECONDS):
// while it is awaited, the engine keeps the row claimed (SendControl.holdClaim renews its lease),
// so no other claimer sends it again before the answer, or the connection's end, settles it. A
// connection that ends after the dot with no answer leaves the message's fate unknown (RFC 5321
// 4.5.3.2.6: the relay may have taken it); it is retried, with the same Message-ID, since a lost
// message cannot be noticed by anyone while a second copy with one Message-ID is recognised by
// the mailbox providers that keep one copy of a Message-ID (decision 0024).
import { availableParallelism } from "node:os";
import {
  type ChannelResult,
  type DeliveryChannel,
  type OutgoingMessage,
  SEND_FREELY,
  type SendControl,
} from "~/services/sending/channel.server";
import type { DkimSigningKey } from "~/services/email/dkim-keys.server";
import { type DkimKey, dkimKey, signHeaders, type Signer, signInThread } from "~/services/email/dkim-signature.server";
import { signerPool } from "~/services/email/dkim-signing-threads.server";
import { buildMessage } from "~/services/email/mime.server";
import { readFileSync } from "node:fs";
import { isIP } from "node:net";
import { rootCertificates } from "node:tls";
import type { Env } from "~/env.server";
import { SmtpConnection } from "~/services/email/smtp-client.server";
import { isLoopback, parseSmtpUrl, type SmtpClientOptions } from "~/services/email/smtp-session.server";
import { headerSafe } from "~/services/email/sender.server";

type SmtpError = Error & { responseCode?: number; response?: string; code?: string; command?: string };

/**
 * A permanent refusal of the campaign's sender, not of the recipient: any 5xx to MAIL FROM, or a
 * 5xx to RCPT TO whose enhanced status is about the sender (RFC 3463: X.1.7 the sender's mailbox,
 * X.1.8 the sender's system). Relays that check the sender late answer there: Postfix, by default
 * (smtpd_delay_reject), refuses a sender domain it cannot find at RCPT TO, "553 5.1.8 ... Sender
 * address rejected".
 */
export function senderRefused(error: SmtpError): boolean {
  if (error.responseCode === undefined || error.responseCode < 500) return false;
  if (error.command === "MAIL") return true;
  return error.command === "RCPT" && /^\d{3}[ -]5\.1\.[78]\b/.test((error.response ?? "").trim());
}

/** What a campaign paused for a refused sender says (its statusDetail and the owner's notification). */
export function senderRefusedDetail(from: string, error: SmtpError): string {
  const answer = (error.response ?? error.message).replace(/\s*\n\s*/g, " ").slice(0, 300);
  return `Paused: the relay refused the sender ${from} (${answer}). Check MAIL_FROM and that the relay lets this account send as it, then resume.`;
}

/**
 * The EHLO name: SMTP_EHLO_NAME, else the host of PUBLIC_URL, else (when that host is an address
 * or has no dot, as a container's or localhost is) MAIL_FROM's domain.
 */
export function ehloName(env: Pick<Env, "SMTP_EHLO_NAME" | "PUBLIC_URL" | "mailFrom">): string | undefined {
  if (env.SMTP_EHLO_NAME) return env.SMTP_EHLO_NAME;
  const host = env.PUBLIC_URL ? new URL(env.PUBLIC_URL).hostname : "";
  if (host && isIP(host.replace(/^\[|\]$/g, "")) === 0 && host.includes(".")) return host;
  const address = env.mailFrom?.address ?? "";
  const domain = address.slice(address.lastIndexOf("@") + 1);
  return domain.includes(".") ? domain : undefined;
}

/** The client's settings from the environment: EHLO name, TLS, CA file, the final answer's wait. */
export function smtpClientSettings(
  env: Pick<
    Env,
    | "SMTP_URL"
    | "SMTP_EHLO_NAME"
    | "SMTP_REQUIRE_TLS"
    | "SMTP_TLS_CA_FILE"
    | "SMTP_DATA_TIMEOUT_SECONDS"
    | "PUBLIC_URL"
    | "mailFrom"
  >,
): Omit<SmtpClientOptions, "url"> {
  const host = env.SMTP_URL ? parseSmtpUrl(env.SMTP_URL).host : "";
  return {
    clientName: ehloName(env),
    requireTls: env.SMTP_REQUIRE_TLS ?? !isLoopback(host),
    dataTimeoutMs: env.SMTP_DATA_TIMEOUT_SECONDS * 1000,
    // The CA is trusted besides the usual ones (tls.connect's `ca` replaces them: they are added back).
    tls: env.SMTP_TLS_CA_FILE ? { ca: [...rootCertificates, readFileSync(env.SMTP_TLS_CA_FILE, "utf8")] } : undefined,
  };
}

/** The enhanced status code right after the reply code ("550 5.1.1 ..."): its class and subject. */
const ENHANCED_CODE = /^\d{3}[ -]([245])\.(\d{1,3})\.\d{1,3}(?=\s|$)/;
/** Without an enhanced code, these say the mailbox does not exist (or may not be named). */
const NO_SUCH_MAILBOX = new Set([550, 551, 553]);

/** What a refused or failed send means for the row. */
export function smtpOutcome(key: string, error: SmtpError): ChannelResult {
  const answer = (error.response ?? error.message).slice(0, 500);
  const code = error.responseCode;
  // A temporary answer (421 closing, 450/451 try later, 452 too many, 454 slow down), to the
  // message or to the connection: the server may take it later, and it is no one's error.
  if (code !== undefined && code >= 400 && code < 500) {
    return { key, status: "retry", details: answer, countsAsError: false };
  }
  // A refused login, a connection that failed, an answer cut off (no code): nothing said about
  // the recipient, and every message may fail the same way, so it is retried and counts toward
  // the error cap, which pauses the campaign until the settings are fixed.
  const aboutThisMessage = error.code === "EENVELOPE" || error.code === "EMESSAGE";
  if (!aboutThisMessage || code === undefined || code < 500) {
    return { key, status: "retry", details: answer, countsAsError: true };
  }
  // A permanent answer: a bounce when it says the address does not exist. An enhanced status
  // code decides when there is one (5.1.x: a bad mailbox or domain); otherwise the reply code.
  const enhanced = ENHANCED_CODE.exec(error.response ?? "");
  const bounced = enhanced ? enhanced[1] === "5" && enhanced[2] === "1" : NO_SUCH_MAILBOX.has(code);
  return { key, status: bounced ? "bounced" : "failed", details: answer };
}

/** An address that can go in an envelope and a header as it is (no spaces, brackets, line breaks). */
const PLAIN_ADDRESS = /^[^\s<>()[\],;:"\\@]+@[^\s<>()[\],;:"\\@]+$/;
/** ASCII only: everything this channel sends is 7-bit (no SMTPUTF8), and DKIM signs it as such. */
const ASCII = /^[\x21-\x7e]+$/;

export type SmtpChannelOptions = {
  /** SMTP_URL: smtp(s)://user:password@host:port. */
  url: string;
  /** SMTP_POOL: connections at once, so messages out at once. */
  maxConnections?: number;
  /** Messages over one connection before it is closed and another opened (default 1,000). */
  messagesPerConnection?: number;
  /** The key of MAIL_FROM's domain (app/services/email/dkim-keys.server.ts); null sends unsigned. */
  dkim?: DkimSigningKey | null;
  /** Threads that sign (0: sign in this thread); by default one a core, up to 4. */
  signingThreads?: number;
  /** MAIL_UNSUBSCRIBE_ADDRESS: adds the mailto: form of List-Unsubscribe. */
  unsubscribeMailbox?: string | null;
  /** Timeouts and TLS settings of the client (tests: a CA to trust). */
  client?: Omit<SmtpClientOptions, "url">;
  /** Seconds an unused connection stays open. */
  idleSeconds?: number;
};

/** A message ready to go: its envelope and text, or the answer it gets without going. */
type Prepared = { to: string; raw: string } | { result: ChannelResult };

export function smtpChannel(options: SmtpChannelOptions): DeliveryChannel {
  const connections = options.maxConnections ?? 5;
  const perConnection = options.messagesPerConnection ?? 1000;
  const clientOptions: SmtpClientOptions = { ...options.client, url: options.url };
  const key: DkimKey | null = options.dkim ? dkimKey(options.dkim) : null;
  const threads = options.signingThreads ?? Math.min(4, availableParallelism());
  const pool = options.dkim && threads > 0 ? signerPool(options.dkim.privateKey, { threads }) : null;
  const signer: Signer | null = key ? (pool?.sign ?? signInThread(key)) : null;
  const unsubscribeMailbox = options.unsubscribeMailbox ?? null;

  const prepare = async (m: OutgoingMessage): Promise<Prepared> => {
    if (!m.to.email) return { result: { key: m.key, status: "failed", details: "No e-mail address" } };
    if (!ASCII.test(m.to.email)) {
      // Forms, /api and imports refuse such addresses; one from elsewhere is not sent broken.
      return {
        result: {
          key: m.key,
          status: "failed",
          details: `Not sent: ${m.to.email} has characters outside ASCII, which this product does not send (it would need SMTPUTF8); use the address's ASCII form`,
        },
      };
    }
    if (!PLAIN_ADDRESS.test(m.to.email)) {
      return {
        result: {
          key: m.key,
          status: "failed",
          details: `Not an e-mail address a message can be sent to: ${m.to.email}`,
        },
      };
    }
    const { headers, body } = buildMessage({
      id: m.key,
      from: { name: headerSafe(m.from.name), address: m.from.address },
      to: { name: headerSafe(m.to.name), address: m.to.email },
      replyTo: m.from.replyTo,
      subject: headerSafe(m.subject),
      text: m.text,
      html: m.html,
      unsubscribeUrl: headerSafe(m.unsubscribeUrl),
      unsubscribeMailbox,
    });
    const head = key && signer ? await signHeaders(key, signer, headers, body) : headers;
    return { to: m.to.email, raw: `${head}\r\n\r\n${body}` };
  };

  // The pool: `connections` slots, each with an open connection or none; a slot is taken for one
  // message at a time, by whichever batch asks first.
  const free: (SmtpConnection | null)[] = Array.from({ length: connections }, () => null);
  const waiting: ((slot: SmtpConnection | null) => void)[] = [];
  const idleTimers = new Map<SmtpConnection, NodeJS.Timeout>();
  const idleMs = (options.idleSeconds ?? 5) * 1000;
  let closed = false;
  const takeSlot = () => {
    if (free.length > 0) {
      const slot = free.pop() ?? null;
      if (slot) {
        clearTimeout(idleTimers.get(slot));
        idleTimers.delete(slot);
      }
      return Promise.resolve(slot);
    }
    return new Promise<SmtpConnection | null>((resolve) => waiting.push(resolve));
  };
  const giveBack = (slot: SmtpConnection | null) => {
    let kept = slot;
    if (kept && (!kept.usable || kept.messages >= perConnection || closed)) {
      void kept.quit();
      kept = null;
    }
    const next = waiting.shift();
    if (next) return next(kept);
    if (kept) {
      const connection = kept;
      const timer = setTimeout(() => {
        const at = free.indexOf(connection);
        if (at < 0) return;
        free[at] = null;
        idleTimers.delete(connection);
        void connection.quit();
      }, idleMs);
      timer.unref();
      idleTimers.set(connection, timer);
    }
    free.push(kept);
  };

  const send = async (batch: readonly OutgoingMessage[], control: SendControl = SEND_FREELY) => {
    const results = new Map<string, ChannelResult>();
    const prepared = new Map<number, Promise<Prepared>>();
    /** The prepared messages that are built and signed already. */
    const settled = new Map<number, Prepared>();
    let next = 0;
    let stopped = false;
    // Built and signed ahead of the connections, so a free connection finds its message ready: up
    // to `ahead` messages, asked for `ahead / 2` at a time, so the signing threads get their work
    // in a few larger requests instead of one message a request.
    const ahead = connections * 4;
    let preparedTo = 0;
    const prepareFrom = (start: number) => {
      const end = Math.min(start + ahead, batch.length);
      for (let i = Math.max(start, preparedTo); i < end; i++) {
        const promise = prepare(batch[i]);
        promise.then(
          (value) => {
            if (prepared.get(i) === promise) settled.set(i, value);
          },
          () => undefined,
        );
        prepared.set(i, promise);
      }
      preparedTo = Math.max(preparedTo, end);
    };
    /** Message `i` is the sender's now: more are prepared when fewer than half the look-ahead are left. */
    const taken = (i: number) => {
      prepared.delete(i);
      settled.delete(i);
      if (preparedTo - (i + 1) <= ahead / 2) prepareFrom(i + 1);
    };
    /** The answer every message left gets once no connection could be opened. */
    let cannotConnect: ((key: string) => ChannelResult) | null = null;
    const answer = (result: ChannelResult) => {
      results.set(result.key, result);
      control.answered?.(result);
    };
    type Sendable = { m: OutgoingMessage; ready: { to: string; raw: string } };
    type Picked = { m: OutgoingMessage; ready: Prepared };
    /** The next message of the batch, once built and signed (no connection is held meanwhile). */
    const pick = async (): Promise<Picked | null> => {
      for (;;) {
        if (stopped || next >= batch.length) return null;
        const i = next++;
        const m = batch[i];
        if (i >= preparedTo) prepareFrom(i);
        const promise = prepared.get(i) ?? prepare(m);
        taken(i);
        try {
          return { m, ready: await promise };
        } catch (error) {
          // Signing failed (the thread stopped): not handed over, tried again later.
          answer({ key: m.key, status: "retry", details: (error as Error).message, countsAsError: true });
        }
      }
    };
    /**
     * The batch's next message when it is built and signed already and the engine says it may go:
     * its envelope goes in the same write as the text of the message before. Only for an engine
     * that can be asked again before the text goes (`stillGoing`).
     */
    const pickNow = (): Sendable | null => {
      if (!control.stillGoing || stopped || next >= batch.length) return null;
      const i = next;
      const ready = settled.get(i);
      if (!ready || "result" in ready) return null;
      next++;
      taken(i);
      if (!control.proceed(batch[i].key)) {
        stopped = true;
        return null;
      }
      return { m: batch[i], ready };
    };
    // One sender per connection of the pool: each takes the batch's next message once it is built
    // and signed, then a connection, and asks the engine just before the envelope goes (a pause, or a
    // claim that ran out while the message waited, holds it and the rest of the batch back). While
    // the batch's next message is ready, its envelope goes with the text of the one before (one
    // write and one round trip a message), and the engine is asked again just before its text goes:
    // a pause answered in between (or a claim run out, an address suppressed) drops the connection,
    // the only way to take back an envelope the server has opened. Otherwise the connection goes
    // back to the pool, so the batches out at once take turns, and none holds a connection while
    // its next message is still being signed.
    const sender = async () => {
      let slot: SmtpConnection | null = null;
      let holding = false;
      /** A message whose envelope went ahead on `slot`, its text not yet. */
      let chained: (Sendable & { opened: Promise<void> }) | null = null;
      try {
        for (;;) {
          let current: Sendable & { opened: Promise<void> };
          let connection: SmtpConnection;
          let wentAhead = false;
          if (chained && slot) {
            current = chained;
            connection = slot;
            chained = null;
            wentAhead = true;
          } else {
            if (holding) giveBack(slot);
            holding = false;
            slot = null;
            const picked = await pick();
            if (!picked) return;
            const { m, ready } = picked;
            if ("result" in ready) {
              answer(ready.result);
              continue;
            }
            slot = await takeSlot();
            holding = true;
            if (stopped || !control.proceed(m.key)) {
              stopped = true;
              return;
            }
            // No connection could be opened for an earlier message.
            if (cannotConnect) {
              answer(cannotConnect(m.key));
              continue;
            }
            if (slot && (!slot.usable || slot.messages >= perConnection)) {
              void slot.quit();
              slot = null;
            }
            if (!slot) {
              try {
                slot = await SmtpConnection.open(clientOptions);
              } catch (error) {
                const failure = error as Error;
                cannotConnect = (k) => smtpOutcome(k, failure);
                answer(cannotConnect(m.key));
                continue;
              }
            }
            connection = slot;
            current = { m, ready, opened: connection.begin(m.from.address, ready.to) };
          }
          try {
            await current.opened;
          } catch (error) {
            const failure = error as SmtpError;
            if (senderRefused(failure)) {
              // The campaign's fault: held (queued as it was), the rest of the batch with it, and
              // the engine pauses the campaign.
              stopped = true;
              results.set(current.m.key, {
                key: current.m.key,
                status: "held",
                pause: senderRefusedDetail(current.m.from.address, failure),
              });
              continue;
            }
            answer(smtpOutcome(current.m.key, failure));
            continue;
          }
          if (wentAhead) {
            // The answer before it is recorded first (as it is when a text waits for its own 354),
            // so no more than one message a connection is ever out or answered but not recorded.
            await control.answersRecorded?.();
            if (!(control.stillGoing?.(current.m.key) ?? true)) {
              // Held back after its envelope went: the server waits for its text, so the
              // connection is dropped (nothing arrives) and the rest of the batch is held too.
              stopped = true;
              connection.abort();
              slot = null;
              return;
            }
          }
          const then = connection.pipelining && connection.messages < perConnection ? pickNow() : null;
          const { final, next: opened } = connection.finish(
            current.ready.raw,
            then ? { from: then.m.from.address, to: then.ready.to } : undefined,
          );
          if (then && opened) chained = { ...then, opened };
          // Until the answer (or the connection's end) settles it, the row stays this claim's.
          const release = control.holdClaim?.(current.m.key);
          try {
            const reply = await final;
            answer({ key: current.m.key, status: "accepted", details: reply.text.slice(0, 500) });
          } catch (error) {
            answer(smtpOutcome(current.m.key, error as Error));
          } finally {
            release?.();
          }
        }
      } catch (error) {
        // Nothing more of this batch goes out; what was not answered is the engine's to retry.
        stopped = true;
        throw error;
      } finally {
        // An envelope that went ahead of a text that will not go: the connection is dropped.
        if (chained && slot) {
          slot.abort();
          slot = null;
        }
        if (holding) giveBack(slot);
      }
    };
    await Promise.all(Array.from({ length: Math.min(connections, batch.length) }, sender));
    return batch.map((m): ChannelResult => results.get(m.key) ?? { key: m.key, status: "held" });
  };

  return {
    name: "smtp",
    receipts: false,
    concurrency: connections,
    send,
    async close() {
      closed = true;
      for (const timer of idleTimers.values()) clearTimeout(timer);
      idleTimers.clear();
      const open = free.filter((c): c is SmtpConnection => c !== null);
      free.fill(null);
      await Promise.all(open.map((c) => c.quit()));
      await pool?.close();
    },
  };
}
