// The bounce mailbox (BOUNCE_MAILBOX_URL): later bounces and complaints that arrive as mail, read
// over IMAP with imapflow (docs/rules.md, "Bounce mailbox"; docs/decisions/0026).
//
// One poll: connect, make sure the folders exist, take the mailbox's unseen messages a batch at a
// time, read each (bounce-report.server.ts), hand the batch's receipts to `queue` (the receipts
// inbox; the delivery job applies them), and only then mark the messages \Seen and move them out:
// to "Processed" when understood, to "Unrecognised" when not (auto-replies, spam, someone else's
// bounce), for a person to look at. A crash between queueing and moving reads the same messages
// again next time, which changes nothing: each receipt carries the report's Message-ID as its
// eventId. A message someone already read in a mail client is left where it is.
//
// Connection and login failures become a BounceMailboxError whose message says what to check
// (never the password); the job logs it and the next poll tries again.
import { ImapFlow } from "imapflow";
import { type MailboxUrl, readMailboxUrl } from "~/env-values.server";
import type { Logger } from "~/lib/logger.server";
import type { Receipt } from "~/models/deliveries/receipts/rows";
import { wakeDelivery } from "~/services/sending/wake.server";
import { readBounceReport, type ReportKind } from "~/services/feedback/bounce-report.server";

export const PROCESSED_FOLDER = "Processed";
export const UNRECOGNISED_FOLDER = "Unrecognised";
/** Messages fetched and queued at a time. */
const BATCH_SIZE = 50;
/** Messages one poll reads at most; the rest wait for the next. */
const POLL_LIMIT = 1000;
/** A report is a few kilobytes; anything this large is not one and is not parsed. */
const LARGEST_REPORT_BYTES = 2 * 1024 * 1024;

/** What became of one message. */
export type MailboxReading = { uid: number; from: string; subject: string; kind: ReportKind; note: string };

export type PollResult = {
  /** Messages read this poll. */
  read: number;
  /** Receipts queued. */
  queued: number;
  processed: number;
  unrecognised: number;
  readings: MailboxReading[];
};

/** Where the receipts go: the receipts inbox, one batch's in one write. */
export type ReceiptQueue = (receipts: Receipt[]) => Promise<void>;

/** A poll that could not reach, log in to or read the mailbox; the message says what to check. */
export class BounceMailboxError extends Error {}

/** host:port and the user, for messages (never the password). */
function where(m: MailboxUrl): string {
  return `${m.user}@${m.host}:${m.port}`;
}

const LOOPBACK = new Set(["127.0.0.1", "::1", "localhost"]);

type ImapFailure = Error & {
  code?: string;
  authenticationFailed?: boolean;
  serverResponseCode?: string;
  responseText?: string;
};

/** What went wrong, in words that say what to check. */
export function explainMailboxError(error: unknown, m: MailboxUrl): string {
  const e = (error instanceof Error ? error : new Error(String(error))) as ImapFailure;
  const code = e.code ?? "";
  const text = `${e.message} ${e.responseText ?? ""}`;
  if (e.authenticationFailed || e.serverResponseCode === "AUTHENTICATIONFAILED") {
    return `The mail server at ${m.host}:${m.port} refused the login of ${m.user}: check the user name and password in BOUNCE_MAILBOX_URL (percent-encode @, : and / in them).`;
  }
  if (code === "ECONNREFUSED" || code === "ENOTFOUND" || code === "EAI_AGAIN" || code === "EHOSTUNREACH") {
    return `Could not connect to ${m.host}:${m.port} (${code}): check the host and port in BOUNCE_MAILBOX_URL and that this server may reach it.`;
  }
  if (code === "ETIMEDOUT" || code === "CONNECT_TIMEOUT" || code === "GREETING_TIMEOUT" || /timed? ?out/i.test(text)) {
    return `${m.host}:${m.port} did not answer in time: check the host and port in BOUNCE_MAILBOX_URL and any firewall between.`;
  }
  if (/STARTTLS/i.test(text)) {
    return `${m.host}:${m.port} does not offer STARTTLS: use imaps:// (port 993) in BOUNCE_MAILBOX_URL, or a server that encrypts the login.`;
  }
  if (/certificate|self.signed|SSL|TLS|wrong version number/i.test(`${code} ${text}`)) {
    return `TLS with ${m.host}:${m.port} failed (${e.message}): check that the server's certificate is valid for ${m.host}, and that imaps:// goes to the TLS port (993) and imap:// to the STARTTLS one (143).`;
  }
  if (e.serverResponseCode === "NONEXISTENT" || /doesn't exist|does not exist|unknown mailbox/i.test(text)) {
    return `The mailbox "${m.mailbox}" does not exist for ${m.user} on ${m.host}: check the path at the end of BOUNCE_MAILBOX_URL (INBOX when none).`;
  }
  return `Could not read the bounce mailbox ${where(m)}: ${e.message}${e.responseText ? ` (${e.responseText})` : ""}.`;
}

