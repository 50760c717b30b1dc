// The data directory is private to the service user: 0700, every file in it 0600, fixed at start
// for files an older version left readable, and new files (SQLite's included) created that way.
import Database from "better-sqlite3";
import { chmodSync, mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it, vi } from "vitest";
import { getEnv, resetEnvCache } from "~/env.server";
import { defaultWebConcurrency } from "~/env-values.server";

const scratch = mkdtempSync(path.join(tmpdir(), "crm-env-test-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const modeOf = (file: string) => (statSync(file).mode & 0o7777).toString(8);

describe("the data directory", () => {
  it("is made 0700 with every file in it 0600 at start, and what is created later is private too", () => {
    const dataDir = path.join(scratch, "data");
    mkdirSync(path.join(dataDir, "imports"), { recursive: true, mode: 0o755 });
    chmodSync(dataDir, 0o755);
    chmodSync(path.join(dataDir, "imports"), 0o755);
    const db = new Database(path.join(dataDir, "crm.db"));
    db.pragma("journal_mode = WAL");
    db.exec("CREATE TABLE t (x)");
    for (const file of ["crm.db", "crm.db-wal", "crm.db-shm"]) chmodSync(path.join(dataDir, file), 0o644);
    writeFileSync(path.join(dataDir, "session-secret"), "x".repeat(64), { mode: 0o644 });
    writeFileSync(path.join(dataDir, "imports", "upload.csv"), "a,b\n", { mode: 0o644 });

    process.env.DATA_DIR = dataDir;
    delete process.env.DATABASE_URL;
    delete process.env.SESSION_SECRET;
    resetEnvCache();
    expect(getEnv().databaseFile).toBe(path.join(dataDir, "crm.db"));

    expect(modeOf(dataDir)).toBe("700");
    expect(modeOf(path.join(dataDir, "imports"))).toBe("700");
    for (const file of ["crm.db", "crm.db-wal", "crm.db-shm", "session-secret", "imports/upload.csv"]) {
      expect(modeOf(path.join(dataDir, file)), file).toBe("600");
    }
    db.close();

    // A database created from now on, with its WAL files, and any other new file: 0600.
    const fresh = new Database(path.join(dataDir, "other.db"));
    fresh.pragma("journal_mode = WAL");
    fresh.exec("CREATE TABLE t (x); INSERT INTO t VALUES (1)");
    for (const file of ["other.db", "other.db-wal", "other.db-shm"])
      expect(modeOf(path.join(dataDir, file)), file).toBe("600");
    fresh.close();
    writeFileSync(path.join(dataDir, "later.txt"), "x");
    expect(modeOf(path.join(dataDir, "later.txt"))).toBe("600");
  });

  it("a data directory that does not exist yet is created 0700, with the session secret 0600", () => {
    const dataDir = path.join(scratch, "new", "data");
    process.env.DATA_DIR = dataDir;
    resetEnvCache();
    expect(getEnv().sessionSecret).toMatch(/^[0-9a-f]{96}$/);
    expect(modeOf(dataDir)).toBe("700");
    expect(modeOf(path.join(dataDir, "session-secret"))).toBe("600");
  });

  it("a shared directory like /tmp named as DATA_DIR stays open to its other users: only the server's own files are made private", () => {
    const shared = path.join(scratch, "shared");
    mkdirSync(path.join(shared, "someone-else"), { recursive: true });
    chmodSync(shared, 0o1777);
    chmodSync(path.join(shared, "someone-else"), 0o755);
    writeFileSync(path.join(shared, "their-file"), "x");
    chmodSync(path.join(shared, "their-file"), 0o644);
    process.env.DATA_DIR = shared;
    resetEnvCache();
    const warn = vi.spyOn(console, "warn").mockImplementation(() => undefined);
    try {
      getEnv();
      expect(warn.mock.calls.flat().join("\n")).toMatch(
        /DATA_DIR .* is a shared directory .* set DATA_DIR to a directory of its own/,
      );
    } finally {
      warn.mockRestore();
    }
    expect(modeOf(shared)).toBe("1777");
    expect(modeOf(path.join(shared, "someone-else"))).toBe("755");
    expect(modeOf(path.join(shared, "their-file"))).toBe("644");
    expect(modeOf(path.join(shared, "session-secret"))).toBe("600");
  });
});

describe("WEB_CONCURRENCY's default", () => {
  it("leaves one core to the background threads: 1 worker on 1 or 2 cores, 3 on 4, never over 4", () => {
    expect([1, 2, 3, 4, 8, 64].map(defaultWebConcurrency)).toEqual([1, 1, 2, 3, 4, 4]);
  });
});

describe("the e-mail settings", () => {
  const SMTP = {
    DELIVERY_CHANNEL: "smtp",
    SMTP_URL: "smtp://crm:secret@mail.example.com:587",
    MAIL_FROM: "Shop <news@shop.example>",
    PUBLIC_URL: "https://crm.example.com",
  };
  const KEYS = [...Object.keys(SMTP), "MAIL_REPLY_TO", "MAIL_UNSUBSCRIBE_ADDRESS"];
  const envWith = (values: Record<string, string>) => {
    for (const key of KEYS) delete process.env[key];
    Object.assign(process.env, { DATA_DIR: path.join(scratch, "mail") }, values);
    resetEnvCache();
    return getEnv;
  };
  afterAll(() => envWith({}));

  it("DELIVERY_CHANNEL=smtp stops at start without PUBLIC_URL, SMTP_URL or MAIL_FROM, saying what to set", () => {
    const { PUBLIC_URL: _url, ...noPublicUrl } = SMTP;
    expect(envWith(noPublicUrl)).toThrow(
      /DELIVERY_CHANNEL=smtp needs these settings:\n {2}PUBLIC_URL: the address where recipients reach this server, like https:\/\/crm\.example\.com \(unsubscribe links use it\)$/,
    );
    expect(envWith({ DELIVERY_CHANNEL: "smtp" })).toThrow(/\n {2}SMTP_URL: .*\n {2}MAIL_FROM: .*\n {2}PUBLIC_URL: /);
    // The built-in vendor needs none of them.
    expect(envWith({})().DELIVERY_CHANNEL).toBe("simulated");
  });

  it("an https:// PUBLIC_URL is quiet; an http:// one works with a warning that providers expect https", () => {
    const env = envWith(SMTP)();
    expect(env.warnings).toEqual([]);
    expect(env.publicUrl).toBe("https://crm.example.com");
    expect(env.mailFrom).toEqual({ name: "Shop", address: "news@shop.example" });
    const local = envWith({ ...SMTP, PUBLIC_URL: "http://localhost:3000" })();
    expect(local.warnings).toHaveLength(1);
    expect(local.warnings[0]).toMatch(/^PUBLIC_URL is http:\/\/localhost:3000: .* expect https:\/\//);
    // Without SMTP, http:// is the local default and nothing to warn about.
    expect(envWith({ PUBLIC_URL: "http://localhost:3000" })().warnings).toEqual([]);
  });

  it("MAIL_FROM, MAIL_REPLY_TO and MAIL_UNSUBSCRIBE_ADDRESS must be addresses", () => {
    expect(envWith({ ...SMTP, MAIL_FROM: "Shop" })).toThrow(
      /MAIL_FROM: MAIL_FROM must be an address like CRM <news@example\.com>/,
    );
    expect(envWith({ MAIL_REPLY_TO: "replies at example" })).toThrow(
      /MAIL_REPLY_TO: MAIL_REPLY_TO must be an e-mail address like replies@example\.com/,
    );
    expect(envWith({ MAIL_UNSUBSCRIBE_ADDRESS: "Shop <u@example.com>" })).toThrow(
      /MAIL_UNSUBSCRIBE_ADDRESS: MAIL_UNSUBSCRIBE_ADDRESS must be an e-mail address like unsubscribe@example\.com/,
    );
    const env = envWith({
      ...SMTP,
      MAIL_REPLY_TO: " replies@shop.example ",
      MAIL_UNSUBSCRIBE_ADDRESS: "u@shop.example",
    })();
    expect(env.MAIL_REPLY_TO).toBe("replies@shop.example");
    expect(env.MAIL_UNSUBSCRIBE_ADDRESS).toBe("u@shop.example");
  });
});
