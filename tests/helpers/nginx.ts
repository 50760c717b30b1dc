// The load balancer of compose.yaml (deploy/nginx.conf) run on this machine with Debian's nginx
// (`apt-get install nginx-light`), for the tests of several instances behind one address. The
// shipped file is used as it is, with only what differs outside a container put in: the test's
// instances as the upstream servers, a loopback port to listen on, and the access log, pid file and
// temp directories in a directory of its own. nginx runs in the foreground, a child of the test.
import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import net from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";

export const NGINX_CONFIG = path.resolve(import.meta.dirname, "../../deploy/nginx.conf");

/** One line of the balancer's access log (log_format balanced in deploy/nginx.conf). */
export type BalancedRequest = {
  method: string;
  uri: string;
  status: number;
  /** The instance that answered, host:port (more than one, comma-separated, when nginx tried another). */
  upstream: string;
};

export type Balancer = {
  /** The one address of every instance: http://127.0.0.1:PORT. */
  readonly url: string;
  readonly port: number;
  /** The requests answered so far, in order. */
  requests(): BalancedRequest[];
  /** nginx's own messages (its error log). */
  output(): string;
  stop(): Promise<void>;
};

/** Debian's nginx, or a clear message of what to install. */
export function nginxBinary(): string {
  for (const candidate of ["/usr/sbin/nginx", "/usr/bin/nginx"]) if (existsSync(candidate)) return candidate;
  throw new Error("nginx is not installed: apt-get install nginx-light (Debian's nginx) to run the load balancer");
}

/**
 * deploy/nginx.conf with the upstream servers, the listen port and the paths of `dir` put in:
 * everything else (headers passed on, body limits, keepalive) as the container runs it.
 */
export function balancerConfig(options: { upstreams: string[]; port: number; dir: string }): string {
  const text = readFileSync(NGINX_CONFIG, "utf8");
  const upstream = /(upstream crm \{\n)((?:\s*server [^\n]*;\n)+)/;
  if (!upstream.test(text)) throw new Error(`${NGINX_CONFIG}: no "upstream crm" block with its servers`);
  const listen = /^(\s*)listen 80;$/m;
  if (!listen.test(text)) throw new Error(`${NGINX_CONFIG}: no "listen 80;"`);
  const accessLog = /access_log \S+ balanced;/;
  if (!accessLog.test(text)) throw new Error(`${NGINX_CONFIG}: no "access_log … balanced;"`);
  const temp = ["client_body", "proxy", "fastcgi", "uwsgi", "scgi"]
    .map((name) => `  ${name}_temp_path ${path.join(options.dir, `${name}_temp`)};\n`)
    .join("");
  return text
    .replace(upstream, (_, head: string) => `${head}${options.upstreams.map((u) => `    server ${u};\n`).join("")}`)
    .replace(listen, (_, indent: string) => `${indent}listen 127.0.0.1:${options.port};`)
    .replace(accessLog, `access_log ${path.join(options.dir, "access.log")} balanced;`)
    .replace(/^http \{\n/m, (head) => `${head}${temp}`);
}

/** Checks a configuration with `nginx -t`; throws nginx's message when it refuses it. */
export function testBalancerConfig(config: string): void {
  const dir = mkdtempSync(path.join(tmpdir(), "crm-nginx-t-"));
  try {
    const file = path.join(dir, "nginx.conf");
    writeFileSync(file, config);
    execFileSync(
      nginxBinary(),
      ["-t", "-q", "-p", `${dir}/`, "-c", file, "-e", "stderr", "-g", `pid ${dir}/nginx.pid;`],
      {
        stdio: ["ignore", "pipe", "pipe"],
      },
    );
  } catch (error) {
    const stderr = (error as { stderr?: Buffer }).stderr?.toString() ?? "";
    throw new Error(`nginx refused the configuration: ${stderr || String(error)}`, { cause: error });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

async function freeLoopbackPort(): Promise<number> {
  const server = net.createServer().listen(0, "127.0.0.1");
  await new Promise((resolve) => server.once("listening", resolve));
  const port = (server.address() as net.AddressInfo).port;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** Resolves once something accepts connections on the port (rejects when `child` exits first). */
async function listening(port: number, child: ChildProcess, output: () => string): Promise<void> {
  for (let i = 0; i < 200; i++) {
    if (child.exitCode !== null) throw new Error(`nginx exited (${child.exitCode}): ${output()}`);
    const up = await new Promise<boolean>((resolve) => {
      const socket = net.connect(port, "127.0.0.1");
      socket.once("connect", () => {
        socket.destroy();
        resolve(true);
      });
      socket.once("error", () => resolve(false));
    });
    if (up) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`nginx did not listen on port ${port}: ${output()}`);
}

/**
 * Starts nginx on a free loopback port in front of `upstreams` (host:port of each instance), with
 * deploy/nginx.conf. The instances' PUBLIC_URL must be the balancer's url: start them after it,
 * with `port` reserved first (reservePort) when they need to know it before nginx runs.
 */
export async function startBalancer(upstreams: string[], options: { port?: number } = {}): Promise<Balancer> {
  const binary = nginxBinary();
  const port = options.port ?? (await freeLoopbackPort());
  const dir = mkdtempSync(path.join(tmpdir(), "crm-nginx-"));
  // Run as root, nginx's workers are `nobody`: they must reach the temp directories in here.
  chmodSync(dir, 0o755);
  const config = path.join(dir, "nginx.conf");
  writeFileSync(config, balancerConfig({ upstreams, port, dir }));
  let output = "";
  const child = spawn(
    binary,
    ["-p", `${dir}/`, "-c", config, "-e", "stderr", "-g", `daemon off; pid ${path.join(dir, "nginx.pid")};`],
    { stdio: ["ignore", "pipe", "pipe"] },
  );
  child.stdout?.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on("data", (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  try {
    await listening(port, child, () => output);
  } catch (error) {
    child.kill("SIGKILL");
    await exited;
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    output: () => output,
    requests() {
      const file = path.join(dir, "access.log");
      if (!existsSync(file)) return [];
      return readFileSync(file, "utf8")
        .split("\n")
        .filter(Boolean)
        .map((line) => JSON.parse(line) as BalancedRequest);
    },
    async stop() {
      // SIGTERM: nginx's fast shutdown, its workers with it.
      if (child.exitCode === null) child.kill("SIGTERM");
      await exited;
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** A loopback port free now, for a balancer whose address the instances must know before it starts. */
export const reservePort = freeLoopbackPort;
