// Real e-mail over SMTP with nodemailer's pooled transport (DELIVERY_CHANNEL=smtp). Each message's
// Message-ID is made from its delivery id, so a message sent again after a crash is the same
// message to every server that sees it. At most `maxConnections` messages are out at once across
// every batch (the pool's size): each is handed over only when a connection is free and the
// engine still says to proceed, and its answer is passed on at once, so a pause stops the next
// message and a crash can repeat only the messages in flight. The server's answer for the message
// decides the row: a 2xx is accepted (the engine records it as delivered); a 4xx (mailbox busy, greylisting) is retried later; a 5xx is final, a bounce when it says
// the address does not exist (5.1.x) and a failure otherwise, with the answer in details.
import nodemailer from "nodemailer";
import {
  type ChannelResult,
  type DeliveryChannel,
  type OutgoingMessage,
  SEND_FREELY,
  type SendControl,
} from "~/services/delivery/channel.server";

type SmtpError = Error & { responseCode?: number; response?: string; code?: string };

/** What a refused or failed send means for the row. */
export function smtpOutcome(key: string, error: SmtpError): ChannelResult {
  const answer = (error.response ?? error.message).slice(0, 500);
  const code = error.responseCode;
  // A refused login or a connection that failed says nothing about the recipient: every message
  // would fail the same way, so it is retried and counts toward the error cap, which pauses the
  // campaign until the settings are fixed.
  const aboutThisMessage = error.code === "EENVELOPE" || error.code === "EMESSAGE";
  if (!aboutThisMessage) return { key, status: "retry", details: answer, countsAsError: true };
  if (code && code >= 500) {
    const bounced = /\b5\.1\.\d\b/.test(answer) || code === 550 || code === 551 || code === 553;
    return { key, status: bounced ? "bounced" : "failed", details: answer };
  }
  // A 4xx, a dropped connection or a timeout: the server may take it later.
  return { key, status: "retry", details: answer, countsAsError: !code };
}

export function smtpChannel(options: {
  url: string;
  from: string;
  messageIdDomain: string;
  maxConnections?: number;
}): DeliveryChannel {
  const connections = options.maxConnections ?? 5;
  const transport = nodemailer.createTransport({
    url: options.url,
    pool: true,
    maxConnections: connections,
    maxMessages: 100,
    connectionTimeout: 10_000,
    greetingTimeout: 10_000,
    socketTimeout: 30_000,
  } as Parameters<typeof nodemailer.createTransport>[0]);
  const sendOne = async (m: OutgoingMessage): Promise<ChannelResult> => {
    if (!m.to.email) return { key: m.key, status: "failed", details: "No e-mail address" };
    try {
      const info = await transport.sendMail({
        from: options.from,
        to: m.to.name ? { name: m.to.name, address: m.to.email } : m.to.email,
        subject: m.subject,
        text: m.text,
        messageId: `<${m.key}@${options.messageIdDomain}>`,
        headers: { "X-CRM-Delivery-Id": m.key },
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
