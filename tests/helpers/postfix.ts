// A real mail server for the tests that send campaign mail through a relay: Postfix from Debian's
// packages (postfix; .ci/run installs it), a private instance started as a process of the test
// (`postfix start-fg`) with its own configuration, queue and data directories in a temporary
// directory, listening on a free port on 127.0.0.1 only. Nothing outside that directory changes,
// and stop() removes it. It relays for 127.0.0.0/8 and delivers the mail of one domain into a
// Dovecot mail store (tests/helpers/dovecot.ts) with Postfix's own virtual delivery agent, so a
// test reads what arrived over IMAP. A second smtpd on `afterFilterPort` takes mail without any
// before-queue filter: it is where a content filter (smtpd_proxy_filter) hands the mail back.
//
// Postfix's master runs as root (its daemons then run as the "postfix" user its package creates):
// the tests run as root here and in CI. Its log (maillog_file, a file in the directory) is there
// for the test to read, and is printed when Postfix cannot start.
import { type ChildProcess, execFile, spawn } from "node:child_process";
import {
  chmodSync,
  chownSync,
  closeSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { connect, createServer, type AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import type { Dovecot } from "./dovecot";
import type { TestCertificate } from "./certificate";

export const POSTFIX_BINARY = "/usr/sbin/postfix";

/** Whether Debian's postfix package is installed (the only reason a Postfix test may skip). */
export const postfixInstalled = () => existsSync(POSTFIX_BINARY);

const run = promisify(execFile);

export type PostfixOptions = {
  /** The domain whose mail is delivered into `store`; every other domain is relayed nowhere. */
  domain: string;
  /** Dovecot's mail store: every deliverable address of `domain` lands in its one Maildir. */
  store: Dovecot["mailStore"];
  /**
   * Local parts of `domain` that have no mailbox (a POSIX regular expression, anchored by the
   * caller): Postfix answers their RCPT TO with its own "550 5.1.1 … User unknown".
   */
  unknownUsers?: string;
  /** The certificate smtpd offers with STARTTLS (no TLS without it). */
  tls?: TestCertificate;
  /** More main.cf settings, name = value. */
  settings?: Record<string, string>;
};

export type Postfix = {
  /** The relay's SMTP port on 127.0.0.1. */
  port: number;
  /** A second smtpd that no before-queue filter is in front of: where a proxy filter hands mail back. */
  afterFilterPort: number;
  /** What Postfix has logged so far. */
  log(): string;
  /**
   * Writes a lookup table (regexp_table(5) lines) into the configuration directory and gives its
   * name as a setting takes it ("regexp:/…/name"); tables are read at start and at configure().
   */
  table(name: string, lines: readonly string[]): string;
  /** Changes main.cf settings (null resets one to its default) and reloads Postfix. */
  configure(settings: Record<string, string | null>): Promise<void>;
  /** The queue's messages (postqueue -j), e.g. to see that nothing is left deferred. */
  queue(): Promise<{ queue_name: string; recipients: { address: string; delay_reason?: string }[] }[]>;
  stop(): Promise<void>;
};

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** Resolves with the first line the server sends (its greeting), or rejects if nothing answers. */
function greeting(port: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, "127.0.0.1");
    socket.setTimeout(1000);
    socket.once("data", (data: Buffer) => {
      socket.end("QUIT\r\n");
      resolve(data.toString("utf8"));
    });
    socket.once("timeout", () => {
      socket.destroy();
      reject(new Error("no greeting"));
    });
    socket.once("error", reject);
  });
}

/** main.cf's text for the settings (the values are ours: no line breaks). */
const mainCf = (settings: Record<string, string>) =>
  `${Object.entries(settings)
    .map(([name, value]) => `${name} = ${value}`)
    .join("\n")}\n`;

