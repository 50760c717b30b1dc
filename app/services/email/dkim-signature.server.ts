// DKIM signatures (RFC 6376): rsa-sha256, relaxed/relaxed, over the headers DKIM_SIGNED_HEADERS
// names that the message has (both one-click unsubscribe headers among them, RFC 8058 section 4).
// The work is split so that the costly part can go to another thread: the body hash and the data
// to sign (canonical headers and the signature's own header without b=) are cheap and made where
// the message is built; the RSA signature of that data (about 0.4 ms with a parsed key) is made by
// a `Signer`: `signInThread` here, or the worker pool of dkim-signing-threads.server.ts. The private key is
// parsed once into a KeyObject: a PEM string parsed for every message cost three times the signature.
import { createHash, createPrivateKey, type KeyObject, sign } from "node:crypto";
import type { DkimSigningKey } from "~/services/email/dkim-keys.server";

/**
 * The headers a DKIM signature covers: those RFC 6376 5.4 says to sign that a campaign message
 * has, and both one-click unsubscribe headers, which RFC 8058 requires to be signed.
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

const SIGNED = DKIM_SIGNED_HEADERS.split(":");

/**
 * The headers named once more in h= than the message has them (RFC 6376 8.15): a copy added on
 * the way (a second From or Subject, which some readers show instead of the signed one) then
 * breaks the signature instead of riding on it. Reply-To too, so none can be added.
 */
export const DKIM_OVERSIGNED_HEADERS = [
  "From",
  "Reply-To",
  "Subject",
  "To",
  "Date",
  "Message-ID",
  "MIME-Version",
  "Content-Type",
  "List-Unsubscribe",
  "List-Unsubscribe-Post",
];
const OVERSIGNED = new Set(DKIM_OVERSIGNED_HEADERS.map((n) => n.toLowerCase()));

/** Signs the data with the key: the base64 RSA-SHA256 signature. */
export type Signer = (data: string) => Promise<string>;

/** The relaxed canonical body (RFC 6376 3.4.4) of a CRLF body. */
export function relaxedBody(body: string): string {
  let canonical = body;
  // Plain string searches: a message's body usually has none of these, and four of them are
  // several times quicker over a 4 KB body than one regular expression with alternatives.
  if (canonical.includes(" \r\n") || canonical.includes("  ") || canonical.includes("\t") || canonical.endsWith(" ")) {
    canonical = canonical.replace(/[ \t]+(?=\r\n|$)/g, "").replace(/[ \t]+/g, " ");
  }
  // No empty lines at the end; a body that is not empty ends with one CRLF.
  let end = canonical.length;
  while (end >= 2 && canonical.charCodeAt(end - 2) === 13 && canonical.charCodeAt(end - 1) === 10) end -= 2;
  return end === 0 ? "" : `${canonical.slice(0, end)}\r\n`;
}

/** bh=: the base64 SHA-256 of the relaxed canonical body. */
export function bodyHash(body: string): string {
  return createHash("sha256").update(relaxedBody(body), "latin1").digest("base64");
}

/** One header field in relaxed canonical form (RFC 6376 3.4.2), without the CRLF. */
export function relaxedHeader(field: string): string {
  const colon = field.indexOf(":");
  const name = field.slice(0, colon).trim().toLowerCase();
  let value = field.slice(colon + 1);
  // Most fields are one line with single spaces: only the unfolding and the collapsing they need.
  if (value.includes("\r\n")) value = value.replace(/\r\n(?=[ \t])/g, "");
  if (value.includes("\t") || value.includes("  ")) value = value.replace(/[ \t]+/g, " ");
  return `${name}:${value.trim()}`;
}

/** The fields of a CRLF header block, folded lines kept with their field. */
export function headerFields(headers: string): string[] {
  return headers.split(/\r\n(?![ \t])/);
}

/** A key made ready to sign with: the PEM parsed once. */
export type DkimKey = { domainName: string; keySelector: string; privateKey: KeyObject };

export function dkimKey(key: DkimSigningKey): DkimKey {
  return { domainName: key.domainName, keySelector: key.keySelector, privateKey: createPrivateKey(key.privateKey) };
}

/** What to sign for a message, and the DKIM-Signature field it goes into. */
export type DkimInput = {
  /** The canonical signed headers and the signature's own field with an empty b=. */
  data: string;
  /** The DKIM-Signature field up to "b=" (folded), to which the signature is added. */
  field: string;
};

/** The data to sign for a message (header block and body as they will be sent). */
export function dkimInput(key: Pick<DkimKey, "domainName" | "keySelector">, headers: string, body: string): DkimInput {
  const byName = new Map<string, string[]>();
  for (const field of headerFields(headers)) {
    const name = field.slice(0, field.indexOf(":")).trim().toLowerCase();
    const fields = byName.get(name);
    if (fields) fields.push(field);
    else byName.set(name, [field]);
  }
  const names: string[] = [];
  let data = "";
  for (const name of SIGNED) {
    const lower = name.toLowerCase();
    const fields = byName.get(lower) ?? [];
    // Each instance, the last first (RFC 6376 5.4.2); an over-signed name once more, which
    // matches no field and so signs that there is no other.
    for (let i = fields.length - 1; i >= 0; i--) {
      names.push(name);
      data += `${relaxedHeader(fields[i])}\r\n`;
    }
    if (OVERSIGNED.has(lower)) names.push(name);
  }
  const field =
    `DKIM-Signature: v=1; a=rsa-sha256; c=relaxed/relaxed; d=${key.domainName};\r\n` +
    ` s=${key.keySelector}; bh=${bodyHash(body)};\r\n` +
    ` h=${names.join(":")};\r\n b=`;
  return { data: data + relaxedHeader(field), field };
}

/** The DKIM-Signature field with its signature, b= folded in lines of 72. */
export function signatureField(input: DkimInput, signature: string): string {
  let folded = "";
  for (let i = 0; i < signature.length; i += 72) folded += (i > 0 ? "\r\n " : "") + signature.slice(i, i + 72);
  return input.field + folded;
}

/** Signs in this thread (tests, and a small volume). */
export function signInThread(key: DkimKey): Signer {
  return async (data) => sign("sha256", Buffer.from(data, "latin1"), key.privateKey).toString("base64");
}

/** A header block with its DKIM-Signature field first, signed by `signer`. */
export async function signHeaders(
  key: Pick<DkimKey, "domainName" | "keySelector">,
  signer: Signer,
  headers: string,
  body: string,
): Promise<string> {
  const input = dkimInput(key, headers, body);
  return `${signatureField(input, await signer(input.data))}\r\n${headers}`;
}
