// One message from the bounce mailbox → the receipts it means (docs/rules.md, "Bounce mailbox").
//
// - A delivery status notification (RFC 3464: multipart/report; report-type=delivery-status): per
//   recipient, Action "failed" with a Status saying the address does not work (5.1.x; 550, 551 or
//   553 without one) is a hard bounce ("bounced"); any other failure a soft one ("soft-bounced": a
//   temporary condition the MTA gave up on, a message refused by policy; app/lib/bounce-kind.ts);
//   the receipt names the reported recipient, so a report about another address is not applied; "delayed"
//   (still trying), "delivered", "relayed" and "expanded" are understood and count for nothing.
// - An abuse report (ARF, RFC 5965: report-type=feedback-report) of Feedback-Type abuse or fraud is
//   a complaint ("complained"); its other types (not-spam, virus, auth-failure, other) count for
//   nothing.
// - A plain-text bounce from a mailer daemon that quotes the original headers (older qmail, Exim
//   and Exchange shapes): its enhanced status (or reply code) decides as above, none at all counts
//   as soft.
//
// The delivery is found from the returned message (message/rfc822) or its headers
// (text/rfc822-headers): the X-CRM-Delivery-Id header the SMTP channel adds, else the Message-ID
// `<deliveryKey@sender-domain>`; failing both, a VERP address `anything+deliveryKey@domain` the
// report was sent to. Whatever names no delivery of ours (auto-replies, spam, someone else's
// bounce) is "unrecognised": no receipt, no error. Pure apart from parsing the MIME (mailparser).
import { bounceKind } from "~/lib/bounce-kind";
import { createHash } from "node:crypto";
import { type AddressObject, simpleParser } from "mailparser";
import { parseDeliveryId } from "~/lib/campaigns";
import type { Receipt } from "~/models/deliveries/receipts/rows";

export type ReportKind = "dsn" | "arf" | "plain-bounce" | "unrecognised";

export type ReportReading = {
  kind: ReportKind;
  /** What the message means for our deliveries: none, or one per reported recipient. */
  receipts: Receipt[];
  /** One line for the log and `crm bounces poll`: what it was and what came of it. */
  note: string;
};

/** Where a receipt's details say it came from. */
const SUFFIX = " (bounce mailbox)";
/** A receipt's details are kept short: the reason an admin reads in the delivery log. */
const DETAILS_MAX = 300;
/** A report dated further ahead than this is taken as arriving now (a wrong clock). */
const FUTURE_SLACK_MS = 5 * 60_000;

/** The parts that carry the original message or its headers. */
const ORIGINAL_PARTS = new Set(["message/rfc822", "message/global", "text/rfc822-headers", "message/global-headers"]);
const STATUS_PARTS = new Set(["message/delivery-status", "message/global-delivery-status"]);
const FEEDBACK_PART = "message/feedback-report";
const COMPLAINT_TYPES = new Set(["abuse", "fraud"]);
/** From whom, or about what, a plain-text message is a bounce. */
const DAEMON_SENDER = /^(mailer-daemon|postmaster|mail-daemon|mailerdaemon|bounces?)@/i;
const BOUNCE_SUBJECT =
  /undeliver|delivery (status notification|failure|has failed|failed)|returned mail|failure notice|mail delivery failed|non-?delivery/i;

type Fields = Map<string, string[]>;

/**
 * Header fields of a block of "Name: value" lines (RFC 5322 header syntax, which the
 * delivery-status and feedback-report parts share): folded lines joined, names lower-cased,
 * repeated fields kept in order.
 */
export function readFields(block: string): Fields {
  const fields: Fields = new Map();
  let last: { name: string; index: number } | null = null;
  for (const line of block.split(/\r?\n/)) {
    if (/^[ \t]/.test(line) && last) {
      const values = fields.get(last.name)!;
      values[last.index] = `${values[last.index]} ${line.trim()}`;
      continue;
    }
    const colon = line.indexOf(":");
    if (colon <= 0) {
      last = null;
      continue;
    }
    const name = line.slice(0, colon).trim().toLowerCase();
    if (!/^[\x21-\x39\x3b-\x7e]+$/.test(name)) {
      last = null;
      continue;
    }
    const values = fields.get(name) ?? [];
    values.push(line.slice(colon + 1).trim());
    fields.set(name, values);
    last = { name, index: values.length - 1 };
  }
  return fields;
}

const first = (fields: Fields, name: string): string | undefined => fields.get(name)?.[0];

/** The blocks of a delivery-status part: the per-message fields, then one per recipient. */
function statusBlocks(text: string): Fields[] {
  return text
    .replace(/\r\n/g, "\n")
    .split(/\n[ \t]*\n/)
    .map((block) => block.trim())
    .filter((block) => block.length > 0)
    .map(readFields);
}

/** The header section of a returned message (everything up to its first empty line). */
function headerSection(content: string): string {
  const end = content.search(/\r?\n\r?\n/);
  return end === -1 ? content : content.slice(0, end);
}

