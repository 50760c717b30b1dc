// CPU a message of the product's own SMTP client (the SMTP channel, decision 0024) against
// nodemailer's pooled SMTP transport, on the same machine, the messages built and signed the same
// way for both (mime.server.ts and dkim-signature.server.ts, the key parsed once, signed in this thread
// so both runs do the same signing work), sent to the bench's SMTP sink in a process of its own
// (bench/helpers/smtp-sink.ts). Three runs of each, alternating, and the median of each; CPU is
// this process's (user + system, every thread), divided by the messages the sink accepted.
//
//   flock /tmp/test.lock npx tsx bench/standalone/smtp-clients-cpu.ts [messages a run, default 4000]
import { generateKeyPairSync } from "node:crypto";
import nodemailer from "nodemailer";
import type { ChannelResult, OutgoingMessage, SendControl } from "../../app/services/sending/channel.server.ts";
import { smtpChannel } from "../../app/services/sending/smtp-channel.server.ts";
import { dkimKey, signHeaders, signInThread } from "../../app/services/email/dkim-signature.server.ts";
import { buildMessage } from "../../app/services/email/mime.server.ts";
import { startSmtpSink } from "../helpers/smtp-sink.ts";

const MESSAGES = Number(process.argv[2] ?? 4000);
const POOL = 5;
const DOMAIN = "bench.example";
const { privateKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
const signingKey = {
  domainName: DOMAIN,
  keySelector: "bench",
  privateKey: privateKey.export({ type: "pkcs8", format: "pem" }).toString(),
};
const key = dkimKey(signingKey);
const signer = signInThread(key);

// About the bench's messages: 4 KB of HTML with tracked links and a pixel, and its text.
const paragraph = "Our Diwali sale starts today: 20% off everything in the store, and free delivery over Rs 999. ";
const html = `<html><body>${Array.from(
  { length: 12 },
  (_, i) => `<p>${paragraph}<a href="https://crm.example/c/token${i}">See offer ${i}</a></p>`,
).join("")}<img src="https://crm.example/o/pixel" width="1" height="1" alt=""></body></html>`;
const text = Array.from({ length: 12 }, (_, i) => `${paragraph}\nSee offer ${i}: https://crm.example/c/token${i}`).join(
  "\n\n",
);

let run = 0;
function messages(): OutgoingMessage[] {
  run += 1;
  return Array.from({ length: MESSAGES }, (_, i) => ({
    key: `${run.toString(16).padStart(8, "0")}${i.toString(16).padStart(16, "0")}`,
    to: { name: `Customer ${i}`, email: `c${i}@example.net`, phone: "" },
    from: { name: "Bench Shop", address: `news@${DOMAIN}`, replyTo: null },
    subject: `Hello Customer ${i}`,
    text,
    html,
    unsubscribeUrl: `https://crm.example/u/token${i}`,
  }));
}

/** Built and signed as the SMTP channel does it. */
async function prepared(m: OutgoingMessage): Promise<string> {
  const { headers, body } = buildMessage({
    id: m.key,
    from: { name: m.from.name, address: m.from.address },
    to: { name: m.to.name, address: m.to.email },
    subject: m.subject,
    text: m.text,
    html: m.html,
    unsubscribeUrl: m.unsubscribeUrl,
  });
  return `${await signHeaders(key, signer, headers, body)}\r\n\r\n${body}`;
}

/** The own client as the engine drives it: batches of 100, four out at once, envelopes ahead. */
async function ownClient(port: number, batch: OutgoingMessage[]): Promise<number> {
  const channel = smtpChannel({
    url: `smtp://127.0.0.1:${port}`,
    maxConnections: POOL,
    dkim: signingKey,
    signingThreads: 0,
  });
  const control: SendControl = { proceed: () => true, stillGoing: () => true, answersRecorded: async () => {} };
  let accepted = 0;
  const chunks: OutgoingMessage[][] = [];
  for (let i = 0; i < batch.length; i += 100) chunks.push(batch.slice(i, i + 100));
  const worker = async () => {
    for (let chunk = chunks.shift(); chunk; chunk = chunks.shift()) {
      const results: ChannelResult[] = await channel.send(chunk, control);
      accepted += results.filter((r) => r.status === "accepted").length;
    }
  };
  await Promise.all([worker(), worker(), worker(), worker()]);
  await channel.close();
  return accepted;
}

/** nodemailer's pooled transport with the same messages, as many out at once as the own client's look-ahead. */
async function nodemailerPool(port: number, batch: OutgoingMessage[]): Promise<number> {
  const transport = nodemailer.createTransport({
    pool: true,
    maxConnections: POOL,
    maxMessages: 1000,
    host: "127.0.0.1",
    port,
    secure: false,
    ignoreTLS: true,
  });
  let accepted = 0;
  let next = 0;
  const worker = async () => {
    while (next < batch.length) {
      const m = batch[next++];
      const raw = await prepared(m);
      await transport.sendMail({ envelope: { from: m.from.address, to: [m.to.email] }, raw });
      accepted += 1;
    }
  };
  await Promise.all(Array.from({ length: POOL * 4 }, worker));
  transport.close();
  return accepted;
}

async function main() {
  const { sink, port: listening } = startSmtpSink();
  const report = sink.report;
  const port = await listening;
  const figures: Record<string, { cpuMsPerMessage: number; perSecond: number; sinkCpuMsPerMessage: number }[]> = {
    own: [],
    nodemailer: [],
  };
  // A warm-up of each, not counted.
  await ownClient(port, messages().slice(0, 500));
  await nodemailerPool(port, messages().slice(0, 500));
  for (let round = 0; round < 3; round++) {
    for (const [name, send] of [
      ["own", ownClient],
      ["nodemailer", nodemailerPool],
    ] as const) {
      const batch = messages();
      const before = await report();
      const cpu = process.cpuUsage();
      const started = performance.now();
      const accepted = await send(port, batch);
      const wall = performance.now() - started;
      const used = process.cpuUsage(cpu);
      const after = await report();
      const received = after.messages - before.messages;
      if (accepted !== MESSAGES || received !== MESSAGES)
        throw new Error(`${name}: ${accepted} accepted, ${received} received of ${MESSAGES}`);
      const figure = {
        cpuMsPerMessage: (used.user + used.system) / 1000 / received,
        perSecond: Math.round((received / wall) * 1000),
        sinkCpuMsPerMessage: (after.cpuMs - before.cpuMs) / received,
      };
      figures[name].push(figure);
      console.log(round + 1, name, JSON.stringify(figure));
    }
  }
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[1];
  const own = median(figures.own.map((f) => f.cpuMsPerMessage));
  const nm = median(figures.nodemailer.map((f) => f.cpuMsPerMessage));
  console.log(
    JSON.stringify(
      {
        messagesPerRun: MESSAGES,
        medianCpuMsPerMessage: { own: Number(own.toFixed(3)), nodemailer: Number(nm.toFixed(3)) },
        ownCostsLessBy: `${(((nm - own) / nm) * 100).toFixed(1)}%`,
        medianPerSecond: {
          own: median(figures.own.map((f) => f.perSecond)),
          nodemailer: median(figures.nodemailer.map((f) => f.perSecond)),
        },
      },
      null,
      2,
    ),
  );
  sink.process.kill();
}

await main();
