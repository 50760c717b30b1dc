// A real SMTP server process on a loopback port (the smtp-server package) that keeps every
// message it receives, for the tests that send through the SMTP channel. `delayMs` is how long it
// takes over each message before answering 250 (a slow relay); it can change while the test runs.
import type { AddressInfo } from "node:net";
import { SMTPServer } from "smtp-server";

export type CapturedMessage = { to: string; raw: string; messageId: string };

export type SmtpCapture = {
  port: number;
  messages: CapturedMessage[];
  /** Milliseconds the server takes over each message before it answers. */
  delayMs: number;
  close(): Promise<void>;
};

export async function startSmtpCapture(options: { delayMs?: number } = {}): Promise<SmtpCapture> {
  const capture = { messages: [] as CapturedMessage[], delayMs: options.delayMs ?? 0 };
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on("data", (c: Buffer) => chunks.push(c));
      stream.on("end", () => {
        const raw = Buffer.concat(chunks).toString("utf8");
        capture.messages.push({
          to: session.envelope.rcptTo[0]?.address ?? "",
          raw,
          messageId: /^Message-ID: (.*)$/im.exec(raw)?.[1]?.trim() ?? "",
        });
        if (capture.delayMs > 0) setTimeout(() => callback(), capture.delayMs);
        else callback();
      });
    },
  });
  // A client killed mid-conversation resets its connections: expected in the crash tests.
  server.on("error", () => {});
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return Object.assign(capture, {
    port: (server.server.address() as AddressInfo).port,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  });
}