/** A delivery key written as a header value or a Message-ID's local part, if it is one of ours. */
function deliveryKeyIn(value: string | undefined): string | null {
  if (!value) return null;
  const text = value.trim().replace(/^<|>$/g, "");
  const local = text.includes("@") ? text.slice(0, text.indexOf("@")) : text;
  return parseDeliveryId(local) ? local : null;
}

/** The delivery a returned message's headers name: X-CRM-Delivery-Id, else the Message-ID. */
function deliveryFromHeaders(fields: Fields): string | null {
  return deliveryKeyIn(first(fields, "x-crm-delivery-id")) ?? deliveryKeyIn(first(fields, "message-id"));
}

/** The message after its own header section. */
function bodyOf(text: string): string {
  const end = text.search(/\r?\n\r?\n/);
  return end === -1 ? "" : text.slice(end);
}

/**
 * A delivery named by a header line quoted anywhere in a text (the returned message inside the
 * report, or a plain bounce's copy, quoted with "> " or indented): X-CRM-Delivery-Id first.
 */
function deliveryQuotedIn(text: string): string | null {
  const line = (name: string) => new RegExp(`^[ \\t>]*${name}:[ \\t]*(\\S+)`, "gim");
  for (const name of ["X-CRM-Delivery-Id", "Message-ID"]) {
    for (const m of text.matchAll(line(name))) {
      const key = deliveryKeyIn(m[1]);
      if (key) return key;
    }
  }
  return null;
}

/** A VERP address (local+deliveryKey@domain) among the addresses the report was sent to. */
function deliveryFromVerp(addresses: string[]): string | null {
  for (const address of addresses) {
    const m = /^[^@+\s]+\+([^@\s]+)@/.exec(address.trim().replace(/^<|>$/g, ""));
    const key = m ? deliveryKeyIn(m[1]) : null;
    if (key) return key;
  }
  return null;
}

function addressesOf(value: AddressObject | AddressObject[] | undefined): string[] {
  const list = Array.isArray(value) ? value : value ? [value] : [];
  return list.flatMap((a) => a.value.map((v) => v.address ?? "")).filter((a) => a !== "");
}

/** "rfc822; someone@example.com" → someone@example.com (any address type: the text after ";"). */
function typedValue(value: string | undefined): string {
  if (!value) return "";
  const semi = value.indexOf(";");
  return (semi === -1 ? value : value.slice(semi + 1)).trim().replace(/^<|>$/g, "");
}

function clip(text: string): string {
  const one = text.replace(/\s+/g, " ").trim();
  return one.length > DETAILS_MAX ? `${one.slice(0, DETAILS_MAX - 1)}…` : one;
}

/**
 * The receipt's kind for a failure's enhanced status code and reply code, by the rule the send
 * uses (bounceKind): an address that does not work (5.1.x, or 550/551/553 without an enhanced
 * code) bounces; any other failure is a soft bounce.
 */
/** A plain address, as a report names its recipient (a redacted one is not). */
const isAddress = (value: string | undefined): value is string =>
  value !== undefined && /^[^\s@<>]+@[^\s@<>]+\.[^\s@<>]+$/.test(value);

function bounceEvent(enhanced: string | undefined, reply: string | undefined): "bounced" | "soft-bounced" | null {
  const kind = bounceKind(enhanced, reply === undefined ? undefined : Number(reply));
  return kind === "hard" ? "bounced" : kind === "soft" ? "soft-bounced" : null;
}

