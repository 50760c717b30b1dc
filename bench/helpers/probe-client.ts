// The offthread bench section's prober, a process of its own (so neither the server nor the bench's
// upload and download share its event loop): every intervalMs it sends GET /healthz and a simple
// read (GET /api/customers/{id}, ids in turn), and every writeIntervalMs creates a customer
// (POST /api/customers), on a fixed schedule whatever the answers take (a stalled server shows as
// slow answers, not as fewer probes). Each answer is one sample: when it was sent (epoch ms), what,
// how long it took, its status and, for /healthz, the eventLoopDelayP99Ms it reported.
//
// Input: the JSON plan as the first line on stdin; a line "stop" ends it. Output: "ready" on stdout
// once it probes; at the end the samples as JSON in plan.outFile, then "done".
import { writeFileSync } from "node:fs";
import http from "node:http";
import { createInterface } from "node:readline";

type Plan = {
  base: string;
  token: string;
  ids: string[];
  intervalMs: number;
  writeIntervalMs: number;
  /** Where the samples go (a file: a large write to a pipe is cut short when the process exits). */
  outFile: string;
};
export type ProbeSample = {
  at: number;
  kind: "healthz" | "read" | "write";
  ms: number;
  status: number;
  loopP99?: number;
};

const lines = createInterface({ input: process.stdin })[Symbol.asyncIterator]();
const plan = JSON.parse(String((await lines.next()).value)) as Plan;
const url = new URL(plan.base);
const agent = new http.Agent({ keepAlive: true, maxSockets: Infinity });
const samples: ProbeSample[] = [];
let outstanding = 0;

function probe(kind: ProbeSample["kind"], method: string, path: string, body?: string) {
  const at = Date.now();
  const started = performance.now();
  outstanding += 1;
  const done = (status: number, text: string) => {
    outstanding -= 1;
    const sample: ProbeSample = { at, kind, ms: Math.round((performance.now() - started) * 100) / 100, status };
    if (kind === "healthz" && status === 200) {
      try {
        sample.loopP99 = (JSON.parse(text) as { eventLoopDelayP99Ms?: number }).eventLoopDelayP99Ms;
      } catch {
        /* not JSON: the status says enough */
      }
    }
    samples.push(sample);
  };
  const req = http.request(
    {
      host: url.hostname,
      port: url.port,
      method,
      path,
      agent,
      headers: {
        Authorization: `Bearer ${plan.token}`,
        ...(body ? { "Content-Type": "application/json", "Content-Length": Buffer.byteLength(body) } : {}),
      },
    },
    (res) => {
      let text = "";
      res.setEncoding("utf8");
      res.on("data", (c: string) => (text += c));
      res.on("end", () => done(res.statusCode ?? 0, text));
      res.on("error", () => done(0, ""));
    },
  );
  req.on("error", () => done(0, ""));
  req.end(body);
}

let nextId = 0;
let writes = 0;
const tick = setInterval(() => {
  probe("healthz", "GET", "/healthz");
  probe("read", "GET", `/api/customers/${plan.ids[nextId++ % plan.ids.length]}`);
}, plan.intervalMs);
const writeTick = setInterval(() => {
  writes += 1;
  const body = JSON.stringify({
    firstName: "Probe",
    lastName: `Write ${writes}`,
    email: `probe-${process.pid}-${writes}@example.com`,
  });
  probe("write", "POST", "/api/customers", body);
}, plan.writeIntervalMs);

process.stdout.write("ready\n");
for (;;) {
  const line = await lines.next();
  if (line.done || String(line.value).trim() === "stop") break;
}
clearInterval(tick);
clearInterval(writeTick);
for (let waited = 0; outstanding > 0 && waited < 30_000; waited += 50) await new Promise((r) => setTimeout(r, 50));
writeFileSync(plan.outFile, JSON.stringify({ samples }));
agent.destroy();
process.stdout.write("done\n", () => process.exit(0));
