// DKIM keys for the domains the product sends from (decision 0022). One key per domain, kept with
// the instance's data in `${DATA_DIR}/dkim/<domain>.json`: the directory 0700 and the file 0600, the
// server's user alone can read them (as the database and the session secret). `crm dkim generate`
// makes a key and prints the DNS records to publish; the SMTP channel loads the key of MAIL_FROM's
// domain and signs every message with it.
//
// The file holds { domain, selector, privateKey (PKCS#8 PEM), publicKey (SPKI PEM), createdAt }.
// Reading it checks all of that (the domain it names, the selector, that the public key is the
// private key's), so a damaged or misplaced file is a clear DkimKeyError naming the file and what to
// do, never a signature that no DNS record verifies.
import { createPrivateKey, createPublicKey, generateKeyPairSync, type KeyObject } from "node:crypto";
import {
  chmodSync,
  closeSync,
  linkSync,
  lstatSync,
  mkdirSync,
  openSync,
  readFileSync,
  renameSync,
  rmSync,
  writeSync,
} from "node:fs";
import path from "node:path";
import { domainToASCII } from "node:url";
import { z } from "zod";

/** A key as stored. */
export type DkimKey = {
  domain: string;
  selector: string;
  /** PKCS#8 PEM. */
  privateKey: string;
  /** SPKI PEM. */
  publicKey: string;
  /** ISO 8601. */
  createdAt: string;
};

/** What nodemailer's `dkim` option takes. */
export type DkimSigningKey = { domainName: string; keySelector: string; privateKey: string };

/** A DKIM key that cannot be used or made, with a message that says what to do. */
export class DkimKeyError extends Error {
  override name = "DkimKeyError";
}

export const DKIM_KEY_BITS = 2048;
/** Shorter RSA keys are refused by Gmail and others (RFC 8301: at least 1024, 2048 recommended). */
const MIN_KEY_BITS = 1024;

const LABEL = /^(?!-)[a-z0-9-]{1,63}(?<!-)$/;

/**
 * The domain in the form keys are stored and published under: lower case, IDN as punycode
 * (bücher.de → xn--bcher-kva.de), no trailing dot. Throws DkimKeyError for anything that is not a
 * host name, and always for path characters (the name becomes a file name).
 */
export function normaliseDomain(input: string): string {
  const raw = input.trim().replace(/\.$/, "");
  const shown = JSON.stringify(input);
  const refuse = (why: string) =>
    new DkimKeyError(`${shown} is not a domain name (${why}). Give the domain of your From address, like example.com.`);
  if (raw === "") throw refuse("it is empty");
  // ASCII other than letters, digits, hyphens and dots is never part of a host name: slashes,
  // backslashes, "%", "@", spaces and the like are refused before any conversion.
  if (/[^A-Za-z0-9.\-\u{80}-\u{10ffff}]/u.test(raw)) {
    throw refuse("only letters, digits, hyphens and dots are allowed");
  }
  const ascii = domainToASCII(raw.toLowerCase());
  if (ascii === "") throw refuse("it is not a valid international domain name");
  if (ascii.length > 253) throw refuse("it is longer than 253 characters");
  const labels = ascii.split(".");
  if (labels.length < 2) throw refuse("it needs at least two parts, like example.com");
  for (const label of labels) {
    if (!LABEL.test(label)) {
      throw refuse(
        label === ""
          ? "it has an empty part between dots"
          : `the part "${label}" must be 1 to 63 letters, digits or hyphens, not starting or ending with a hyphen`,
      );
    }
  }
  if (/^[0-9]+$/.test(labels[labels.length - 1]!)) throw refuse("it looks like an IP address");
  return ascii;
}

/**
 * A selector as DNS takes it (RFC 6376 3.1): letters, digits, hyphens and dots, each dot-separated
 * part 1 to 63 characters not starting or ending with a hyphen. Lower case.
 */