export async function startPostfix(options: PostfixOptions): Promise<Postfix> {
  if (!postfixInstalled()) {
    throw new Error(`${POSTFIX_BINARY} is missing: install postfix from Debian's packages (.ci/run does).`);
  }
  if (process.getuid?.() !== 0) {
    throw new Error("Postfix's master must be started by root: run the Postfix tests as root (as CI does).");
  }
  const dir = mkdtempSync(path.join(tmpdir(), "crm-postfix-"));
  const etc = path.join(dir, "etc");
  const queue = path.join(dir, "queue");
  const data = path.join(dir, "data");
  mkdirSync(etc);
  mkdirSync(queue);
  mkdirSync(data);
  // Postfix's daemons read the configuration and the queue as the "postfix" user; the test process
  // may run with a umask of 077 (app/env.server.ts sets it).
  for (const d of [dir, etc, queue]) chmodSync(d, 0o755);
  const owner = await run("id", ["-u", "postfix"]).then((r) => Number(r.stdout.trim()));
  const group = await run("id", ["-g", "postfix"]).then((r) => Number(r.stdout.trim()));
  chownSync(data, owner, group);

  const logFile = path.join(dir, "maillog");
  const port = await freePort();
  const afterFilterPort = await freePort();
  const tableFile = (name: string) => path.join(etc, name);
  const table = (name: string, lines: readonly string[]) => {
    writeFileSync(tableFile(name), `${lines.join("\n")}\n`);
    chmodSync(tableFile(name), 0o644);
    return `regexp:${tableFile(name)}`;
  };
  // Every address of the domain has the one Maildir, except the unknown users' (no result: unknown).
  const domainPattern = `/@${options.domain.replace(/\./g, "\\.")}$/ ${options.store.home}/Maildir/`;
  const mailboxes = table(
    "mailboxes",
    options.unknownUsers ? [`if !/^(${options.unknownUsers})@/`, domainPattern, "endif"] : [domainPattern],
  );
  const certFile = path.join(etc, "cert.pem");
  const keyFile = path.join(etc, "key.pem");
  if (options.tls) {
    writeFileSync(certFile, options.tls.cert);
    writeFileSync(keyFile, options.tls.key);
    chmodSync(certFile, 0o644);
    chmodSync(keyFile, 0o600);
  }
  const settings: Record<string, string> = {
    compatibility_level: "3.6",
    queue_directory: queue,
    data_directory: data,
    mail_owner: "postfix",
    myhostname: "relay.test",
    mydomain: "relay.test",
    myorigin: "relay.test",
    mydestination: "",
    inet_interfaces: "127.0.0.1",
    inet_protocols: "ipv4",
    mynetworks: "127.0.0.0/8",
    maillog_file: logFile,
    maillog_file_prefixes: dir,
    // No DNS: the tests have no network, and nothing here is looked up.
    smtp_host_lookup: "native",
    disable_dns_lookups: "yes",
    smtpd_relay_restrictions: "permit_mynetworks, reject_unauth_destination",
    // The test's domain is delivered here; the rest would wait in the queue (there is no DNS).
    virtual_mailbox_domains: options.domain,
    virtual_mailbox_base: options.store.base,
    virtual_mailbox_maps: mailboxes,
    virtual_uid_maps: `static:${options.store.uid}`,
    virtual_gid_maps: `static:${options.store.gid}`,
    virtual_minimum_uid: String(Math.min(100, options.store.uid)),
    // A test's limits and filters answer at once, not after a second's pause an error.
    smtpd_error_sleep_time: "0",
    ...(options.tls
      ? {
          smtpd_tls_security_level: "may",
          smtpd_tls_cert_file: certFile,
          smtpd_tls_key_file: keyFile,
          // The Received header says whether and how the message came over TLS.
          smtpd_tls_received_header: "yes",
          smtpd_tls_loglevel: "1",
        }
      : {}),
    ...options.settings,
  };
  const current = { ...settings };
  writeFileSync(path.join(etc, "main.cf"), mainCf(current));
  // No chroot (the temporary directory is not laid out for one); the services campaign relaying
  // and virtual delivery need.
  const master = [
    `127.0.0.1:${port} inet n - n - - smtpd`,
    `127.0.0.1:${afterFilterPort} inet n - n - - smtpd`,
    "  -o smtpd_proxy_filter=",
    "  -o smtpd_tls_security_level=none",
    "  -o smtpd_sender_restrictions=",
    "  -o smtpd_recipient_restrictions=",
    "  -o smtpd_client_restrictions=",
    "cleanup unix n - n - 0 cleanup",
    "qmgr unix n - n 300 1 qmgr",
    "tlsmgr unix - - n 1000? 1 tlsmgr",
    "rewrite unix - - n - - trivial-rewrite",
    "bounce unix - - n - 0 bounce",
    "defer unix - - n - 0 bounce",
    "trace unix - - n - 0 bounce",
    "verify unix - - n - 1 verify",
    "flush unix n - n 1000? 0 flush",
    "proxymap unix - - n - - proxymap",
    "showq unix n - n - - showq",
    "error unix - - n - - error",
    "retry unix - - n - - error",
    "discard unix - - n - - discard",
    "virtual unix - n n - - virtual",
    "anvil unix - - n - 1 anvil",
    "scache unix - - n - 1 scache",
    "postlog unix-dgram n - n - 1 postlogd",
  ];
  writeFileSync(path.join(etc, "master.cf"), `${master.join("\n")}\n`);
  for (const f of ["main.cf", "master.cf"]) chmodSync(path.join(etc, f), 0o644);

  // Its output goes to a file: the postfix command stops at once, saying nothing, when its output
  // is a socket (what a pipe from node is).
  const outputFile = path.join(dir, "output");
  const out = openSync(outputFile, "a");
  const child: ChildProcess = spawn(POSTFIX_BINARY, ["-c", etc, "start-fg"], { stdio: ["ignore", out, out], cwd: dir });
  closeSync(out);
  let exited: number | null | undefined;
  const gone = new Promise<void>((resolve) =>
    child.on("exit", (code) => {
      exited = code;
      resolve();
    }),
  );
  const postfix = (...args: string[]) => run(POSTFIX_BINARY, ["-c", etc, ...args]);
  const log = () => [outputFile, logFile].map((file) => (existsSync(file) ? readFileSync(file, "utf8") : "")).join("");
  const masterPid = () => {
    const file = path.join(queue, "pid", "master.pid");
    return existsSync(file) ? Number(readFileSync(file, "utf8").trim()) : 0;
  };
  const kill = async () => {
    if (exited === undefined) {
      await postfix("stop").catch(() => undefined);
      await Promise.race([gone, new Promise((resolve) => setTimeout(resolve, 10_000))]);
    }
    if (exited === undefined) {
      const pid = masterPid();
      if (pid > 0) {
        try {
          process.kill(pid, "SIGKILL");
        } catch {
          // gone already
        }
      }
      child.kill("SIGKILL");
    }
    rmSync(dir, { recursive: true, force: true });
  };

  const deadline = Date.now() + 20_000;
  for (;;) {
    if (exited !== undefined) {
      const text = log().trim();
      rmSync(dir, { recursive: true, force: true });
      throw new Error(`Postfix stopped at start (exit code ${exited}):\n${text}`);
    }
    try {
      const hello = await greeting(port);
      if (hello.startsWith("220 ")) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      const text = log().trim();
      await kill();
      throw new Error(`Postfix did not answer on 127.0.0.1:${port} within 20 s:\n${text}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }

  return {
    port,
    afterFilterPort,
    log,
    table,
    async configure(changes) {
      for (const [name, value] of Object.entries(changes)) {
        if (value === null) delete current[name];
        else current[name] = value;
      }
      writeFileSync(path.join(etc, "main.cf"), mainCf(current));
      const reloads = log().split("reload -- version").length;
      await postfix("reload");
      // The master logs its reload once it has read the new settings; the smtpd processes already
      // running finish their sessions with the old ones, new connections get the new.
      const until = Date.now() + 10_000;
      while (log().split("reload -- version").length === reloads) {
        if (Date.now() > until) throw new Error(`Postfix did not reload within 10 s:\n${log()}`);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    },
    async queue() {
      const { stdout } = await run("/usr/sbin/postqueue", ["-c", etc, "-j"]);
      return stdout
        .split("\n")
        .filter((line) => line.trim() !== "")
        .map((line) => JSON.parse(line) as Awaited<ReturnType<Postfix["queue"]>>[number]);
    },
    stop: kill,
  };
}
