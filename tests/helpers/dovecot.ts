// A real IMAP server for the tests that read the bounce mailbox: Dovecot from Debian's packages
// (dovecot-imapd; .ci/run installs it), started as a process of its own with a configuration
// written for the test into a temporary directory: one user in a passwd-file, maildir storage in
// the same directory, plain login allowed without TLS because it listens on loopback only, on a
// free port. Nothing is skipped: a Dovecot that cannot start fails the test with its own log.
import { type ChildProcess, spawn } from "node:child_process";
import { chmodSync, chownSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { connect, createServer, type AddressInfo } from "node:net";
import { tmpdir, userInfo } from "node:os";
import path from "node:path";
import { selfSignedCertificate } from "./certificate";

export const DOVECOT_BINARY = "/usr/sbin/dovecot";

export type Dovecot = {
  port: number;
  user: string;
  password: string;
  /** The mailbox's URL as BOUNCE_MAILBOX_URL takes it (plain IMAP: the server is on loopback). */
  url: string;
  /** With `tls`: the IMAPS port (TLS from the start, a self-signed certificate for "localhost"). */
  tlsPort?: number;
  /**
   * Where the user's mail lives, for a mail server that delivers into it (tests/helpers/postfix.ts):
   * the directory above the user's home, the home's name in it (the Maildir is `<home>/Maildir/`),
   * and the ids its files must belong to.
   */
  mailStore: { base: string; home: string; uid: number; gid: number };
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
      socket.destroy();
      resolve(data.toString("utf8"));
    });
    socket.once("timeout", () => {
      socket.destroy();
      reject(new Error("no greeting"));
    });
    socket.once("error", reject);
  });
}

/** A system user's ids from /etc/passwd (the users Debian's dovecot-core package creates). */
function systemUser(name: string): { uid: number; gid: number } {
  const line = readFileSync("/etc/passwd", "utf8")
    .split("\n")
    .find((l) => l.startsWith(`${name}:`));
  const [, , uid, gid] = line?.split(":") ?? [];
  if (!uid || !gid) throw new Error(`The system user "${name}" is missing: install dovecot-imapd (it creates it).`);
  return { uid: Number(uid), gid: Number(gid) };
}

/**
 * Starts Dovecot on 127.0.0.1 and 127.0.0.2 (both loopback; the client treats only 127.0.0.1, ::1
 * and localhost as this machine, so 127.0.0.2 stands for a server elsewhere). With `tls`, a
 * self-signed certificate made with openssl: IMAPS on `tlsPort`, and STARTTLS offered on the plain
 * port.
 */
export async function startDovecot(options: { tls?: boolean } = {}): Promise<Dovecot> {
  if (!existsSync(DOVECOT_BINARY)) {
    throw new Error(`${DOVECOT_BINARY} is missing: install dovecot-imapd from Debian's packages (.ci/run does).`);
  }
  const dir = mkdtempSync(path.join(tmpdir(), "crm-dovecot-"));
  const port = await freePort();
  const tlsPort = options.tls ? await freePort() : 0;
  if (options.tls) {
    const { key, cert } = selfSignedCertificate();
    writeFileSync(path.join(dir, "key.pem"), key);
    writeFileSync(path.join(dir, "cert.pem"), cert);
  }
  const user = "bounces";
  const password = "bounce-mailbox-password";
  const me = userInfo();
  // As root (here and in CI) Dovecot runs its login and internal processes as the unprivileged
  // users its package creates, and refuses uid 0 for mail: the mail is the "dovecot" user's. As
  // anyone else it runs everything as that user.
  const root = me.uid === 0;
  const mailUser = root ? systemUser("dovecot") : { uid: me.uid, gid: me.gid };
  for (const sub of ["run", "state", "home"]) mkdirSync(path.join(dir, sub), { recursive: true });
  chownSync(path.join(dir, "home"), mailUser.uid, mailUser.gid);
  writeFileSync(
    path.join(dir, "passwd"),
    `${user}:{PLAIN}${password}:${mailUser.uid}:${mailUser.gid}::${dir}/home/${user}\n`,
  );
  // Dovecot's auth process reads the passwd-file as its internal user (as root: "dovecot"); the
  // test process may run with a umask of 077 (app/env.server.ts sets it).
  chmodSync(dir, 0o755);
  chmodSync(path.join(dir, "passwd"), 0o644);
  const config = `
base_dir = ${dir}/run
state_dir = ${dir}/state
log_path = ${dir}/dovecot.log
protocols = imap
listen = 127.0.0.1, 127.0.0.2
${options.tls ? `ssl = yes\nssl_cert = <${dir}/cert.pem\nssl_key = <${dir}/key.pem` : "ssl = no"}
disable_plaintext_auth = no
auth_mechanisms = plain login
# A wrong password is answered at once (the tests try one on purpose).
auth_failure_delay = 0
first_valid_uid = ${mailUser.uid}
first_valid_gid = ${mailUser.gid}
default_login_user = ${root ? "dovenull" : me.username}
default_internal_user = ${root ? "dovecot" : me.username}
mail_location = maildir:~/Maildir
passdb {
  driver = passwd-file
  args = ${dir}/passwd
}
userdb {
  driver = passwd-file
  args = ${dir}/passwd
}
service imap-login {
  chroot =
  inet_listener imap {
    address = 127.0.0.1, 127.0.0.2
    port = ${port}
  }
  inet_listener imaps {
    address = 127.0.0.1
    port = ${tlsPort}
  }
}
service anvil {
  chroot =
}
`;
  const configFile = path.join(dir, "dovecot.conf");
  writeFileSync(configFile, config);

  const child: ChildProcess = spawn(DOVECOT_BINARY, ["-F", "-c", configFile], { stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  child.stdout?.on("data", (d: Buffer) => (output += d.toString()));
  child.stderr?.on("data", (d: Buffer) => (output += d.toString()));
  let exited: number | null | undefined;
  child.on("exit", (code) => (exited = code));
  const log = () => {
    const file = path.join(dir, "dovecot.log");
    return `${output}${existsSync(file) ? readFileSync(file, "utf8") : ""}`.trim();
  };

  const deadline = Date.now() + 10_000;
  for (;;) {
    if (exited !== undefined) {
      rmSync(dir, { recursive: true, force: true });
      throw new Error(`Dovecot stopped at start (exit code ${exited}):\n${log()}`);
    }
    try {
      const hello = await greeting(port);
      if (hello.startsWith("* OK")) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      child.kill("SIGKILL");
      rmSync(dir, { recursive: true, force: true });
      throw new Error(`Dovecot did not answer on 127.0.0.1:${port} within 10 s:\n${log()}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }

  return {
    port,
    user,
    password,
    url: `imap://${user}:${password}@127.0.0.1:${port}/INBOX`,
    tlsPort: options.tls ? tlsPort : undefined,
    mailStore: { base: path.join(dir, "home"), home: user, uid: mailUser.uid, gid: mailUser.gid },
    async stop() {
      if (exited === undefined) {
        const gone = new Promise<void>((resolve) => child.once("exit", () => resolve()));
        child.kill("SIGTERM");
        await Promise.race([gone, new Promise((resolve) => setTimeout(resolve, 5000))]);
        if (exited === undefined) child.kill("SIGKILL");
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
