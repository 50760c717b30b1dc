// Real e-mail over SMTP with nodemailer's pooled transport (DELIVERY_CHANNEL=smtp). Each message is
// multipart/alternative (the text and HTML parts the engine rendered), From the tenant's sender
// name at MAIL_FROM's address, with Reply-To when set, Date, a Message-ID made from its delivery id
// on the sender's domain (so a message sent again after a crash is the same message to every
// server that sees it), and RFC 8058 one-click unsubscribe headers; with a DKIM key for the
// sender's domain every message is signed, List-Unsubscribe and List-Unsubscribe-Post included.
// Names and subjects go through headerSafe (no CR/LF reaches a header); nodemailer encodes what is
// not ASCII (RFC 2047).
//
// At most `maxConnections` messages are out at once across every batch (the pool's size): each is
// handed over only when a connection is free and the engine still says to proceed, and its answer
// is passed on at once, so a pause stops the next message and a crash can repeat only the messages
// in flight. The server's answer decides the row (smtpOutcome): a 2xx is accepted (the engine
// records it as delivered); a 4xx (slow down, mailbox busy, greylisting) is retried later; a 5xx
// is final, a bounce when it says the address does not exist (5.1.x) and a failure otherwise.
import { createPrivateKey } from "node:crypto";
import nodemailer from "nodemailer";
import {
  type ChannelResult,
  type DeliveryChannel,
  type OutgoingMessage,
  SEND_FREELY,
  type SendControl,
} from "~/services/delivery/channel.server";
import type { DkimSigningKey } from "~/services/email/dkim-keys.server";
import { headerSafe } from "~/services/email/sender.server";

type SmtpError = Error & { responseCode?: number; response?: string; code?: string };

/**
 * The headers a DKIM signature covers: those RFC 6376 5.4 says to sign that a campaign message
 * has, and both one-click unsubscribe headers, which RFC 8058 requires to be signed (nodemailer's
 * own list leaves out List-Unsubscribe-Post).
 */
export const DKIM_SIGNED_HEADERS = [
  "From",
  "Sender",
  "Reply-To",
  "Subject",
  "Date",
  "Message-ID",
  "To",
  "Cc",
  "MIME-Version",
  "Content-Type",
  "Content-Transfer-Encoding",
  "List-Unsubscribe",
  "List-Unsubscribe-Post",
].join(":");

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

export type SmtpChannelOptions = {
  /** SMTP_URL: smtp(s)://user:password@host:port. */
  url: string;
  /** SMTP_POOL: connections at once, so messages out at once. */
  maxConnections?: number;
  /** The key of MAIL_FROM's domain (app/services/email/dkim-keys.server.ts); null sends unsigned. */
  dkim?: DkimSigningKey | null;
  /** MAIL_UNSUBSCRIBE_ADDRESS: adds the mailto: form of List-Unsubscribe. */
  unsubscribeMailbox?: string | null;
};

export function smtpChannel(options: SmtpChannelOptions): DeliveryChannel {
  const connections = options.maxConnections ?? 5;
  const transport = nodemailer.createTransport({
    url: options.url,
    pool: true,
    maxConnections: connections,
    maxMessages: 100,
    connectionTimeout: 10_000,
    greetingTimeout: 10_000,
    socketTimeout: 30_000,
    // A message is only what the engine rendered: nothing is read from files or fetched.
    disableFileAccess: true,
    disableUrlAccess: true,
    ...(options.dkim
      ? {
          dkim: {
            domainName: options.dkim.domainName,
            keySelector: options.dkim.keySelector,
            // Parsed once: nodemailer hands the key to crypto's sign() for every message, and a PEM
            // string is parsed again each time, which cost three times the signature itself.
            privateKey: createPrivateKey(options.dkim.privateKey),
            headerFieldNames: DKIM_SIGNED_HEADERS,
          },
        }
      : {}),
  } as Parameters<typeof nodemailer.createTransport>[0]);
  const mailto = options.unsubscribeMailbox ? `, <mailto:${options.unsubscribeMailbox}?subject=unsubscribe>` : "";

  const sendOne = async (m: OutgoingMessage): Promise<ChannelResult> => {
    if (!m.to.email) return { key: m.key, status: "failed", details: "No e-mail address" };
    if (!PLAIN_ADDRESS.test(m.to.email)) {
      return { key: m.key, status: "failed", details: `Not an e-mail address a message can be sent to: ${m.to.email}` };
    }
    const toName = headerSafe(m.to.name);
    const fromName = headerSafe(m.from.name);
    const senderDomain = m.from.address.slice(m.from.address.lastIndexOf("@") + 1).toLowerCase();
    try {
      const info = await transport.sendMail({
        from: fromName ? { name: fromName, address: m.from.address } : m.from.address,
        to: toName ? { name: toName, address: m.to.email } : m.to.email,
        ...(m.from.replyTo ? { replyTo: m.from.replyTo } : {}),
        subject: headerSafe(m.subject),
        text: m.text,
        html: m.html,
        date: new Date(),
        messageId: `<${m.key}@${senderDomain}>`,
        headers: {
          "List-Unsubscribe": `<${headerSafe(m.unsubscribeUrl)}>${mailto}`,
          "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
          "X-CRM-Delivery-Id": m.key,
        },
      });
      return { key: m.key, status: "accepted", details: String(info.response ?? "").slice(0, 500) };
    } catch (error) {
      return smtpOutcome(m.key, error as SmtpError);
    }
  };
  // Free connections, shared by every batch out at once.
  let free = connections;
  const waiting: (() => void)[] = [];
  const takeConnection = () =>
    free > 0 ? (free--, Promise.resolve()) : new Promise<void>((resolve) => waiting.push(resolve));
  const giveBack = () => {
    const next = waiting.shift();
    if (next) next();
    else free++;
  };

  const send = async (batch: readonly OutgoingMessage[], control: SendControl = SEND_FREELY) => {
    const results = new Map<string, ChannelResult>();
    let next = 0;
    let stopped = false;
    // One sender per connection of the pool: each takes the next message while the engine says to
    // proceed, so no message waits in nodemailer's queue where a pause could no longer reach it.
    const sender = async () => {
      for (;;) {
        await takeConnection();
        try {
          if (stopped || next >= batch.length) return;
          if (!control.proceed(batch[next].key)) {
            stopped = true;
            return;
          }
          const m = batch[next++];
          const result = await sendOne(m);
          results.set(m.key, result);
          control.answered?.(result);
        } catch (error) {
          // Nothing more of this batch goes out; what was not answered is the engine's to retry.
          stopped = true;
          throw error;
        } finally {
          giveBack();
        }
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
      transport.close();
    },
  };
}
