// The only module that reads process.env. Everything is validated with zod at first use, so a
// bad setting stops the server with a message that says which variable and why: the settings'
// schema by group in env-schema.server.ts, how single values are read in env-values.server.ts;
// here the values derived from them (the database, the secrets, the origins, the sender) and the
// data directory kept private.
import { createHmac, randomBytes } from "node:crypto";
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
import path from "node:path";
import { isMainThread } from "node:worker_threads";
import type { z } from "zod";
import { dkimDirectory } from "~/services/email/dkim-keys.server";
import { EnvSchema } from "./env-schema.server";
import { type Mailbox, parseMailbox } from "./env-values.server";

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
