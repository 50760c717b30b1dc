// The built-in e-mail vendor (DELIVERY_CHANNEL=simulated, the embedded default): a small HTTP
// service that behaves like a real e-mail service provider, so the whole delivery path runs without
// the internet. It accepts batches with an idempotency key per message (a key it has already
// accepted is answered "duplicate" and not delivered again), refuses messages without an address,
// and posts receipts back to the product's receipts endpoint a little later, signed like a real
// provider's webhooks: about 90% delivered, the rest failed or bounced, some opened and clicked.
// Outcomes follow from the key, so a message re-sent after a crash gets the same one.
//
// API: POST /v1/messages/batch  Authorization: Bearer <key>
//   { "messages": [{ "idempotencyKey", "to": { "email", "name" }, "subject", "text" }] }  (1–1000)
//   → 200 { "results": [{ "idempotencyKey", "status": "accepted" | "duplicate" | "rejected", "error"? }] }
//   401 bad key, 400 bad body, 413 too large, 429 over its rate limit (Retry-After in seconds).
// Receipts: POST <receiptsUrl>  X-Signature: sha256=<hmac>  { "receipts": [{ "id", "event", "at", "details"? }] }
import { createHash } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { z } from "zod";
import { signReceipts } from "~/services/sending/receipt-signature.server";

const MAX_BODY_BYTES = 8 * 1024 * 1024;
const MAX_BATCH = 1000;
const RECEIPT_BATCH = 1000;
const TICK_MS = 100;

const BatchSchema = z.object({
  messages: z
    .array(
      z.object({
        idempotencyKey: z.string().min(1).max(200),
        to: z.object({ email: z.string().max(320).default(""), name: z.string().max(500).default("") }),
        subject: z.string().max(1000).default(""),
        text: z.string().max(100_000),
      }),
    )
    .min(1)
    .max(MAX_BATCH),
});

export type VendorReceipt = {
  id: string;
  event: "delivered" | "failed" | "bounced" | "opened" | "clicked";
  at: number;
  details?: string;
};

export type SimulatedVendorOptions = {
  apiKey: string;
  receiptsUrl: string;
  receiptsSecret: string;
  port?: number;
  host?: string;
  /** Messages accepted per second before answering 429 (0: no limit). */
  ratePerSecond?: number;
  /** Scales every receipt delay (tests use a small factor). */
  delayFactor?: number;
  log?: (line: string) => void;
};

export type SimulatedVendor = {
  url: string;
  /** How many times each key was accepted (never more than once) and how many sends repeated one. */
  stats(): { accepted: number; duplicates: number; rejected: number; receiptsPosted: number; receiptsQueued: number };
  /** The messages accepted, by key (for tests: who got what). */
  accepted(): ReadonlyMap<string, { email: string; subject: string; text: string }>;
  close(): Promise<void>;
};

/** A number in [0, 1) from the key and a salt: the same key always gets the same outcome. */
function chance(key: string, salt: string): number {
  const digest = createHash("sha256").update(salt).update(key).digest();
  return digest.readUInt32BE(0) / 0x1_0000_0000;
}

/** The receipts a message will produce, with their delays in ms from acceptance. */
export function plannedReceipts(key: string): { event: VendorReceipt["event"]; afterMs: number; details?: string }[] {
  const fate = chance(key, "fate");
  const delay = (salt: string, min: number, max: number) => Math.round(min + chance(key, salt) * (max - min));
  const deliveredAt = delay("delivered", 200, 3000);
  if (fate < 0.05) return [{ event: "failed", afterMs: deliveredAt, details: "452 4.2.2 Mailbox full" }];
  if (fate < 0.09)
    return [{ event: "bounced", afterMs: deliveredAt, details: "550 5.1.1 The e-mail account does not exist" }];
  const out: { event: VendorReceipt["event"]; afterMs: number; details?: string }[] = [
    { event: "delivered", afterMs: deliveredAt },
  ];
  if (chance(key, "opened") < 0.3) {
    const openedAt = deliveredAt + delay("opened-after", 1000, 10_000);
    out.push({ event: "opened", afterMs: openedAt });
    if (chance(key, "clicked") < 0.25)
      out.push({ event: "clicked", afterMs: openedAt + delay("clicked-after", 500, 5000) });
  }
  return out;
}

