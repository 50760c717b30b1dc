// The bench's HTTP load generator, run as its own process by bench/helpers/load.ts so that it never shares
// an event loop with the server or the bench. Closed loop: each connection sends a request, reads
// the whole answer, sends the next. Connections open and warm up first; only the steady state
// that follows is recorded (a connection's first answers include accepting it and the server's JIT).
//
// Why not wrk: measured on this machine against a server that spends 1.1 ms on each request, the
// server saw every connection served again within 121 ms (fair batches of 50), an independent
// client measured p99 114 ms, and wrk reported p99 1.1 s. Raw sockets and a minimal HTTP/1.1
// reader cost this client a fraction of a core, which fetch() (undici) did not.
//
// Input: the JSON plan on stdin (thousands of paths exceed an argument's size). Output: one JSON
// line of stats on stdout.
import net from "node:net";

type Plan = {
  base: string;
  paths: string[];
  headers: Record<string, string>;
  connections: number;
  seconds: number;
  warmupSeconds: number;
};

let input = "";
for await (const chunk of process.stdin) input += String(chunk);
const plan = JSON.parse(input) as Plan;
const url = new URL(plan.base);
const port = Number(url.port || 80);
const headerLines = Object.entries({ Host: url.host, ...plan.headers })
  .map(([k, v]) => `${k}: ${v}\r\n`)
  .join("");
let nextPath = 0;
const requestBytes = () =>
  Buffer.from(`GET ${plan.paths[nextPath++ % plan.paths.length]} HTTP/1.1\r\n${headerLines}\r\n`);

const latencies: number[] = [];
let recording = false;
let stopped = false;
let errors = 0;
let non2xx = 0;
let firstBad: string | null = null;

/** Reads HTTP/1.1 answers (Content-Length or chunked) off one socket. */
class Connection {
  private buffer: Buffer = Buffer.alloc(0);
  private sentAt = 0;
  private readonly socket: net.Socket;
  constructor(onReady: () => void) {
    this.socket = net.connect({ host: url.hostname, port, noDelay: true }, () => {
      onReady();
      this.send();
    });
    this.socket.on("data", (chunk: Buffer) => {
      this.buffer = this.buffer.length ? Buffer.concat([this.buffer, chunk]) : chunk;
      this.drain();
    });
    this.socket.on("error", () => {
      errors++;
    });
  }
  private send() {
    if (stopped) return;
    this.sentAt = performance.now();
    this.socket.write(requestBytes());
  }
  private drain() {
    for (;;) {
      const end = this.buffer.indexOf("\r\n\r\n");
      if (end < 0) return;
      const head = this.buffer.subarray(0, end).toString("latin1");
      const status = Number(head.slice(9, 12));
      const length = /\r\ncontent-length:\s*(\d+)/i.exec(head);
      let consumed: number;
      if (length) {
        consumed = end + 4 + Number(length[1]);
        if (this.buffer.length < consumed) return;
      } else if (/\r\ntransfer-encoding:\s*chunked/i.test(head)) {
        let at = end + 4;
        for (;;) {
          const lineEnd = this.buffer.indexOf("\r\n", at);
          if (lineEnd < 0) return;
          const size = parseInt(this.buffer.subarray(at, lineEnd).toString("latin1"), 16);
          at = lineEnd + 2 + size + 2;
          if (this.buffer.length < at) return;
          if (size === 0) break;
        }
        consumed = at;
      } else {
        consumed = end + 4;
      }
      const now = performance.now();
      if (recording) {
        latencies.push(now - this.sentAt);
        if (status < 200 || status > 299) {
          non2xx++;
          firstBad ??= `${status} ${head.split("\r\n")[0]}`;
        }
      }
      this.buffer = this.buffer.subarray(consumed);
      this.send();
    }
  }
  close() {
    this.socket.destroy();
  }
}

let ready = 0;
const all: Connection[] = [];
await new Promise<void>((resolve) => {
  for (let i = 0; i < plan.connections; i++) all.push(new Connection(() => ++ready === plan.connections && resolve()));
});
await new Promise((r) => setTimeout(r, plan.warmupSeconds * 1000));
recording = true;
const started = performance.now();
await new Promise((r) => setTimeout(r, plan.seconds * 1000));
recording = false;
stopped = true;
const elapsed = (performance.now() - started) / 1000;
for (const c of all) c.close();

const sorted = latencies.sort((a, b) => a - b);
const at = (p: number) =>
  sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] ?? 0;
const round = (n: number) => Math.round(n * 100) / 100;
console.log(
  JSON.stringify({
    client: "raw-http",
    connections: plan.connections,
    count: sorted.length,
    errors,
    non2xx,
    firstBad,
    p50: round(at(50)),
    p95: round(at(95)),
    p99: round(at(99)),
    max: round(sorted[sorted.length - 1] ?? 0),
    requestsPerSecond: Math.round(sorted.length / elapsed),
  }),
);
process.exit(0);
