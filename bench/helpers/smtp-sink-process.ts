// A local SMTP server in a process of its own for the bench's smtp section (bench/sections/sqlite/smtp.ts),
// as a real relay would be: the smtp-server package on a loopback port, accepting every message.
// It keeps no bodies: it reads each message's header block, checks it carries a DKIM-Signature
// and a Message-ID no earlier message had, counts what it saw, and drops the rest of the stream.
// The parent (spawned with an IPC channel) asks for the counts with { type: "report" }; the sink
// answers with a SinkReport, its own CPU time included, so the report can say what receiving cost.
// The port comes from SINK_PORT (0 picks a free one); the sink sends { type: "listening", port }
// once it accepts connections.
import type { AddressInfo } from "node:net";
import { SMTPServer } from "smtp-server";

export type SinkReport = {
  type: "report";
  /** Messages accepted (answered 250). */
  messages: number;
  /** Recipients over all messages (one a message for a campaign). */
  recipients: number;
  /** Messages whose header block had a DKIM-Signature field. */
  dkimSigned: number;
  /** Messages with no Message-ID, and Message-IDs an earlier message already had. */
  missingMessageId: number;
  duplicateMessageIds: number;
  /** multipart/alternative messages, and those with both List-Unsubscribe headers (RFC 8058). */
  multipartAlternative: number;
  oneClickUnsubscribe: number;
  /** Bytes received, headers and bodies. */
  bytes: number;
  /** Connections opened by the sender over the run. */
  connections: number;
  /** Wall time from the first message's end to the last's, in ms. */
  firstToLastMs: number;
  /** The sink process's CPU time (user + system) since it started, in ms. */
  cpuMs: number;
  /** One header block as received, for a look at what was sent. */
  sampleHeaders: string | null;
};

const HEADER_END = "\r\n\r\n";
const counts = {
  messages: 0,
  recipients: 0,
  dkimSigned: 0,
  missingMessageId: 0,
  duplicateMessageIds: 0,
  multipartAlternative: 0,
  oneClickUnsubscribe: 0,
  bytes: 0,
  connections: 0,
};
const messageIds = new Set<string>();
let firstAt = 0;
let lastAt = 0;
let sampleHeaders: string | null = null;

/** Counts one message from its header block (folded lines as received). */
function check(headers: string) {
  if (sampleHeaders === null) sampleHeaders = headers;
  if (/^DKIM-Signature:/im.test(headers)) counts.dkimSigned++;
  const id = /^Message-ID:[ \t]*(.*(?:\r\n[ \t].*)*)/im.exec(headers)?.[1]?.replace(/\s+/g, "");
  if (!id) counts.missingMessageId++;
  else if (messageIds.has(id)) counts.duplicateMessageIds++;
  else messageIds.add(id);
  if (/^Content-Type:[ \t]*multipart\/alternative/im.test(headers)) counts.multipartAlternative++;
  if (/^List-Unsubscribe:/im.test(headers) && /^List-Unsubscribe-Post:[ \t]*List-Unsubscribe=One-Click/im.test(headers))
    counts.oneClickUnsubscribe++;
}

const server = new SMTPServer({
  authOptional: true,
  disabledCommands: ["STARTTLS", "AUTH"],
  logger: false,
  // The sender opens up to SMTP_POOL connections; leave room for reconnects.
  maxClients: 1000,
  onConnect(_session, callback) {
    counts.connections++;
    callback();
  },
  onData(stream, session, callback) {
    let head = "";
    let headDone = false;
    stream.on("data", (chunk: Buffer) => {
      counts.bytes += chunk.length;
      if (headDone) return;
      head += chunk.toString("latin1");
      const end = head.indexOf(HEADER_END);
      if (end >= 0) {
        headDone = true;
        head = head.slice(0, end);
      }
    });
    stream.on("end", () => {
      check(head);
      counts.messages++;
      counts.recipients += session.envelope.rcptTo.length;
      lastAt = performance.now();
      if (counts.messages === 1) firstAt = lastAt;
      callback();
    });
  },
});
// A sender that is stopped mid-conversation resets its connections: nothing to report.
server.on("error", () => {});

await new Promise<void>((resolve) => server.listen(Number(process.env.SINK_PORT ?? 0), "127.0.0.1", resolve));
const port = (server.server.address() as AddressInfo).port;

const report = (): SinkReport => {
  const cpu = process.cpuUsage();
  return {
    type: "report",
    ...counts,
    firstToLastMs: Math.round(lastAt - firstAt),
    cpuMs: Math.round((cpu.user + cpu.system) / 1000),
    sampleHeaders,
  };
};

if (process.send) {
  process.on("message", (message: { type?: string }) => {
    if (message?.type === "report") process.send?.(report());
  });
  process.send({ type: "listening", port });
} else {
  console.log(`SMTP sink listening on 127.0.0.1:${port}`);
}
process.on("disconnect", () => server.close(() => process.exit(0)));
process.on("SIGTERM", () => server.close(() => process.exit(0)));