export async function startSimulatedVendor(options: SimulatedVendorOptions): Promise<SimulatedVendor> {
  const delayFactor = options.delayFactor ?? 1;
  const accepted = new Map<string, { email: string; subject: string; text: string }>();
  let duplicates = 0;
  let rejected = 0;
  let receiptsPosted = 0;
  // Receipts waiting to be posted, bucketed by the tick they are due in.
  const due = new Map<number, VendorReceipt[]>();
  let queued = 0;
  const tickOf = (at: number) => Math.floor(at / TICK_MS);
  const enqueue = (r: VendorReceipt) => {
    const tick = tickOf(r.at);
    let bucket = due.get(tick);
    if (!bucket) due.set(tick, (bucket = []));
    bucket.push(r);
    queued += 1;
  };

  let windowStart = Date.now();
  let windowCount = 0;
  const overRate = (n: number) => {
    if (!options.ratePerSecond) return false;
    const now = Date.now();
    if (now - windowStart >= 1000) {
      windowStart = now;
      windowCount = 0;
    }
    if (windowCount + n > options.ratePerSecond) return true;
    windowCount += n;
    return false;
  };

  const server = http.createServer((req, res) => {
    const answer = (status: number, body: unknown, headers: Record<string, string> = {}) => {
      res.writeHead(status, { "Content-Type": "application/json", ...headers });
      res.end(JSON.stringify(body));
    };
    if (req.method === "GET" && req.url === "/healthz") return answer(200, { ok: true });
    if (req.method !== "POST" || req.url !== "/v1/messages/batch") return answer(404, { error: "Not found" });
    if (req.headers.authorization !== `Bearer ${options.apiKey}`) return answer(401, { error: "Invalid API key" });
    const chunks: Buffer[] = [];
    let size = 0;
    req.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) {
        answer(413, { error: "Batch too large" });
        req.destroy();
        return;
      }
      chunks.push(chunk);
    });
    req.on("end", () => {
      if (res.headersSent) return;
      let parsed: z.infer<typeof BatchSchema>;
      try {
        const result = BatchSchema.safeParse(JSON.parse(Buffer.concat(chunks).toString("utf8")));
        if (!result.success) return answer(400, { error: result.error.issues[0]?.message ?? "Invalid batch" });
        parsed = result.data;
      } catch {
        return answer(400, { error: "The body is not JSON" });
      }
      if (overRate(parsed.messages.length))
        return answer(429, { error: "Rate limit exceeded" }, { "Retry-After": "1" });
      const now = Date.now();
      const results = parsed.messages.map((m) => {
        if (accepted.has(m.idempotencyKey)) {
          duplicates += 1;
          return { idempotencyKey: m.idempotencyKey, status: "duplicate" as const };
        }
        if (!m.to.email.includes("@")) {
          rejected += 1;
          return { idempotencyKey: m.idempotencyKey, status: "rejected" as const, error: "No valid e-mail address" };
        }
        accepted.set(m.idempotencyKey, { email: m.to.email, subject: m.subject, text: m.text });
        for (const r of plannedReceipts(m.idempotencyKey)) {
          enqueue({
            id: m.idempotencyKey,
            event: r.event,
            at: now + Math.round(r.afterMs * delayFactor),
            details: r.details,
          });
        }
        return { idempotencyKey: m.idempotencyKey, status: "accepted" as const };
      });
      answer(200, { results });
    });
  });

  // Posts what is due, a batch at a time; a batch the product did not take is tried again later,
  // as providers retry their webhooks.
  let posting = false;
  let closed = false;
  const post = async () => {
    if (posting || closed) return;
    posting = true;
    try {
      const nowTick = tickOf(Date.now());
      const ready: VendorReceipt[] = [];
      for (const tick of [...due.keys()].sort((a, b) => a - b)) {
        if (tick > nowTick) break;
        ready.push(...(due.get(tick) ?? []));
        due.delete(tick);
      }
      for (let i = 0; i < ready.length && !closed; i += RECEIPT_BATCH) {
        const batch = ready.slice(i, i + RECEIPT_BATCH);
        const body = JSON.stringify({ receipts: batch });
        let ok = false;
        try {
          const response = await fetch(options.receiptsUrl, {
            method: "POST",
            headers: { "Content-Type": "application/json", "X-Signature": signReceipts(body, options.receiptsSecret) },
            body,
            signal: AbortSignal.timeout(10_000),
          });
          ok = response.ok;
          await response.arrayBuffer();
        } catch (error) {
          options.log?.(`receipts not delivered: ${(error as Error).message}`);
        }
        if (ok) {
          receiptsPosted += batch.length;
          queued -= batch.length;
        } else {
          // Try the rest again in a second.
          const retryAt = Date.now() + 1000;
          for (const r of ready.slice(i)) {
            queued -= 1;
            enqueue({ ...r, at: retryAt });
          }
          break;
        }
      }
    } finally {
      posting = false;
    }
  };
  const timer = setInterval(() => void post(), TICK_MS);
  timer.unref();

  await new Promise<void>((resolve) => server.listen(options.port ?? 0, options.host ?? "127.0.0.1", resolve));
  const address = server.address() as AddressInfo;
  const url = `http://${options.host ?? "127.0.0.1"}:${address.port}`;

  return {
    url,
    stats: () => ({ accepted: accepted.size, duplicates, rejected, receiptsPosted, receiptsQueued: queued }),
    accepted: () => accepted,
    close: async () => {
      closed = true;
      clearInterval(timer);
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
