// A DKIM signing thread (app/services/email/dkim-signing-threads.server.ts starts it for the SMTP channel):
// the RSA signatures of campaign messages, off the delivery job's thread. It parses the private key
// once (workerData.privateKey, PKCS#8 PEM) and answers each batch of requests, [id, data][], with
// [id, base64 signature][] ([id, null, message] for one that could not be signed).
import { createPrivateKey, sign } from "node:crypto";
import { parentPort, workerData } from "node:worker_threads";

const key = createPrivateKey((workerData as { privateKey: string }).privateKey);

parentPort?.on("message", (requests: [number, string][]) => {
  const answers: [number, string | null, string?][] = [];
  for (const [id, data] of requests) {
    try {
      answers.push([id, sign("sha256", Buffer.from(data, "latin1"), key).toString("base64")]);
    } catch (error) {
      answers.push([id, null, (error as Error).message]);
    }
  }
  parentPort?.postMessage(answers);
});
