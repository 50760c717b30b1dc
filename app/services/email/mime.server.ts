// A campaign message as it goes over SMTP (RFC 5322 + MIME), built from what the delivery engine
// rendered: multipart/alternative with the text part and the HTML part. Everything produced is
// 7-bit ASCII in CRLF lines of at most 998 characters, so it passes any relay unchanged and its
// DKIM signature (dkim-signature.server.ts) holds:
// - a part that is ASCII with short enough lines goes as it is (7bit); one with a little that is
//   not ASCII, or a line too long, as quoted-printable; one mostly not ASCII (Hindi, say) as base64,
//   which is then the shorter;
// - a display name or subject that is not ASCII becomes RFC 2047 encoded words (UTF-8, B), folded
//   between words; an ASCII name with specials is a quoted string. headerSafe (no control
//   characters, so no CR/LF) is the caller's: the channel passes only what went through it;
// - Message-ID is `<deliveryId@sender-domain>`, so a message sent again after a crash is the same
//   message to every server that sees it; the boundary is made from the delivery id too.
// Dot-stuffing is the SMTP client's (smtp-client.server.ts): it is about the transfer, not the message.

export type MailAddress = { name: string; address: string };

export type MimeMessage = {
  /** The delivery id: the Message-ID's left part and X-CRM-Delivery-Id. */
  id: string;
  from: MailAddress;
  to: MailAddress;
  replyTo?: string | null;
  subject: string;
  text: string;
  html: string;
  /** The one-click unsubscribe URL (List-Unsubscribe, with List-Unsubscribe-Post, RFC 8058). */
  unsubscribeUrl: string;
  /** A mailbox for the mailto: form of List-Unsubscribe. */
  unsubscribeMailbox?: string | null;
  date?: Date;
};

/** The header block (CRLF between fields, none after the last) and the body, ready to sign and send. */
export type BuiltMessage = { headers: string; body: string };

