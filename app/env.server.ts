// The only module that reads process.env. Everything is validated with zod at first use, so a
// bad setting stops the server with a message that says which variable and why.
import { createHmac, createPublicKey, randomBytes } from "node:crypto";
import {
  chmodSync,
  existsSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { isIP } from "node:net";
import { availableParallelism } from "node:os";
import path from "node:path";
import { isMainThread } from "node:worker_threads";
import { z } from "zod";
import { dkimDirectory } from "~/services/email/dkim-keys.server";

/**
 * Worker processes serving HTTP when WEB_CONCURRENCY is not set: one per core but one, at most 4,
 * at least 1. The core left over runs the background threads (campaign delivery, launches, CSV
 * imports); on 2 cores a second HTTP worker only fought them for it (decision 0006, figures).
 */
export function defaultWebConcurrency(cores: number): number {
  return Math.max(1, Math.min(4, cores - 1));
}

const booleanish = z
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
const SNS_TOPIC_ARN = /^arn:aws(-[a-z]+)*:sns:[a-z0-9-]+:\d{12}:[A-Za-z0-9_.-]{1,256}$/;

function isRegExp(value: string): boolean {
  try {
    new RegExp(value);
    return true;
  } catch {
    return false;
  }
}

/** Whether the text is base64 DER (SPKI) of an ECDSA P-256 public key, the form SendGrid shows. */
function isP256PublicKey(value: string): boolean {
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

const EnvSchema = z.object({
  NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
  PORT: z.coerce.number().int().min(1).max(65535).default(3000),
  HOST: z.string().default("0.0.0.0"),
  DATA_DIR: z.string().default("./data"),
  // SQLite (the embedded default) or PostgreSQL (docs/decisions/0033-postgresql-runtime.md).
  DATABASE_URL: z
    .string()
    .refine((v) => /^file:/.test(v) || /^postgres(ql)?:\/\/[^/]+\/[^/?]+/.test(v), {
      error: (issue) =>
        /^postgres(ql)?:\/\//.test(String(issue.input))
          ? "DATABASE_URL must name a PostgreSQL host and database, like postgres://crm:password@db:5432/crm"
          : "DATABASE_URL must be a SQLite URL like file:./data/crm.db or a PostgreSQL URL like postgres://crm:password@db:5432/crm",
    })
    .optional(),
  // PostgreSQL only: connections this process keeps open, and how long a statement or a wait for a
  // lock may take before it is cancelled (and retried where that is safe).
  DATABASE_POOL_SIZE: z.coerce
    .number({ message: "DATABASE_POOL_SIZE must be a whole number from 1 to 200" })
    .int("DATABASE_POOL_SIZE must be a whole number from 1 to 200")
    .min(1, "DATABASE_POOL_SIZE must be a whole number from 1 to 200")
    .max(200, "DATABASE_POOL_SIZE must be a whole number from 1 to 200")
    .default(10),
  DATABASE_STATEMENT_TIMEOUT_MS: z.coerce
    .number({ message: "DATABASE_STATEMENT_TIMEOUT_MS must be a whole number of milliseconds from 100 to 3600000" })
    .int("DATABASE_STATEMENT_TIMEOUT_MS must be a whole number of milliseconds from 100 to 3600000")
    .min(100, "DATABASE_STATEMENT_TIMEOUT_MS must be a whole number of milliseconds from 100 to 3600000")
    .max(3_600_000, "DATABASE_STATEMENT_TIMEOUT_MS must be a whole number of milliseconds from 100 to 3600000")
    .default(30_000),
  DATABASE_LOCK_TIMEOUT_MS: z.coerce
    .number({ message: "DATABASE_LOCK_TIMEOUT_MS must be a whole number of milliseconds from 100 to 600000" })
    .int("DATABASE_LOCK_TIMEOUT_MS must be a whole number of milliseconds from 100 to 600000")
    .min(100, "DATABASE_LOCK_TIMEOUT_MS must be a whole number of milliseconds from 100 to 600000")
    .max(600_000, "DATABASE_LOCK_TIMEOUT_MS must be a whole number of milliseconds from 100 to 600000")
    .default(10_000),
  PUBLIC_URL: z.string().url("PUBLIC_URL must be a full URL like https://crm.example.com").optional(),
  SESSION_SECRET: z.string().min(32, "SESSION_SECRET must be at least 32 characters").optional(),
  GOOGLE_CLIENT_ID: z.string().min(1).optional(),
  GOOGLE_CLIENT_SECRET: z.string().min(1).optional(),
  // Where Google's OAuth endpoints live. Only the test suite's local fake changes it.
  GOOGLE_OAUTH_BASE_URL: z.string().url().optional(),
  LOCAL_AUTH: booleanish.optional(),
  // Who may create an account: "closed" (the default) lets only the first one, the owner, sign
  // up; later accounts are added by the owner (the Users screen) or the CLI. "open" lets anyone
  // who reaches the sign-in page make an account of their own.
  SIGN_UP: z
    .enum(["closed", "open"], { message: 'SIGN_UP must be "closed" (the default: the owner adds people) or "open"' })
    .default("closed"),
  TOKEN_TTL_HOURS: z.coerce
    .number()
    .int()
    .min(1)
    .max(24 * 365)
    .default(24 * 7),
  // Sign-in attempts allowed per client address and minute (local and Google alike).
  SIGN_IN_RATE_LIMIT: z.coerce.number().int().min(1).default(20),
  // The reverse proxies whose X-Forwarded-For/-Proto/-Host are believed: addresses, CIDR ranges or
  // loopback/linklocal/uniquelocal, comma-separated. Anyone else's are ignored (docs/security.md).
  TRUST_PROXY: z
    .string()
    .default("loopback")
    .refine(
      (v) =>
        v
          .split(",")
          .every((p) => /^(loopback|linklocal|uniquelocal)$/.test(p.trim()) || isIP(p.trim().split("/")[0] ?? "") > 0),
      "TRUST_PROXY must list addresses, CIDR ranges or loopback/linklocal/uniquelocal, like loopback, 10.0.0.0/8",
    ),
  LOG_LEVEL: z.enum(["debug", "info", "warn", "error", "silent"]).default("info"),
  // Worker processes serving HTTP (server/cluster.ts). One per core, at most four, by default.
  WEB_CONCURRENCY: z.coerce
    .number({ message: "WEB_CONCURRENCY must be a whole number of worker processes, like 2" })
    .int("WEB_CONCURRENCY must be a whole number of worker processes, like 2")
    .min(1, "WEB_CONCURRENCY must be at least 1")
    .max(64, "WEB_CONCURRENCY must be at most 64")
    // One core is left to the background threads (delivery, imports, launches): see decision 0006.
    .default(defaultWebConcurrency(availableParallelism())),
  // Campaign delivery (docs/settings.md, "Delivery").
  DELIVERY_CHANNEL: z
    .enum(["simulated", "smtp"], { message: "DELIVERY_CHANNEL must be simulated or smtp" })
    .default("simulated"),
  SMTP_URL: z
    .string()
    .regex(/^smtps?:\/\/[^\s]+$/, "SMTP_URL must be a URL like smtp://user:password@mail.example.com:587")
    .optional(),
  MAIL_FROM: z
    .string()
    .refine((v) => parseMailbox(v) !== null, "MAIL_FROM must be an address like CRM <news@example.com>")
    .optional(),
  // Where replies to campaign messages go (Reply-To); without it, replies go to MAIL_FROM.
  MAIL_REPLY_TO: z
    .string()
    .refine((v) => isEmailAddress(v.trim()), "MAIL_REPLY_TO must be an e-mail address like replies@example.com")
    .transform((v) => v.trim())
    .optional(),
  // The sender's postal address, printed once in every campaign message's footer after the
  // sender's name (anti-spam laws such as CAN-SPAM ask for one). One line.
  MAIL_POSTAL_ADDRESS: z
    .string()
    .transform((v) => v.replace(/\s+/g, " ").trim())
    .pipe(z.string().max(300, "MAIL_POSTAL_ADDRESS must be one line of at most 300 characters"))
    .optional(),
  // A mailbox that unsubscribes whoever writes to it: adds the mailto: form of List-Unsubscribe.
  MAIL_UNSUBSCRIBE_ADDRESS: z
    .string()
    .refine(
      (v) => isEmailAddress(v.trim()),
      "MAIL_UNSUBSCRIBE_ADDRESS must be an e-mail address like unsubscribe@example.com",
    )
    .transform((v) => v.trim())
    .optional(),
  // Connections to the relay at once: also the most messages in flight, so the most a crash can send twice.
  // "off" sends /api through Express and Remix in production too (docs/decisions/0010-api-fast-path.md).
  API_FAST_PATH: z.enum(["on", "off"], { message: 'API_FAST_PATH must be "on" or "off"' }).default("on"),
  SMTP_POOL: z.coerce
    .number({ message: "SMTP_POOL must be a whole number from 1 to 50" })
    .int("SMTP_POOL must be a whole number from 1 to 50")
    .min(1, "SMTP_POOL must be a whole number from 1 to 50")
    .max(50, "SMTP_POOL must be a whole number from 1 to 50")
    .default(5),
  // The name the SMTP client says in EHLO; by default PUBLIC_URL's host, or MAIL_FROM's domain.
  SMTP_EHLO_NAME: z
    .string()
    .regex(
      /^(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?\.)+[A-Za-z0-9-]{2,63}$|^\[[0-9A-Fa-f:.IPv]+\]$/,
      "SMTP_EHLO_NAME must be a host name like mail.example.com (or an address literal like [192.0.2.1])",
    )
    .optional(),
  // Nothing in clear text to the relay: on by default unless SMTP_URL names this machine.
  SMTP_REQUIRE_TLS: booleanish.optional(),
  // A CA (PEM) to trust for the relay's certificate besides the usual ones (a private relay).
  SMTP_TLS_CA_FILE: z
    .string()
    .refine((v) => existsSync(v) && statSync(v).isFile(), "SMTP_TLS_CA_FILE must name a readable PEM file")
    .optional(),
  // How long the relay may take to answer the end of a message (RFC 5321 4.5.3.2.6: 10 minutes).
  SMTP_DATA_TIMEOUT_SECONDS: z.coerce
    .number({ message: "SMTP_DATA_TIMEOUT_SECONDS must be a whole number of seconds from 1 to 3600" })
    .int("SMTP_DATA_TIMEOUT_SECONDS must be a whole number of seconds from 1 to 3600")
    .min(1, "SMTP_DATA_TIMEOUT_SECONDS must be a whole number of seconds from 1 to 3600")
    .max(3600, "SMTP_DATA_TIMEOUT_SECONDS must be a whole number of seconds from 1 to 3600")
    .default(600),
  RECEIPTS_SECRET: z.string().min(16, "RECEIPTS_SECRET must be at least 16 characters").optional(),
  // The built-in vendor runs inside the server unless this points at one running elsewhere.
  SIMULATED_VENDOR_URL: z.string().url("SIMULATED_VENDOR_URL must be a URL like http://127.0.0.1:4600").optional(),
  SIMULATED_VENDOR_KEY: z.string().min(8, "SIMULATED_VENDOR_KEY must be at least 8 characters").optional(),
  DELIVERY_RATE_PER_SECOND: z.coerce
    .number({ message: "DELIVERY_RATE_PER_SECOND must be a number" })
    .int()
    .min(0)
    .default(0),
  DELIVERY_CONCURRENCY: z.coerce
    .number({ message: "DELIVERY_CONCURRENCY must be a number" })
    .int()
    .min(1)
    .max(64)
    .default(4),
  DELIVERY_BATCH_SIZE: z.coerce
    .number({ message: "DELIVERY_BATCH_SIZE must be a number" })
    .int()
    .min(1)
    .max(1000)
    .default(500),
  DELIVERY_ERROR_CAP: z.coerce.number({ message: "DELIVERY_ERROR_CAP must be a number" }).int().min(1).default(1000),
  // How long a claimed batch is the claimer's; after a crash its rows are sent again after this.
  DELIVERY_LEASE_SECONDS: z.coerce
    .number({ message: "DELIVERY_LEASE_SECONDS must be a number" })
    .int()
    .min(1)
    .max(3600)
    .default(60),
  DELIVERY_MAX_ATTEMPTS: z.coerce
    .number({ message: "DELIVERY_MAX_ATTEMPTS must be a number" })
    .int()
    .min(1)
    .max(50)
    .default(5),
  // A click this soon after its message was delivered is a link scanner's, not a person's
  // (docs/rules.md#opens-and-clicks); 0 turns the rule off.
  TRACKING_SCANNER_WINDOW_SECONDS: z.coerce
    .number({ message: "TRACKING_SCANNER_WINDOW_SECONDS must be a whole number of seconds from 0 to 3600" })
    .int("TRACKING_SCANNER_WINDOW_SECONDS must be a whole number of seconds from 0 to 3600")
    .min(0, "TRACKING_SCANNER_WINDOW_SECONDS must be a whole number of seconds from 0 to 3600")
    .max(3600, "TRACKING_SCANNER_WINDOW_SECONDS must be a whole number of seconds from 0 to 3600")
    .default(10),
  // This many soft bounces of one address within SOFT_BOUNCE_WINDOW_DAYS put it on the suppression
  // list (docs/rules.md#bounce-and-complaint-feeds); 0 never suppresses for soft bounces.
  SOFT_BOUNCE_LIMIT: z.coerce
    .number({ message: "SOFT_BOUNCE_LIMIT must be a whole number from 0 to 100" })
    .int("SOFT_BOUNCE_LIMIT must be a whole number from 0 to 100")
    .min(0, "SOFT_BOUNCE_LIMIT must be a whole number from 0 to 100")
    .max(100, "SOFT_BOUNCE_LIMIT must be a whole number from 0 to 100")
    .default(3),
  SOFT_BOUNCE_WINDOW_DAYS: z.coerce
    .number({ message: "SOFT_BOUNCE_WINDOW_DAYS must be a whole number of days from 1 to 365" })
    .int("SOFT_BOUNCE_WINDOW_DAYS must be a whole number of days from 1 to 365")
    .min(1, "SOFT_BOUNCE_WINDOW_DAYS must be a whole number of days from 1 to 365")
    .max(365, "SOFT_BOUNCE_WINDOW_DAYS must be a whole number of days from 1 to 365")
    .default(30),
  // Orders a recipient places within this many days after clicking a campaign (or, the weaker
  // rule, opening it) are the campaign's revenue (docs/rules.md#revenue-per-campaign).
  ATTRIBUTION_WINDOW_DAYS: z.coerce
    .number({ message: "ATTRIBUTION_WINDOW_DAYS must be a whole number of days from 1 to 90" })
    .int("ATTRIBUTION_WINDOW_DAYS must be a whole number of days from 1 to 90")
    .min(1, "ATTRIBUTION_WINDOW_DAYS must be a whole number of days from 1 to 90")
    .max(90, "ATTRIBUTION_WINDOW_DAYS must be a whole number of days from 1 to 90")
    .default(7),
  // Bounce and complaint feeds (docs/email.md, "Amazon SES and SendGrid"; docs/decisions/0026). Amazon
  // SES over SNS: the topics whose notifications are taken (comma-separated ARNs; none: the feed is off).
  SES_SNS_TOPIC_ARNS: z
    .string()
    .transform((v) =>
      v
        .split(",")
        .map((arn) => arn.trim())
        .filter((arn) => arn !== ""),
    )
    .refine(
      (arns) => arns.every((arn) => SNS_TOPIC_ARN.test(arn)),
      "SES_SNS_TOPIC_ARNS must list SNS topic ARNs, like arn:aws:sns:us-east-1:123456789012:ses-feedback",
    )
    .default([]),
  // Where SNS signing certificates may come from (the host of SigningCertURL). Only tests change it.
  SNS_CERT_HOST_PATTERN: z
    .string()
    .refine(isRegExp, "SNS_CERT_HOST_PATTERN must be a regular expression for host names")
    .default(String.raw`^sns\.[a-zA-Z0-9-]{3,}\.amazonaws\.com(\.cn)?$`),
  // SendGrid's Event Webhook: its verification key as SendGrid shows it (base64 DER); none: the feed is off.
  SENDGRID_WEBHOOK_PUBLIC_KEY: z
    .string()
    .refine(
      isP256PublicKey,
      "SENDGRID_WEBHOOK_PUBLIC_KEY must be the Event Webhook's verification key as SendGrid shows it (base64, an ECDSA P-256 public key)",
    )
    .optional(),
  // The bounce mailbox read over IMAP for later bounces and complaints (docs/email.md, "Bounce mailbox").
  BOUNCE_MAILBOX_URL: z
    .string()
    .refine(
      (v) => readMailboxUrl(v) !== null,
      "BOUNCE_MAILBOX_URL must be a URL like imaps://user:password@mail.example.com:993/INBOX (imap:// upgrades with STARTTLS)",
    )
    .optional(),
  BOUNCE_MAILBOX_POLL_SECONDS: z.coerce
    .number({ message: "BOUNCE_MAILBOX_POLL_SECONDS must be a whole number of seconds from 10 to 86400" })
    .int("BOUNCE_MAILBOX_POLL_SECONDS must be a whole number of seconds from 10 to 86400")
    .min(10, "BOUNCE_MAILBOX_POLL_SECONDS must be a whole number of seconds from 10 to 86400")
    .max(86400, "BOUNCE_MAILBOX_POLL_SECONDS must be a whole number of seconds from 10 to 86400")
    .default(60),
  // An OpenAI-compatible chat-completions endpoint for message suggestions and insights.
  AI_BASE_URL: z.string().url("AI_BASE_URL must be a URL like https://api.openai.com/v1").optional(),
  AI_API_KEY: z.string().min(1).optional(),
  AI_MODEL: z.string().min(1).optional(),
});

export type Env = z.infer<typeof EnvSchema> & {
  databaseUrl: string;
  /** Which engine DATABASE_URL names. */
  databaseEngine: "sqlite" | "postgres";
  /** The SQLite file ("" on PostgreSQL). */
  databaseFile: string;
  publicUrl: string;
  sessionSecret: string;
  googleEnabled: boolean;
  localAuthEnabled: boolean;
  /**
   * The origins this server's own pages are served from: PUBLIC_URL's; without PUBLIC_URL (a local
   * run), every loopback spelling of the port (localhost, 127.0.0.1, [::1]).
   */
  ownOrigins: string[];
  /** Signs delivery receipts: RECEIPTS_SECRET, or one derived from the session secret. */
  receiptsSecret: string;
  /** MAIL_FROM read: its display name ("" when none) and address; null when not set. */
  mailFrom: Mailbox | null;
  /** What is worth saying at start about these settings (an http:// PUBLIC_URL with SMTP). */
  warnings: string[];
};

let cached: Env | undefined;

export function getEnv(): Env {
  if (cached) return cached;
  const raw = Object.fromEntries(Object.entries(process.env).filter(([, v]) => v !== undefined && v !== ""));
  const parsed = EnvSchema.safeParse(raw);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join(".")}: ${i.message}`);
    throw new Error(`Invalid environment:\n${lines.join("\n")}\nFix these variables (see docs/settings.md).`);
  }
  const e = parsed.data;
  const dataDir = path.resolve(e.DATA_DIR);
  const databaseUrl = e.DATABASE_URL ?? `file:${path.join(dataDir, "crm.db")}`;
  const databaseEngine = /^postgres(ql)?:\/\//.test(databaseUrl) ? "postgres" : "sqlite";
  const databaseFile = databaseEngine === "sqlite" ? databaseUrl.replace(/^file:/, "") : "";
  const googleEnabled = Boolean(e.GOOGLE_CLIENT_ID && e.GOOGLE_CLIENT_SECRET);
  // Local sign-in with passwords is on unless LOCAL_AUTH=false, in production too: a new install
  // is opened by creating its owner's account on the sign-in page. Google joins it when configured.
  const localAuthEnabled = e.LOCAL_AUTH ?? true;
  if (!localAuthEnabled && !googleEnabled) {
    throw new Error(
      "Invalid environment:\n  LOCAL_AUTH: false leaves no way to sign in; set GOOGLE_CLIENT_ID and GOOGLE_CLIENT_SECRET, or remove LOCAL_AUTH",
    );
  }
  if (e.DELIVERY_CHANNEL === "smtp") {
    const missing = [
      e.SMTP_URL ? null : "  SMTP_URL: the relay to send through, like smtp://user:password@mail.example.com:587",
      e.MAIL_FROM ? null : "  MAIL_FROM: the sender, like CRM <news@example.com>",
      e.PUBLIC_URL
        ? null
        : "  PUBLIC_URL: the address where recipients reach this server, like https://crm.example.com (unsubscribe links use it)",
    ].filter((line): line is string => line !== null);
    if (missing.length > 0) {
      throw new Error(`Invalid environment: DELIVERY_CHANNEL=smtp needs these settings:\n${missing.join("\n")}`);
    }
  }
  const warnings: string[] = [];
  if (e.DELIVERY_CHANNEL === "smtp" && e.PUBLIC_URL?.startsWith("http://")) {
    warnings.push(
      `PUBLIC_URL is ${e.PUBLIC_URL}: unsubscribe links in campaign e-mail will use http://, and mailbox providers (Gmail, Yahoo, Outlook) expect https:// for one-click unsubscribe. Fine for local use and tests; set an https:// address for real mail.`,
    );
  }
  if (databaseEngine === "postgres" && !e.SESSION_SECRET) {
    warnings.push(
      `SESSION_SECRET is not set: this instance uses the one generated into ${path.join(dataDir, "session-secret")}. Every instance that shares this PostgreSQL database must sign with the same secret: set SESSION_SECRET (32+ random characters) on all of them.`,
    );
  }
  makeDataPrivate(dataDir, databaseFile);
  const publicUrl = (e.PUBLIC_URL ?? `http://localhost:${e.PORT}`).replace(/\/$/, "");
  const sessionSecret = e.SESSION_SECRET ?? localSecret(dataDir);
  cached = {
    ...e,
    databaseUrl,
    databaseEngine,
    databaseFile,
    publicUrl,
    ownOrigins: e.PUBLIC_URL
      ? [new URL(publicUrl).origin]
      : [`http://localhost:${e.PORT}`, `http://127.0.0.1:${e.PORT}`, `http://[::1]:${e.PORT}`],
    sessionSecret,
    googleEnabled,
    localAuthEnabled,
    receiptsSecret: e.RECEIPTS_SECRET ?? createHmac("sha256", sessionSecret).update("delivery-receipts").digest("hex"),
    mailFrom: e.MAIL_FROM ? parseMailbox(e.MAIL_FROM) : null,
    warnings,
  };
  return cached;
}

