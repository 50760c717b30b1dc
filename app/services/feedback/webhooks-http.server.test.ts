// @engines sqlite postgres
// The feeds through the real HTTP server (server/app.ts, both Remix's handler and the /api fast
// path): a vendor's post carries no cookie and often no Origin, or a foreign one, and must reach the
// route (the cross-site check is for cookie-carried writes); SNS posts its JSON as text/plain.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fakeSendgrid } from "../../../tests/fakes/sendgrid";
import { type FakeSns, sesDelivery, startFakeSns, trustFakeSns } from "../../../tests/fakes/sns";
import { startRequestServers } from "../../../tests/helpers/dev-server-build";
import { useTestDatabase as setUpTestDatabase } from "../../../tests/helpers/db";

setUpTestDatabase();

const sendgrid = fakeSendgrid();
let sns: FakeSns;
let servers: Awaited<ReturnType<typeof startRequestServers>>;

beforeAll(async () => {
  sns = await startFakeSns();
  trustFakeSns(sns);
  process.env.SES_SNS_TOPIC_ARNS = sns.topicArn;
  process.env.SNS_CERT_HOST_PATTERN = String.raw`^127\.0\.0\.1$`;
  process.env.SENDGRID_WEBHOOK_PUBLIC_KEY = sendgrid.publicKey;
  servers = await startRequestServers();
}, 120_000);

afterAll(async () => {
  await servers.close();
  await sns.close();
  delete process.env.SES_SNS_TOPIC_ARNS;
  delete process.env.SNS_CERT_HOST_PATTERN;
  delete process.env.SENDGRID_WEBHOOK_PUBLIC_KEY;
});

async function send(port: number, request: Request, extra: Record<string, string> = {}) {
  const headers = Object.fromEntries(request.headers);
  const response = await fetch(`http://127.0.0.1:${port}${new URL(request.url).pathname}`, {
    method: "POST",
    headers: { ...headers, ...extra },
    body: await request.text(),
  });
  return { status: response.status, body: (await response.json()) as unknown };
}

describe("a vendor's post through the server", () => {
  it("SendGrid's signed post, without a cookie, with no Origin or another site's, is taken", async () => {
    for (const port of Object.values(servers.ports)) {
      const events = [sendgrid.event("delivered", "<x@y.z>", "a@example.com")];
      for (const extra of [{}, { Origin: "https://sendgrid.example" }] as Record<string, string>[]) {
        const answer = await send(port, sendgrid.request("http://x/api/webhooks/sendgrid", events), extra);
        expect(answer).toEqual({ status: 200, body: { received: 1, matched: 0, ignored: 1 } });
      }
      const unsigned = new Request("http://x/api/webhooks/sendgrid", { method: "POST", body: "[]" });
      expect((await send(port, unsigned)).status).toBe(401);
    }
  });

  it("SNS's post, text/plain JSON, is taken and its signature checked", async () => {
    for (const port of Object.values(servers.ports)) {
      const message = sns.notification(sesDelivery("<x@y.z>", "a@example.com"));
      const answer = await send(port, sns.request("http://x/api/webhooks/ses", message));
      expect(answer).toEqual({ status: 200, body: { received: 1, matched: 0, ignored: 1 } });
      const forged = { ...message, Message: message.Message.replace("Delivery", "Bounce") };
      expect((await send(port, sns.request("http://x/api/webhooks/ses", forged))).status).toBe(401);
    }
  });
});
