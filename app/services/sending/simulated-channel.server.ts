// The delivery channel that speaks the built-in vendor's HTTP API (simulated-vendor.server.ts).
import { z } from "zod";
import {
  type ChannelResult,
  type DeliveryChannel,
  type OutgoingMessage,
  retryAll,
  SEND_FREELY,
  type SendControl,
} from "~/services/sending/channel.server";

const AnswerSchema = z.object({
  results: z.array(
    z.object({
      idempotencyKey: z.string(),
      status: z.enum(["accepted", "duplicate", "rejected"]),
      error: z.string().optional(),
    }),
  ),
});

export function simulatedChannel(options: { url: string; apiKey: string; timeoutMs?: number }): DeliveryChannel {
  const endpoint = `${options.url.replace(/\/$/, "")}/v1/messages/batch`;
  return {
    name: "simulated",
    receipts: true,
    // One HTTP call per batch; the engine decides how many batches are out at once.
    concurrency: Number.POSITIVE_INFINITY,
    async send(batch: readonly OutgoingMessage[], control: SendControl = SEND_FREELY): Promise<ChannelResult[]> {
      if (!control.proceed()) return batch.map((m) => ({ key: m.key, status: "held" }));
      let response: Response;
      try {
        response = await fetch(endpoint, {
          method: "POST",
          headers: { "Content-Type": "application/json", Authorization: `Bearer ${options.apiKey}` },
          body: JSON.stringify({
            messages: batch.map((m) => ({
              idempotencyKey: m.key,
              to: { email: m.to.email, name: m.to.name },
              subject: m.subject,
              text: m.text,
            })),
          }),
          signal: AbortSignal.timeout(options.timeoutMs ?? 30_000),
        });
      } catch (error) {
        return retryAll(batch, `The vendor did not answer: ${(error as Error).message}`);
      }
      const text = await response.text().catch(() => "");
      if (response.status === 429) return retryAll(batch, "The vendor asked to slow down (429)", false);
      if (response.status >= 500) return retryAll(batch, `The vendor failed (${response.status})`);
      if (!response.ok) {
        // 4xx other than 429: the request itself is wrong (a bad API key, a batch too large); every
        // later batch would fail the same way, so these count toward the error cap.
        return retryAll(batch, `The vendor refused the batch (${response.status}): ${text.slice(0, 200)}`);
      }
      let answer: z.infer<typeof AnswerSchema>;
      try {
        answer = AnswerSchema.parse(JSON.parse(text));
      } catch {
        return retryAll(batch, "The vendor's answer could not be read");
      }
      const byKey = new Map(answer.results.map((r) => [r.idempotencyKey, r]));
      return batch.map((m): ChannelResult => {
        const r = byKey.get(m.key);
        if (!r)
          return {
            key: m.key,
            status: "retry",
            details: "The vendor did not answer for this message",
            countsAsError: true,
          };
        if (r.status === "rejected")
          return { key: m.key, status: "failed", details: r.error ?? "Rejected by the vendor" };
        return {
          key: m.key,
          status: "accepted",
          details: r.status === "duplicate" ? "Accepted earlier under the same key" : "",
        };
      });
    },
    async close() {},
  };
}