export function normaliseSelector(input: string): string {
  const selector = input.trim().toLowerCase();
  const refuse = (why: string) =>
    new DkimKeyError(
      `${JSON.stringify(input)} is not a DKIM selector (${why}). Use letters, digits and hyphens, like ${defaultSelector()}.`,
    );
  if (selector === "") throw refuse("it is empty");
  if (selector.length > 63) throw refuse("it is longer than 63 characters");
  if (!/^[a-z0-9.-]+$/.test(selector)) throw refuse("only letters, digits, hyphens and dots are allowed");
  if (!selector.split(".").every((label) => LABEL.test(label))) {
    throw refuse("a part between dots is empty or starts or ends with a hyphen");
  }
  return selector;
}

/** "crm" + year and month (UTC): crm202611. A rotation in a later month gets a new one by itself. */
export function defaultSelector(now: Date = new Date()): string {
  return `crm${now.getUTCFullYear()}${String(now.getUTCMonth() + 1).padStart(2, "0")}`;
}

export function dkimDirectory(dataDir: string): string {
  return path.join(path.resolve(dataDir), "dkim");
}

/** Where the key of `domain` lives (the domain is validated, so it cannot leave the directory). */
export function dkimKeyFile(dataDir: string, domain: string): string {
  return path.join(dkimDirectory(dataDir), `${normaliseDomain(domain)}.json`);
}

const StoredKey = z.object({
  domain: z.string(),
  selector: z.string(),
  privateKey: z.string(),
  publicKey: z.string(),
  createdAt: z.string(),
});

/**
 * The stored key of `domain`, or null when there is none. Throws DkimKeyError when the file is
 * there but cannot be read or used (names the file and what to do).
 */
export function readDkimKey(dataDir: string, domain: string): DkimKey | null {
  const name = normaliseDomain(domain);
  const file = dkimKeyFile(dataDir, name);
  const broken = (why: string) =>
    new DkimKeyError(
      `The DKIM key file ${file} ${why}. Fix or remove it, or make a new key with: crm dkim generate --domain ${name} --force`,
    );
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT") return null;
    throw broken(`cannot be read (${code ?? (error as Error).message}): it must be a file the server's user can read`);
  }
  makePrivate(file);
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw broken("is not valid JSON");
  }
  const parsed = StoredKey.safeParse(json);
  if (!parsed.success) {
    throw broken(
      `is not a DKIM key file (it needs ${Object.keys(StoredKey.shape).join(", ")}: ${parsed.error.issues
        .map((i) => `${i.path.join(".") || "the file"}: ${i.message}`)
        .join("; ")})`,
    );
  }
  const stored = parsed.data;
  if (stored.domain !== name) throw broken(`is for the domain "${stored.domain}", not ${name}`);
  try {
    normaliseSelector(stored.selector);
  } catch (error) {
    throw broken(`has a bad selector: ${(error as Error).message}`);
  }
  let privateKey: KeyObject;
  try {
    privateKey = createPrivateKey(stored.privateKey);
  } catch {
    throw broken("has a private key that is not a PEM key");
  }
  const bits = privateKey.asymmetricKeyDetails?.modulusLength ?? 0;
  if (privateKey.asymmetricKeyType !== "rsa" || bits < MIN_KEY_BITS) {
    throw broken(`has a ${privateKey.asymmetricKeyType ?? "unknown"} key of ${bits} bits, not RSA of 2048 bits`);
  }
  let publicKey: KeyObject;
  try {
    publicKey = createPublicKey(stored.publicKey);
  } catch {
    throw broken("has a public key that is not a PEM key");
  }
  if (!spkiDer(publicKey).equals(spkiDer(createPublicKey(privateKey)))) {
    throw broken("has a public key that does not belong to its private key");
  }
  return stored;
}

/**
 * The signing key of `domain` in the shape nodemailer's `dkim` option takes, or null when no key
 * was made for it. Throws DkimKeyError for a key file that is there but unusable.
 */
export function loadDkimKey(dataDir: string, domain: string): DkimSigningKey | null {
  const key = readDkimKey(dataDir, domain);
  return key && { domainName: key.domain, keySelector: key.selector, privateKey: key.privateKey };
}