/** A secret generated once and kept under the data directory, for the embedded local mode. */
function localSecret(dataDir: string): string {
  const file = path.join(dataDir, "session-secret");
  if (existsSync(file)) return readFileSync(file, "utf8").trim();
  mkdirSync(dataDir, { recursive: true });
  const secret = randomBytes(48).toString("hex");
  writeFileSync(file, secret, { mode: 0o600 });
  return secret;
}

/**
 * The data directory is the service user's alone: the directory 0700 and every file in it 0600
 * (the database, its -wal and -shm, the session secret). Files are created that way (a process
 * umask of 077, so SQLite's own files too), and those an older version left open are fixed here.
 */
function makeDataPrivate(dataDir: string, databaseFile: string) {
  // Only the main thread may set the umask; it holds for the whole process.
  if (isMainThread) process.umask(0o077);
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const tighten = (file: string, depth: number) => {
    let stat;
    try {
      stat = lstatSync(file);
    } catch {
      return; // not there (yet)
    }
    if (stat.isSymbolicLink()) return; // its target is not ours to change
    const mode = stat.isDirectory() ? 0o700 : 0o600;
    try {
      if ((stat.mode & 0o777) !== mode) chmodSync(file, mode);
    } catch (error) {
      console.warn(`Could not make ${file} private (mode ${mode.toString(8)}): ${(error as Error).message}`);
    }
    if (stat.isDirectory() && depth < 4) {
      for (const name of readdirSync(file)) tighten(path.join(file, name), depth + 1);
    }
  };
  // A shared directory (sticky or writable by everyone, like /tmp) named as the data directory is
  // not ours to close: only the files this server keeps are tightened then.
  const shared = (statSync(dataDir).mode & 0o1002) !== 0;
  if (shared) {
    console.warn(
      `DATA_DIR ${dataDir} is a shared directory (writable by every user); set DATA_DIR to a directory of its own, like ${path.join(dataDir, "crm")}, so that the server can keep it private.`,
    );
    tighten(path.join(dataDir, "session-secret"), 4);
    tighten(dkimDirectory(dataDir), 3);
  } else tighten(dataDir, 0);
  if (databaseFile !== "" && databaseFile !== ":memory:") {
    for (const suffix of ["", "-wal", "-shm", "-journal"]) tighten(path.resolve(databaseFile + suffix), 4);
  }
}

/** For tests that change the environment between cases. */
export function resetEnvCache() {
  cached = undefined;
}
