// A local stand-in for an OpenAI-compatible chat-completions endpoint (POST /chat/completions), for
// tests of the AI features: nothing leaves the machine. The test sets what it answers: a JSON
// content, a malformed body, an error status, or a delay.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";

export type FakeLlmBehaviour =
  | { kind: "content"; content: string }
  | { kind: "status"; status: number }
  | { kind: "malformed" }
  | { kind: "slow"; ms: number; content: string };

export type FakeLlm = {
  url: string;
  server: Server;
  behave: (b: FakeLlmBehaviour) => void;
  /** The request bodies received, parsed. */
  requests: { model: string; messages: { role: string; content: string }[]; authorization: string | undefined }[];
  close: () => Promise<void>;
};

export async function startFakeLlm(): Promise<FakeLlm> {
  let behaviour: FakeLlmBehaviour = { kind: "status", status: 500 };
  const requests: FakeLlm["requests"] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      if (req.method !== "POST" || req.url !== "/chat/completions") {
        res.writeHead(404).end();
        return;
      }
      const body = JSON.parse(Buffer.concat(chunks).toString("utf8")) as {
        model: string;
        messages: { role: string; content: string }[];
      };
      requests.push({ ...body, authorization: req.headers.authorization });
      const answer = (content: string) => {
        res.writeHead(200, { "Content-Type": "application/json" });
        res.end(
          JSON.stringify({
            id: "chatcmpl-fake",
            object: "chat.completion",
            model: body.model,
            choices: [{ index: 0, message: { role: "assistant", content }, finish_reason: "stop" }],
          }),
        );
      };
      const b = behaviour;
      if (b.kind === "content") answer(b.content);
      else if (b.kind === "status")
        res.writeHead(b.status, { "Content-Type": "application/json" }).end('{"error":{"message":"fake failure"}}');
      else if (b.kind === "malformed") res.writeHead(200, { "Content-Type": "application/json" }).end('{"choices": [');
      else setTimeout(() => answer(b.content), b.ms).unref();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    server,
    requests,
    behave: (b) => {
      behaviour = b;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