export type GeneratedDkimKey = { key: DkimKey; file: string; replaced: DkimKey | null };

/**
 * Makes an RSA-2048 key pair for `domain` and stores it (0600 in a 0700 directory). Refuses to
 * replace the domain's key unless `force`: a new key breaks the signatures of mail in flight, and of
 * all mail until DNS has the new record.
 */
export function generateDkimKey(
  dataDir: string,
  domain: string,
  options: { selector?: string; force?: boolean; now?: Date } = {},
): GeneratedDkimKey {
  const name = normaliseDomain(domain);
  const now = options.now ?? new Date();
  const selector = options.selector === undefined ? defaultSelector(now) : normaliseSelector(options.selector);
  const file = dkimKeyFile(dataDir, name);
  let replaced: DkimKey | null = null;
  try {
    replaced = readDkimKey(dataDir, name);
  } catch (error) {
    // A damaged file may be replaced on purpose; without --force it is reported as it is.
    if (!options.force) throw error;
  }
  if (replaced && !options.force) throw alreadyThere(replaced);

  const pair = generateKeyPairSync("rsa", {
    modulusLength: DKIM_KEY_BITS,
    publicKeyEncoding: { type: "spki", format: "pem" },
    privateKeyEncoding: { type: "pkcs8", format: "pem" },
  });
  const key: DkimKey = {
    domain: name,
    selector,
    privateKey: pair.privateKey,
    publicKey: pair.publicKey,
    createdAt: now.toISOString(),
  };

  const directory = dkimDirectory(dataDir);
  mkdirSync(directory, { recursive: true, mode: 0o700 });
  const dirStat = lstatSync(directory);
  if (dirStat.isDirectory() && (dirStat.mode & 0o077) !== 0) chmodSync(directory, 0o700);
  // Written whole to a private temporary file, then put in place in one step, so a reader never
  // sees half a key; without force the link fails if another run stored a key meanwhile.
  const temporary = path.join(directory, `.${name}.${process.pid}.${Date.now()}.tmp`);
  const fd = openSync(temporary, "wx", 0o600);
  try {
    writeSync(fd, `${JSON.stringify(key, null, 2)}\n`);
  } finally {
    closeSync(fd);
  }
  try {
    chmodSync(temporary, 0o600);
    if (options.force) {
      renameSync(temporary, file);
    } else {
      try {
        linkSync(temporary, file);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === "EEXIST") {
          const other = readDkimKey(dataDir, name);
          if (other) throw alreadyThere(other);
        }
        throw error;
      }
    }
  } finally {
    rmSync(temporary, { force: true });
  }
  return { key, file, replaced };
}

function alreadyThere(existing: DkimKey): DkimKeyError {
  return new DkimKeyError(
    `${existing.domain} already has a DKIM key (selector ${existing.selector}, made ${existing.createdAt}); it was kept. ` +
      `A new key breaks DKIM for mail already on its way and for everything sent until DNS has the new record. ` +
      `To see the records of the current key: crm dkim show --domain ${existing.domain}. ` +
      `To rotate on purpose: crm dkim generate --domain ${existing.domain} --selector NEW-SELECTOR --force, ` +
      `then publish the new record and keep the old one for a few days.`,
  );
}

/**
 * The key is the server user's alone: a file an older copy or a careless restore left open to
 * others is made private again. Best effort (a read-only mount cannot be changed, and the key is
 * no less usable); a link's target is not ours to change.
 */
function makePrivate(file: string) {
  try {
    const stat = lstatSync(file);
    if (stat.isFile() && (stat.mode & 0o077) !== 0) chmodSync(file, 0o600);
  } catch {
    // left as it is
  }
}

function spkiDer(key: KeyObject): Buffer {
  return key.export({ type: "spki", format: "der" });
}

/** One DNS TXT record: its name and the value, and the value as the ≤255-character strings DNS carries. */
export type TxtRecord = { name: string; type: "TXT"; value: string; strings: string[] };