const MAX_LINE = 998;
const FOLD_AT = 78;
const NOT_PRINTABLE = /[^\x20-\x7e]/;
/** What a 7bit part may not have: anything but printable ASCII, tabs and line breaks (one pass for both checks). */
const NOT_7BIT_TEXT = /[^\t\n\r\x20-\x7e]/;
/** atext and spaces: a display name that needs no quoting (RFC 5322 3.2.3). */
const PLAIN_PHRASE = /^[A-Za-z0-9!#$%&'*+\-/=?^_`{|}~ ]*$/;

/** Lines end in CRLF: a lone LF or CR becomes CRLF. */
export function toCrlf(text: string): string {
  if (!text.includes("\r")) return text.includes("\n") ? text.replace(/\n/g, "\r\n") : text;
  return text.replace(/\r\n|\r|\n/g, "\r\n");
}

/** RFC 2047 encoded words (UTF-8, B) for `text`, each at most 75 characters, never splitting a character. */
export function encodedWords(text: string): string[] {
  const words: string[] = [];
  let chunk = "";
  let bytes = 0;
  for (const ch of text) {
    const size = Buffer.byteLength(ch, "utf8");
    // 39 bytes are 52 base64 characters: "=?UTF-8?B?" + 52 + "?=" is 64, so "Subject: " and one fit in 78.
    if (bytes + size > 39) {
      words.push(`=?UTF-8?B?${Buffer.from(chunk, "utf8").toString("base64")}?=`);
      chunk = "";
      bytes = 0;
    }
    chunk += ch;
    bytes += size;
  }
  if (chunk !== "" || words.length === 0) words.push(`=?UTF-8?B?${Buffer.from(chunk, "utf8").toString("base64")}?=`);
  return words;
}

/** Whether a header text must be encoded: not ASCII, or it would read as an encoded word. */
const needsEncoding = (text: string) => NOT_PRINTABLE.test(text) || text.includes("=?");

/** A display name as a header shows it: as it is, quoted, or encoded words. */
export function displayName(name: string): string {
  if (needsEncoding(name)) return encodedWords(name).join(" ");
  if (PLAIN_PHRASE.test(name)) return name;
  return `"${name.replace(/[\\"]/g, "\\$&")}"`;
}

/** `Name <address>`, or the address alone when there is no name. */
export function mailbox({ name, address }: MailAddress): string {
  return name ? `${displayName(name)} <${address}>` : address;
}

/**
 * One header field, folded (CRLF + space) at spaces so lines stay near 78 characters; a run with
 * no space stays whole (it must be under 998: the caller's values are).
 */
export function headerField(name: string, value: string): string {
  const line = `${name}: ${value}`;
  if (line.length <= FOLD_AT) return line;
  let out = "";
  let rest = line;
  // Never fold right after the field name's colon: the first line has the name and a word at least.
  let least = name.length + 1;
  while (rest.length > FOLD_AT) {
    let at = rest.lastIndexOf(" ", FOLD_AT);
    if (at <= least) at = rest.indexOf(" ", FOLD_AT + 1);
    if (at < 0) break;
    least = 0;
    out += `${rest.slice(0, at)}\r\n`;
    rest = rest.slice(at);
  }
  return out + rest;
}

/** The Subject's value: as it is when printable ASCII, else encoded words. */
function subjectValue(subject: string): string {
  return needsEncoding(subject) ? encodedWords(subject).join(" ") : subject;
}

/** RFC 5322 date in UTC, like "Thu, 26 Nov 2026 07:13:54 +0000". */
export function rfc5322Date(date: Date): string {
  return date.toUTCString().replace(/GMT$/, "+0000");
}

type Encoded = { encoding: "7bit" | "quoted-printable" | "base64"; body: string };

const QP_AS_IS = /^(?:[\x21-\x3c\x3e-\x7e \t]*[\x21-\x3c\x3e-\x7e])?$/;

/** One byte (a character of a latin1 string) as quoted-printable's =XX. */
const qpByte = (c: string) => `=${c.charCodeAt(0).toString(16).toUpperCase().padStart(2, "0")}`;

/** Quoted-printable (RFC 2045 6.7) of CRLF text: soft breaks at 76, trailing spaces encoded. */
export function quotedPrintable(text: string): string {
  // Its UTF-8 bytes, one character each (a character beyond ASCII is then bytes over 0x7e).
  const lines = Buffer.from(text, "utf8").toString("latin1").split("\r\n");
  const out: string[] = [];
  for (const line of lines) {
    if (QP_AS_IS.test(line)) {
      // Printable ASCII without "=" and not ending in a space: only soft breaks are needed.
      let at = 0;
      while (line.length - at > 76) {
        out.push(`${line.slice(at, at + 75)}=`);
        at += 75;
      }
      out.push(at === 0 ? line : line.slice(at));
      continue;
    }
    // "=" as =3D, then every other byte but printable ASCII (and a space or tab inside the line) as
    // =XX, then soft breaks, never inside an =XX: whole-string passes, as a byte-by-byte loop cost
    // 0.8 ms for the 22 KB of MJML's HTML, which has an "=" on nearly every line.
    let encoded = line.replaceAll("=", "=3D");
    if (NOT_QP_SAFE.test(encoded)) encoded = encoded.replace(NOT_QP_SAFE_ALL, qpByte);
    if (encoded.endsWith(" ") || encoded.endsWith("\t")) encoded = encoded.slice(0, -1) + qpByte(encoded.slice(-1));
    let at = 0;
    while (encoded.length - at > 75) {
      let cut = at + 75;
      if (encoded[cut - 1] === "=") cut -= 1;
      else if (encoded[cut - 2] === "=") cut -= 2;
      out.push(`${encoded.slice(at, cut)}=`);
      at = cut;
    }
    out.push(encoded.slice(at));
  }
  return out.join("\r\n");
}

/** A byte quoted-printable writes as =XX once "=" is written as =3D: not printable ASCII, space or tab. */
const NOT_QP_SAFE = /[^\x21-\x7e \t]/;
const NOT_QP_SAFE_ALL = /[^\x21-\x7e \t]/g;

/** Base64 in lines of 76. */
function base64Lines(text: string): string {
  const b64 = Buffer.from(text, "utf8").toString("base64");
  const lines: string[] = [];
  for (let i = 0; i < b64.length; i += 76) lines.push(b64.slice(i, i + 76));
  return lines.join("\r\n");
}

/** Whether a CRLF text has a line longer than the limit. */
function hasLongLine(text: string, limit: number): boolean {
  if (text.length <= limit) return false;
  let start = 0;
  for (;;) {
    const end = text.indexOf("\r\n", start);
    if ((end < 0 ? text.length : end) - start > limit) return true;
    if (end < 0) return false;
    start = end + 2;
  }
}

/**
 * The cheapest encoding that keeps a part 7-bit with lines under 998 and keeps the boundary out:
 * as it is, quoted-printable, or base64 when more than a third of its characters are not ASCII.
 */
export function encodePart(text: string, boundary: string): Encoded {
  const crlf = toCrlf(text);
  if (!NOT_7BIT_TEXT.test(crlf) && !hasLongLine(crlf, MAX_LINE) && !crlf.includes(boundary)) {
    return { encoding: "7bit", body: crlf };
  }
  let nonAscii = 0;
  for (let i = 0; i < crlf.length; i++) if (crlf.charCodeAt(i) > 127) nonAscii++;
  if (nonAscii * 3 > crlf.length) return { encoding: "base64", body: base64Lines(crlf) };
  return { encoding: "quoted-printable", body: oneByte(quotedPrintable(crlf)) };
}

/**
 * ASCII text held in one byte a character. Pieces cut from text that had a character beyond
 * Latin-1 (a dash, a Hindi name) stay two bytes a character in V8 even when they are plain ASCII,
 * and so would the whole message they are joined into: every later pass over it (the body hash,
 * dot-stuffing, the socket's encoding) is then several times slower.
 */
function oneByte(ascii: string): string {
  return Buffer.from(ascii, "latin1").toString("latin1");
}

function part(type: string, encoded: Encoded): string {
  return `Content-Type: ${type}; charset=utf-8\r\nContent-Transfer-Encoding: ${encoded.encoding}\r\n\r\n${encoded.body}`;
}

/** The message's header block and body (multipart/alternative, text then HTML). */
export function buildMessage(m: MimeMessage): BuiltMessage {
  const domain = m.from.address.slice(m.from.address.lastIndexOf("@") + 1).toLowerCase();
  // "=_" never occurs in quoted-printable or base64, and a 7bit part that has it is not sent as 7bit.
  const boundary = `=_crm_${m.id}`;
  const mailto = m.unsubscribeMailbox ? `, <mailto:${m.unsubscribeMailbox}?subject=unsubscribe>` : "";
  const fields = [headerField("From", mailbox(m.from)), headerField("To", mailbox(m.to))];
  if (m.replyTo) fields.push(headerField("Reply-To", m.replyTo));
  fields.push(
    headerField("Subject", subjectValue(m.subject)),
    `Date: ${rfc5322Date(m.date ?? new Date())}`,
    `Message-ID: <${m.id}@${domain}>`,
    "MIME-Version: 1.0",
    headerField("Content-Type", `multipart/alternative; boundary="${boundary}"`),
    headerField("List-Unsubscribe", `<${m.unsubscribeUrl}>${mailto}`),
    "List-Unsubscribe-Post: List-Unsubscribe=One-Click",
    `X-CRM-Delivery-Id: ${m.id}`,
  );
  const body =
    `--${boundary}\r\n${part("text/plain", encodePart(m.text, boundary))}\r\n` +
    `--${boundary}\r\n${part("text/html", encodePart(m.html, boundary))}\r\n` +
    `--${boundary}--\r\n`;
  return { headers: fields.join("\r\n"), body };
}
