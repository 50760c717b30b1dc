// How single settings' values are read (for the settings' schema, env-schema.server.ts, and
// getEnv, env.server.ts): yes/no words, a mailbox ("CRM <news@example.com>"), the bounce
// mailbox's imap(s):// URL, an SNS topic's ARN, a regular expression, SendGrid's public key, and
// the default number of HTTP workers.
import { createPublicKey } from "node:crypto";
import { z } from "zod";

/**
 * Worker processes serving HTTP when WEB_CONCURRENCY is not set: one per core but one, at most 4,
 * at least 1. The core left over runs the background threads (campaign delivery, launches, CSV
 * imports); on 2 cores a second HTTP worker only fought them for it (decision 0006, figures).
 */
export function defaultWebConcurrency(cores: number): number {
  return Math.max(1, Math.min(4, cores - 1));
}

/** A yes/no setting: true, 1, yes, on (and their opposites; empty is no). */
export const booleanish = z
  .enum(["true", "false", "1", "0", "yes", "no", "on", "off", ""])
  .transform((v) => ["true", "1", "yes", "on"].includes(v));

/** A display name and an e-mail address, as in "CRM <news@example.com>". */
export type Mailbox = { name: string; address: string };

const emailSchema = z.email();

/** Whether the text is one plain e-mail address (no display name). */
export function isEmailAddress(value: string): boolean {
  return emailSchema.safeParse(value).success;
}

/**
 * Reads "Name <address>", "\"Name, Inc.\" <address>" or a bare address; null for anything else
 * (two addresses, a line break, an address that is not one).
 */
export function parseMailbox(value: string): Mailbox | null {
  if (/[\r\n]/.test(value)) return null;
  const text = value.trim();
  const angled = /^(.*?)\s*<([^<>\s]+)>$/.exec(text);
  const address = angled ? angled[2] : text;
  // A single-label host (news@localhost) is allowed too: a relay on the same machine may take it.
  if (!isEmailAddress(address) && !/^[^\s@<>",;:]+@[A-Za-z0-9-]+$/.test(address)) return null;
  let name = angled ? angled[1].trim() : "";
  if (/^".*"$/.test(name)) name = name.slice(1, -1).replace(/\\(.)/g, "$1");
  else if (/[<>"]/.test(name)) return null;
  return { name: name.trim(), address };
}

/** An SNS topic's ARN: arn:aws:sns:<region>:<account>:<name> (aws-cn, aws-us-gov partitions too). */
export const SNS_TOPIC_ARN = /^arn:aws(-[a-z]+)*:sns:[a-z0-9-]+:\d{12}:[A-Za-z0-9_.-]{1,256}$/;

/** Whether the text compiles as a regular expression. */
export function isRegExp(value: string): boolean {
  try {
    new RegExp(value);
    return true;
  } catch {
    return false;
  }
}

/** Whether the text is base64 DER (SPKI) of an ECDSA P-256 public key, the form SendGrid shows. */
export function isP256PublicKey(value: string): boolean {
  const text = value.trim();
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(text)) return false;
  try {
    const key = createPublicKey({ key: Buffer.from(text, "base64"), format: "der", type: "spki" });
    return key.asymmetricKeyType === "ec" && key.asymmetricKeyDetails?.namedCurve === "prime256v1";
  } catch {
    return false;
  }
}

/** BOUNCE_MAILBOX_URL read: imaps:// is TLS from the start, imap:// upgrades with STARTTLS. */
export type MailboxUrl = {
  secure: boolean;
  host: string;
  port: number;
  user: string;
  password: string;
  mailbox: string;
};

/** imap(s)://user:password@host[:port][/mailbox] (user and password percent-encoded); null for anything else. */
export function readMailboxUrl(value: string): MailboxUrl | null {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return null;
  }
  if (url.protocol !== "imap:" && url.protocol !== "imaps:") return null;
  if (!url.hostname || !url.username || !url.password || url.search || url.hash) return null;
  try {
    const mailbox = decodeURIComponent(url.pathname.replace(/^\//, "")) || "INBOX";
    const secure = url.protocol === "imaps:";
    return {
      secure,
      host: url.hostname.replace(/^\[|\]$/g, ""),
      port: url.port ? Number(url.port) : secure ? 993 : 143,
      user: decodeURIComponent(url.username),
      password: decodeURIComponent(url.password),
      mailbox,
    };
  } catch {
    return null; // a malformed percent-escape
  }
}
