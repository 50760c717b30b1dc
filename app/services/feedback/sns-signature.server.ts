// Amazon SNS message signatures, checked the way AWS documents (docs/decisions/0026):
//
// - the string to sign is "Name\nValue\n" for each of the message type's fields, in this order:
//   a Notification's Message, MessageId, Subject (only when the message has one), Timestamp,
//   TopicArn, Type; a (Un)SubscriptionConfirmation's Message, MessageId, SubscribeURL, Timestamp,
//   Token, TopicArn, Type;
// - SignatureVersion 1 is RSA with SHA-1 over it, 2 RSA with SHA-256; Signature is base64;
// - the public key is in the X.509 certificate at SigningCertURL, which must be https:// on a host
//   SNS_CERT_HOST_PATTERN allows (by default sns.<region>.amazonaws.com) and end in .pem; it is
//   fetched over HTTPS (so TLS vouches for the host), parsed, and kept (certificates do not change
//   under a URL; SNS moves to a new URL when it rotates its key).
import { X509Certificate, createVerify, type KeyObject } from "node:crypto";
import https from "node:https";
import type { SnsMessage } from "~/schemas/feedback-webhooks";

/** The fields each message type signs, in the order they are signed. */
const SIGNED_FIELDS = {
  Notification: ["Message", "MessageId", "Subject", "Timestamp", "TopicArn", "Type"],
  SubscriptionConfirmation: ["Message", "MessageId", "SubscribeURL", "Timestamp", "Token", "TopicArn", "Type"],
  UnsubscribeConfirmation: ["Message", "MessageId", "SubscribeURL", "Timestamp", "Token", "TopicArn", "Type"],
} as const satisfies Record<SnsMessage["Type"], readonly (keyof SnsMessage)[]>;

const ALGORITHM: Record<string, string> = { "1": "RSA-SHA1", "2": "RSA-SHA256" };

/** Certificates kept (by URL); the oldest goes when a new one would pass this. */
const MAX_CERTIFICATES = 32;
/** A signing certificate is about 2 KB; an answer larger than this is not one. */
const MAX_CERTIFICATE_BYTES = 64 * 1024;
const FETCH_TIMEOUT_MS = 5_000;

/**
 * The text SNS signed for this message, or null when a field it signs is missing (a Notification
 * signs Subject only when it has one).
 */
export function snsStringToSign(message: SnsMessage): string | null {
  let text = "";
  for (const field of SIGNED_FIELDS[message.Type]) {
    const value = message[field];
    if (value === undefined || value === null) {
      if (field === "Subject") continue;
      return null;
    }
    text += `${field}\n${value}\n`;
  }
  return text;
}

/**
 * Why an SNS URL (SigningCertURL, SubscribeURL) is not one to fetch, or null when it is: it must be
 * https://, without a user name, on a host the pattern allows.
 */
export function snsUrlProblem(value: string, hostPattern: RegExp): string | null {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return "is not a URL";
  }
  if (url.protocol !== "https:") return "is not https://";
  if (url.username || url.password) return "carries a user name";
  if (!hostPattern.test(url.hostname)) return `is on ${url.hostname}, which is not an Amazon SNS host`;
  return null;
}

/** GET over HTTPS (never plain HTTP): the answer's text when it is a 200 of at most `maxBytes`. */
export function httpsGet(url: string, maxBytes = MAX_CERTIFICATE_BYTES): Promise<string> {
  return new Promise((resolve, reject) => {
    if (!url.startsWith("https://")) {
      reject(new Error("only https:// is fetched"));
      return;
    }
    const request = https.get(url, { timeout: FETCH_TIMEOUT_MS }, (response) => {
      if (response.statusCode !== 200) {
        response.resume();
        reject(new Error(`answered ${response.statusCode ?? "nothing"}`));
        return;
      }
      const chunks: Buffer[] = [];
      let size = 0;
      response.on("data", (chunk: Buffer) => {
        size += chunk.length;
        if (size > maxBytes) {
          request.destroy(new Error(`answered more than ${maxBytes} bytes`));
          return;
        }
        chunks.push(chunk);
      });
      response.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
      response.on("error", reject);
    });
    request.on("timeout", () => request.destroy(new Error(`did not answer within ${FETCH_TIMEOUT_MS} ms`)));
    request.on("error", reject);
  });
}

const certificates = new Map<string, Promise<KeyObject>>();

/** The RSA public key of the certificate at `url`, fetched once and kept. */
function signingKey(url: string): Promise<KeyObject> {
  let key = certificates.get(url);
  if (!key) {
    if (certificates.size >= MAX_CERTIFICATES) certificates.delete(certificates.keys().next().value as string);
    key = httpsGet(url).then((pem) => {
      const certificate = new X509Certificate(pem);
      const now = Date.now();
      if (now < Date.parse(certificate.validFrom) || now > Date.parse(certificate.validTo)) {
        throw new Error("the certificate is not valid now");
      }
      if (certificate.publicKey.asymmetricKeyType !== "rsa") throw new Error("the certificate's key is not RSA");
      return certificate.publicKey;
    });
    certificates.set(url, key);
    // A failed fetch is not kept: the next message tries again.
    key.catch(() => {
      if (certificates.get(url) === key) certificates.delete(url);
    });
  }
  return key;
}

/** Forgets the kept certificates (tests that serve a new one under the same URL). */
export function forgetSnsCertificates(): void {
  certificates.clear();
}

export type SnsVerdict = { ok: true } | { ok: false; reason: string };

/** Whether SNS signed this message: its signature fields, the certificate's URL and the signature itself. */
export async function verifySnsMessage(message: SnsMessage, certHostPattern: RegExp): Promise<SnsVerdict> {
  const { Signature, SignatureVersion, SigningCertURL } = message;
  if (!Signature || !SignatureVersion || !SigningCertURL) return { ok: false, reason: "The message is not signed" };
  const algorithm = ALGORITHM[SignatureVersion];
  if (!algorithm) return { ok: false, reason: `SignatureVersion ${SignatureVersion} is not 1 or 2` };
  const urlProblem = snsUrlProblem(SigningCertURL, certHostPattern);
  if (urlProblem) return { ok: false, reason: `SigningCertURL ${urlProblem}` };
  if (!new URL(SigningCertURL).pathname.endsWith(".pem"))
    return { ok: false, reason: "SigningCertURL is not a .pem certificate" };
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(Signature)) return { ok: false, reason: "Signature is not base64" };
  const signed = snsStringToSign(message);
  if (signed === null) return { ok: false, reason: `A field the ${message.Type} signs is missing` };
  let key: KeyObject;
  try {
    key = await signingKey(SigningCertURL);
  } catch (error) {
    return { ok: false, reason: `The signing certificate could not be read: ${(error as Error).message}` };
  }
  const good = createVerify(algorithm).update(signed, "utf8").verify(key, Buffer.from(Signature, "base64"));
  return good ? { ok: true } : { ok: false, reason: "The signature does not match the message" };
}