function clientFor(m: MailboxUrl): ImapFlow {
  return new ImapFlow({
    host: m.host,
    port: m.port,
    secure: m.secure,
    // imap:// must upgrade with STARTTLS before the password is sent; only a server on this
    // machine (loopback) may be spoken to in clear text, as Dovecot itself allows.
    doSTARTTLS: m.secure ? undefined : LOOPBACK.has(m.host) ? undefined : true,
    servername: m.host,
    auth: { user: m.user, pass: m.password },
    logger: false,
    disableAutoIdle: true,
    connectionTimeout: 15_000,
    greetingTimeout: 15_000,
    socketTimeout: 120_000,
    clientInfo: { name: "crm-bounce-mailbox" },
  });
}

/** Reads the mailbox once; throws BounceMailboxError when it cannot. */
export async function pollBounceMailbox(
  url: string,
  queue: ReceiptQueue,
  options: { batchSize?: number; now?: () => number } = {},
): Promise<PollResult> {
  const m = readMailboxUrl(url);
  if (!m) throw new BounceMailboxError("BOUNCE_MAILBOX_URL is not a URL like imaps://user:password@host:993/INBOX.");
  const batchSize = options.batchSize ?? BATCH_SIZE;
  const now = options.now ?? Date.now;
  const result: PollResult = { read: 0, queued: 0, processed: 0, unrecognised: 0, readings: [] };
  const client = clientFor(m);
  // A socket error after connecting (the server went away) also rejects the command in progress.
  client.on("error", () => {});
  try {
    await client.connect();
    for (const folder of [PROCESSED_FOLDER, UNRECOGNISED_FOLDER]) await client.mailboxCreate(folder);
    const lock = await client.getMailboxLock(m.mailbox);
    try {
      const found = await client.search({ seen: false }, { uid: true });
      const uids = (found || []).slice(0, POLL_LIMIT);
      for (let i = 0; i < uids.length; i += batchSize) {
        await pollBatch(client, uids.slice(i, i + batchSize), queue, now(), result);
      }
    } finally {
      lock.release();
    }
    await client.logout();
  } catch (error) {
    client.close();
    if (error instanceof QueueError) throw error.cause;
    throw new BounceMailboxError(explainMailboxError(error, m), { cause: error });
  }
  return result;
}

/** The receipts inbox refused a batch: not the mailbox's fault, so passed on as it is. */
class QueueError extends Error {}

async function pollBatch(client: ImapFlow, uids: number[], queue: ReceiptQueue, now: number, result: PollResult) {
  const messages: { uid: number; source: Buffer; from: string; subject: string }[] = [];
  for await (const msg of client.fetch(uids, { uid: true, source: true, size: true, envelope: true }, { uid: true })) {
    const source = msg.source && (msg.size ?? msg.source.length) <= LARGEST_REPORT_BYTES ? msg.source : Buffer.alloc(0);
    const sender = msg.envelope?.from?.[0];
    messages.push({
      uid: msg.uid,
      source,
      from: sender?.address ?? sender?.name ?? "",
      subject: msg.envelope?.subject ?? "",
    });
  }
  const receipts: Receipt[] = [];
  const processed: number[] = [];
  const unrecognised: number[] = [];
  for (const message of messages) {
    const reading = await readBounceReport(message.source, now);
    receipts.push(...reading.receipts);
    (reading.kind === "unrecognised" ? unrecognised : processed).push(message.uid);
    result.readings.push({
      uid: message.uid,
      from: message.from,
      subject: message.subject,
      kind: reading.kind,
      note: reading.note,
    });
  }
  if (receipts.length > 0) {
    try {
      await queue(receipts);
    } catch (error) {
      throw new QueueError("could not queue receipts", { cause: error });
    }
  }
  // Only after the receipts are stored: a crash before this reads the batch again next poll.
  for (const [moved, folder] of [
    [processed, PROCESSED_FOLDER],
    [unrecognised, UNRECOGNISED_FOLDER],
  ] as const) {
    if (moved.length === 0) continue;
    await client.messageFlagsAdd(moved, ["\\Seen"], { uid: true });
    await client.messageMove(moved, folder, { uid: true });
  }
  result.read += messages.length;
  result.queued += receipts.length;
  result.processed += processed.length;
  result.unrecognised += unrecognised.length;
}

// The Bree job (jobs/bounce-mailbox.ts) runs a poll in a worker thread every
// BOUNCE_MAILBOX_POLL_SECONDS; what it tells this thread:
export const BOUNCE_MAILBOX_JOB = "bounce-mailbox";
export type FromBounceMailboxJob =
  | { type: "wake" }
  | { type: "log"; level: "info" | "warn" | "error"; message: string; fields?: Record<string, unknown> };

/** The job's messages on the thread that started it: receipts queued wake the delivery job; lines go to the log. */
export function onBounceMailboxMessage(message: unknown, log: Logger): void {
  if (typeof message !== "object" || message === null) return;
  const m = message as FromBounceMailboxJob;
  if (m.type === "wake") wakeDelivery();
  else if (m.type === "log") log[m.level](m.fields ?? {}, m.message);
}