export type DnsRecords = {
  dkim: TxtRecord;
  spf: TxtRecord & { note: string };
  dmarc: TxtRecord & { note: string };
};

/** DNS carries a TXT value as strings of at most 255 bytes; resolvers join them with nothing between. */
export function splitTxtValue(value: string, size = 255): string[] {
  const strings: string[] = [];
  for (let i = 0; i < value.length; i += size) strings.push(value.slice(i, i + size));
  return strings.length > 0 ? strings : [""];
}

const txt = (name: string, value: string): TxtRecord => ({ name, type: "TXT", value, strings: splitTxtValue(value) });

/** The placeholder in the SPF line: the relay's own SPF domain, which its documentation names. */
export const SPF_RELAY_PLACEHOLDER = "YOUR-RELAY-SPF-DOMAIN";

/** The records to publish for a key: its DKIM record, and the recommended SPF and DMARC lines. */
export function dnsRecordsFor(key: Pick<DkimKey, "domain" | "selector" | "publicKey">): DnsRecords {
  const p = spkiDer(createPublicKey(key.publicKey)).toString("base64");
  return {
    dkim: txt(`${key.selector}._domainkey.${key.domain}`, `v=DKIM1; k=rsa; p=${p}`),
    spf: {
      ...txt(key.domain, `v=spf1 include:${SPF_RELAY_PLACEHOLDER} ~all`),
      note:
        `Replace ${SPF_RELAY_PLACEHOLDER} with the domain your SMTP relay (SMTP_URL) tells you to include ` +
        `(its SPF or domain-setup page names it). It says which servers may send for ${key.domain}; "~all" ` +
        `marks mail from any other server as suspicious. A domain has only one SPF record: if ${key.domain} ` +
        `already has one, add the include: part to it instead of publishing a second.`,
    },
    dmarc: {
      ...txt(`_dmarc.${key.domain}`, `v=DMARC1; p=none; rua=mailto:dmarc@${key.domain}`),
      note:
        `p=none only asks mailbox providers for reports (sent to dmarc@${key.domain}: make sure that mailbox ` +
        `exists). Once the reports show your mail passing SPF and DKIM, move to p=quarantine and then ` +
        `p=reject so that mail forged in your name is refused.`,
    },
  };
}

/** A TXT record as formatDnsRecords() lists it: its heading, then its name, type and value. */
const recordLines = (heading: string, record: { name: string; value: string }) => [
  heading,
  `   Name:  ${record.name}`,
  `   Type:  TXT`,
  `   Value: ${record.value}`,
];

/** The records as an admin reads them: each name, type and value, and the DKIM value as zone-file strings. */
export function formatDnsRecords(key: DkimKey): string {
  const { dkim, spf, dmarc } = dnsRecordsFor(key);
  const quoted = dkim.strings.map((s) => `  "${s}"`).join("\n");
  return [
    `Publish these DNS records for ${key.domain}:`,
    "",
    ...recordLines(`1. DKIM (selector ${key.selector}, made ${key.createdAt})`, dkim),
    "",
    `   The value is longer than the 255 characters one DNS string holds. Most DNS providers' forms take`,
    `   it whole and split it themselves; in a zone file, write it as ${dkim.strings.length} quoted strings, which`,
    `   resolvers join with nothing in between:`,
    `${dkim.name}. IN TXT (`,
    quoted,
    ")",
    "",
    ...recordLines(`2. SPF (recommended)`, spf),
    `   ${spf.note}`,
    "",
    ...recordLines(`3. DMARC (recommended)`, dmarc),
    `   ${dmarc.note}`,
    "",
    `With DELIVERY_CHANNEL=smtp and MAIL_FROM at ${key.domain}, every message is signed with this key`,
    `(DKIM-Signature: d=${key.domain}; s=${key.selector}).`,
    `Check the records once DNS has them: dig +short TXT ${dkim.name}`,
  ].join("\n");
}
