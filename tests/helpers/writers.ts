// Concurrent writers, as marketers editing while a campaign goes out: each writer creates, updates
// and deletes customers, orders and segments through /api in a loop for a while, and keeps one
// customer of every round (with its last update) so what was acknowledged can be checked in the
// database afterwards. Used by the "writes while sending" test and `npm run bench`'s scenario.

export type WriteSample = { method: string; path: string; status: number; ms: number };

export type WritersReport = {
  writers: number;
  seconds: number;
  writes: number;
  /** Answers >= 500 (and requests that got no answer at all). */
  serverErrors: number;
  /** Answers between 400 and 499 (none are expected: every payload is valid). */
  clientErrors: number;
  p50: number;
  p99: number;
  max: number;
  /** Each kept customer's id and the last name its acknowledged update gave it. */
  kept: { id: string; lastName: string }[];
  /** The first few failures, to say what went wrong. */
  failures: WriteSample[];
  /** Each kind of write ("POST /api/orders"): how many, p50 and p99 in ms. */
  byRoute: Record<string, { count: number; p50: number; p99: number }>;
};

type Send = (method: string, path: string, body?: unknown) => Promise<{ status: number; json: unknown }>;

const quantile = (sorted: number[], q: number) =>
  sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * q))] : 0;

/** Runs `writers` loops against `base` with the bearer token for `seconds`. */
export async function runWriters(options: {
  base: string;
  token: string;
  writers: number;
  seconds: number;
  tag?: string;
}): Promise<WritersReport> {
  const samples: WriteSample[] = [];
  const kept: { id: string; lastName: string }[] = [];
  const tag = options.tag ?? `w${Date.now().toString(36)}`;
  const until = Date.now() + options.seconds * 1000;

  const send: Send = async (method, path, body) => {
    const started = performance.now();
    let status = 0;
    let json: unknown = null;
    try {
      const r = await fetch(`${options.base}${path}`, {
        method,
        headers: { Authorization: `Bearer ${options.token}`, "Content-Type": "application/json" },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      status = r.status;
      const text = await r.text();
      json = text ? (JSON.parse(text) as unknown) : null;
    } catch {
      // No answer at all counts as a server error.
    }
    samples.push({ method, path: path.replace(/[0-9a-f]{24}/g, ":id"), status, ms: performance.now() - started });
    return { status, json };
  };
  const idOf = (json: unknown) => String((json as { id?: unknown; _id?: unknown } | null)?.id ?? "");

  const writer = async (n: number) => {
    for (let round = 0; Date.now() < until; round++) {
      const email = `${tag}-${n}-${round}@writers.example`;
      const customer = await send("POST", "/api/customers", { firstName: "Writer", lastName: `${n}`, email });
      const customerId = idOf(customer.json);
      if (customer.status !== 201 || !customerId) continue;
      const lastName = `${n}-${round}`;
      const updated = await send("PUT", `/api/customers/${customerId}`, { firstName: "Writer", lastName, email });
      kept.push({ id: customerId, lastName: updated.status === 200 ? lastName : `${n}` });

      const order = await send("POST", "/api/orders", {
        customerId,
        items: [{ name: "Tea", quantity: 2, price: 150 }],
        tax: 12,
      });
      const orderId = idOf(order.json);
      if (orderId) {
        await send("PUT", `/api/orders/${orderId}`, { items: [{ name: "Tea", quantity: 3, price: 150 }], tax: 0 });
        await send("DELETE", `/api/orders/${orderId}`);
      }

      const segment = await send("POST", "/api/segments", {
        name: `${tag} ${n}-${round}`,
        // Selective, as a real segment is: its audience is counted on every save.
        conditions: { visits: { $gte: 40 + (round % 5) } },
      });
      const segmentId = idOf(segment.json);
      if (segmentId) {
        await send("PUT", `/api/segments/${segmentId}`, {
          name: `${tag} ${n}-${round} edited`,
          conditions: { totalSpend: { $gt: 4_000_000 } },
        });
        await send("DELETE", `/api/segments/${segmentId}`);
      }
    }
  };

  await Promise.all(Array.from({ length: options.writers }, (_, n) => writer(n)));
  const times = samples.map((s) => s.ms).sort((a, b) => a - b);
  const failed = samples.filter((s) => s.status === 0 || s.status >= 400);
  const routes = new Map<string, number[]>();
  for (const s of samples) {
    const key = `${s.method} ${s.path}`;
    routes.set(key, [...(routes.get(key) ?? []), s.ms]);
  }
  const byRoute = Object.fromEntries(
    [...routes].map(([key, ms]) => {
      const sorted = ms.sort((a, b) => a - b);
      const round = (n: number) => Math.round(n * 10) / 10;
      return [key, { count: sorted.length, p50: round(quantile(sorted, 0.5)), p99: round(quantile(sorted, 0.99)) }];
    }),
  );
  return {
    writers: options.writers,
    seconds: options.seconds,
    writes: samples.length,
    serverErrors: samples.filter((s) => s.status === 0 || s.status >= 500).length,
    clientErrors: samples.filter((s) => s.status >= 400 && s.status < 500).length,
    p50: Math.round(quantile(times, 0.5) * 10) / 10,
    p99: Math.round(quantile(times, 0.99) * 10) / 10,
    max: Math.round((times[times.length - 1] ?? 0) * 10) / 10,
    kept,
    failures: failed.slice(0, 10),
    byRoute,
  };
}