export async function readBounceReport(raw: Buffer, now = Date.now()): Promise<ReportReading> {
  let mail;
  try {
    mail = await simpleParser(raw, {
      keepDeliveryStatus: true,
      skipHtmlToText: true,
      skipTextToHtml: true,
      skipImageLinks: true,
      skipTextLinks: true,
    });
  } catch (error) {
    return { kind: "unrecognised", receipts: [], note: `Not a readable message: ${(error as Error).message}` };
  }

  const reportId = mail.messageId?.trim() || `sha256:${createHash("sha256").update(raw).digest("hex")}`;
  const dated = mail.date?.getTime();
  const at = dated !== undefined && Number.isFinite(dated) && dated <= now + FUTURE_SLACK_MS ? dated : now;
  const parts = mail.attachments.map((a) => ({ type: a.contentType.toLowerCase(), text: a.content.toString("utf8") }));

  // The returned message's headers: a part of its own (as an attachment, decoded), else the body's
  // text as it came (an inline message/rfc822 is not kept as a part; a plain bounce quotes them).
  let delivery: string | null = null;
  for (const part of parts) {
    if (ORIGINAL_PARTS.has(part.type)) delivery ??= deliveryFromHeaders(readFields(headerSection(part.text)));
  }
  delivery ??= deliveryQuotedIn(bodyOf(raw.toString("utf8")));
  const recipients = [
    ...addressesOf(mail.to),
    ...(mail.headers.get("delivered-to") ? [String(mail.headers.get("delivered-to"))] : []),
    ...(mail.headers.get("x-original-to") ? [String(mail.headers.get("x-original-to"))] : []),
  ];
  const verp = deliveryFromVerp(recipients);

  const feedback = parts.find((p) => p.type === FEEDBACK_PART);
  if (feedback) {
    const fields = readFields(feedback.text);
    const type = (first(fields, "feedback-type") ?? "").toLowerCase();
    const id = delivery ?? verp;
    if (!id)
      return {
        kind: "unrecognised",
        receipts: [],
        note: `An abuse report (${type || "no type"}) about a message that is not one of ours`,
      };
    if (!COMPLAINT_TYPES.has(type))
      return { kind: "arf", receipts: [], note: `An abuse report of type "${type}" for ${id}: not a complaint` };
    const reporter =
      first(fields, "user-agent") ??
      first(fields, "reporting-mta") ??
      addressesOf(mail.from)[0] ??
      "a mailbox provider";
    const complainant = typedValue(first(fields, "original-rcpt-to"));
    return {
      kind: "arf",
      receipts: [
        {
          id,
          event: "complained",
          at,
          details: clip(`Marked as spam (${type} report from ${typedValue(reporter) || reporter})`) + SUFFIX,
          source: "imap",
          eventId: complainant ? `${reportId} ${complainant}` : reportId,
          ...(isAddress(complainant) ? { email: complainant } : {}),
        },
      ],
      note: `A complaint (${type}) for ${id}`,
    };
  }

  const status = parts.find((p) => STATUS_PARTS.has(p.type));
  if (status) {
    const [perMessage, ...perRecipient] = statusBlocks(status.text);
    const id = delivery ?? deliveryKeyIn(perMessage ? first(perMessage, "x-original-message-id") : undefined) ?? verp;
    if (!id)
      return {
        kind: "unrecognised",
        receipts: [],
        note: "A delivery status notification about a message that is not one of ours",
      };
    const receipts: Receipt[] = [];
    const notes: string[] = [];
    for (const fields of perRecipient) {
      const action = (first(fields, "action") ?? "").toLowerCase();
      const code = /^[245]\.\d{1,3}\.\d{1,3}/.exec(first(fields, "status") ?? "");
      const recipient = typedValue(first(fields, "final-recipient") ?? first(fields, "original-recipient"));
      const diagnostic = typedValue(first(fields, "diagnostic-code"));
      if (action !== "failed") {
        notes.push(`${action || "no action"}${action === "delayed" ? " (still trying: not counted)" : ""}`);
        continue;
      }
      // A failure without a usable Status: the reply code of the diagnostic decides.
      const event = bounceEvent(
        code?.[0] ?? /\b([45]\.\d{1,3}\.\d{1,3})\b/.exec(diagnostic)?.[1],
        /^(?:smtp;\s*)?([45]\d\d)\b/i.exec(diagnostic)?.[1],
      );
      if (!event) {
        notes.push(`failed with no status`);
        continue;
      }
      const reason = diagnostic || `${code?.[0] ?? ""} ${action}`.trim();
      receipts.push({
        id,
        event,
        at,
        details: clip(reason) + SUFFIX,
        source: "imap",
        eventId: recipient ? `${reportId} ${recipient}` : reportId,
        // The address the report names: a report about another recipient of the message's key is
        // not applied (anyone can mail the bounce mailbox; keys are not secret).
        ...(isAddress(recipient) ? { email: recipient } : {}),
      });
      notes.push(`${event} ${code?.[0] ?? ""}`.trim());
    }
    return {
      kind: "dsn",
      receipts,
      note: `A delivery status notification for ${id}: ${notes.join(", ") || "no recipients"}`,
    };
  }

  // Not a report: a plain-text bounce that quotes the original's headers, or nothing of ours.
  const sender = addressesOf(mail.from)[0] ?? "";
  if (!DAEMON_SENDER.test(sender) && !BOUNCE_SUBJECT.test(mail.subject ?? "")) {
    return { kind: "unrecognised", receipts: [], note: `Not a bounce or complaint: "${clip(mail.subject ?? "")}"` };
  }
  const text = mail.text ?? "";
  const id = delivery ?? deliveryQuotedIn(text) ?? verp;
  if (!id) return { kind: "unrecognised", receipts: [], note: "A bounce about a message that is not one of ours" };
  const enhanced = /\b[45]\.\d{1,3}\.\d{1,3}\b/.exec(text);
  const reply = /(?:^|\s)([45]\d\d)[ -]/m.exec(text);
  const event = bounceEvent(enhanced?.[0], reply?.[1]) ?? "soft-bounced";
  const matched = enhanced ?? reply;
  const line = matched
    ? text.slice(text.lastIndexOf("\n", matched.index) + 1).split("\n")[0]
    : "Returned as undeliverable";
  return {
    kind: "plain-bounce",
    receipts: [{ id, event, at, details: clip(line) + SUFFIX, source: "imap", eventId: reportId }],
    note: `A plain-text bounce for ${id}: ${event}`,
  };
}
