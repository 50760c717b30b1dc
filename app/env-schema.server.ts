// The settings read from process.env (by getEnv, env.server.ts), each checked with zod so a bad one
// stops the server with a message naming it: one group of settings a part, joined in the order
// docs/settings.md lists them (the order the messages come in).
import { existsSync, statSync } from "node:fs";
import { isIP } from "node:net";
import { availableParallelism } from "node:os";
import { z } from "zod";
import {
  booleanish,
  defaultWebConcurrency,
  isEmailAddress,
  isP256PublicKey,
  isRegExp,
  parseMailbox,
  readMailboxUrl,
  SNS_TOPIC_ARN,
} from "./env-values.server";

/**
 * A setting that is a whole number from `min` to `max` (of `unit`, when it has one), with one message
 * naming it for every way it can be wrong: "SMTP_POOL must be a whole number from 1 to 50".
 */
function wholeNumber(name: string, min: number, max: number, unit?: string) {
  const message = `${name} must be a whole number${unit ? ` of ${unit}` : ""} from ${min} to ${max}`;
  return z.coerce.number({ message }).int(message).min(min, message).max(max, message);
}

/** The server itself: its process, its database, sign-in, the proxies it trusts, logging, workers. */
const serverSettings = {
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
  DATABASE_POOL_SIZE: wholeNumber("DATABASE_POOL_SIZE", 1, 200).default(10),
  DATABASE_STATEMENT_TIMEOUT_MS: wholeNumber("DATABASE_STATEMENT_TIMEOUT_MS", 100, 3_600_000, "milliseconds").default(
    30_000,
  ),
  DATABASE_LOCK_TIMEOUT_MS: wholeNumber("DATABASE_LOCK_TIMEOUT_MS", 100, 600_000, "milliseconds").default(10_000),
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
};

/** Campaign delivery: the channel, the relay, the sender, the engine's pace, tracking and revenue. */
const deliverySettings = {
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
  SMTP_POOL: wholeNumber("SMTP_POOL", 1, 50).default(5),
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
  SMTP_DATA_TIMEOUT_SECONDS: wholeNumber("SMTP_DATA_TIMEOUT_SECONDS", 1, 3600, "seconds").default(600),
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
  TRACKING_SCANNER_WINDOW_SECONDS: wholeNumber("TRACKING_SCANNER_WINDOW_SECONDS", 0, 3600, "seconds").default(10),
  // This many soft bounces of one address within SOFT_BOUNCE_WINDOW_DAYS put it on the suppression
  // list (docs/rules.md#bounce-and-complaint-feeds); 0 never suppresses for soft bounces.
  SOFT_BOUNCE_LIMIT: wholeNumber("SOFT_BOUNCE_LIMIT", 0, 100).default(3),
  SOFT_BOUNCE_WINDOW_DAYS: wholeNumber("SOFT_BOUNCE_WINDOW_DAYS", 1, 365, "days").default(30),
  // Orders a recipient places within this many days after clicking a campaign (or, the weaker
  // rule, opening it) are the campaign's revenue (docs/rules.md#revenue-per-campaign).
  ATTRIBUTION_WINDOW_DAYS: wholeNumber("ATTRIBUTION_WINDOW_DAYS", 1, 90, "days").default(7),
};

/** Bounce and complaint feeds: Amazon SES over SNS, SendGrid's Event Webhook, the bounce mailbox. */
const feedbackSettings = {
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
  BOUNCE_MAILBOX_POLL_SECONDS: wholeNumber("BOUNCE_MAILBOX_POLL_SECONDS", 10, 86400, "seconds").default(60),
};

/** Message suggestions and insights from an OpenAI-compatible endpoint. */
const aiSettings = {
  // An OpenAI-compatible chat-completions endpoint for message suggestions and insights.
  AI_BASE_URL: z.string().url("AI_BASE_URL must be a URL like https://api.openai.com/v1").optional(),
  AI_API_KEY: z.string().min(1).optional(),
  AI_MODEL: z.string().min(1).optional(),
};

export const EnvSchema = z.object({ ...serverSettings, ...deliverySettings, ...feedbackSettings, ...aiSettings });
