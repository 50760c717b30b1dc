// @engines sqlite postgres
// The import screen's progress: while a slowly uploaded file streams into the import, the
// progress route tells the uploader how many rows have been read; it is scoped to the user, and
// refuses a malformed key.
import { describe, expect, it } from "vitest";
import { createTestUser, useTestDatabase } from "../helpers/db";
import { ORIGIN, args, cookieFor, makeRequest } from "../helpers/requests";

// eslint-disable-next-line react-hooks/rules-of-hooks -- a test helper named use*, not a React hook
useTestDatabase();

import { action as importAction } from "~/routes/customers-import";
import { loader as progressLoader } from "~/routes/customers-import-progress";

const BOUNDARY = "----crm-test-boundary";
const encoder = new TextEncoder();

function part(name: string, value: string) {
  return `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`;
}

const progressOf = async (key: string, cookie: string) =>
  progressLoader(args(makeRequest(`/customers/import/progress?key=${key}`, { auth: { cookie } })));

describe("import progress", () => {
  it("reports the rows read while the upload is still arriving, then the end; only to its user", async () => {
    const user = await createTestUser("Progress");
    const other = await createTestUser("Someone else");
    const cookie = await cookieFor(user.id);
    const otherCookie = await cookieFor(other.id);
    const key = "progress-key-0001";

    const rows = Array.from({ length: 24_000 }, (_, i) => `First${i},Last${i},p${i}@example.com`);
    const firstHalf = `firstName,lastName,email\n${rows.slice(0, 12_000).join("\n")}\n`;
    const secondHalf = `${rows.slice(12_000).join("\n")}\n`;
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const body = new ReadableStream<Uint8Array>({
      async start(controller) {
        controller.enqueue(encoder.encode(part("progressKey", key)));
        controller.enqueue(
          encoder.encode(
            `--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="c.csv"\r\nContent-Type: text/csv\r\n\r\n`,
          ),
        );
        controller.enqueue(encoder.encode(firstHalf));
        await held;
        controller.enqueue(encoder.encode(`${secondHalf}\r\n--${BOUNDARY}--\r\n`));
        controller.close();
      },
    });
    const request = new Request(new URL("/customers/import", ORIGIN), {
      method: "POST",
      headers: { Cookie: cookie, Origin: ORIGIN, "Content-Type": `multipart/form-data; boundary=${BOUNDARY}` },
      body,
      duplex: "half",
    } as RequestInit);
    const done = importAction(args(request));

    // The first half has been read: at least 10,000 rows (progress is reported every 10,000). The
    // import runs in a worker thread, which takes a second or two to start the first time.
    let during: { phase: string; rows: number } | null = null;
    const deadline = Date.now() + 20_000;
    while (!during && Date.now() < deadline) {
      const r = await progressOf(key, cookie);
      if (r.status === 200) {
        const p = (await r.json()) as { phase: string; rows: number };
        if (p.rows >= 10_000) during = p;
      }
      if (!during) await new Promise((resolve) => setTimeout(resolve, 10));
    }
    expect(during).toMatchObject({ phase: "reading" });
    expect(during!.rows).toBeGreaterThanOrEqual(10_000);
    expect(during!.rows).toBeLessThanOrEqual(12_000);
    // Another user cannot see it.
    expect((await progressOf(key, otherCookie)).status).toBe(404);

    release();
    const result = (await done) as unknown as { data: { ok: boolean; result: { created: number } } };
    expect(result.data).toMatchObject({ ok: true, result: { created: 24_000 } });
    const after = await progressOf(key, cookie);
    expect(after.status).toBe(200);
    expect(await after.json()).toEqual({
      phase: "done",
      rows: 24_000,
      bytes: expect.any(Number),
      saved: 24_000,
      total: 24_000,
    });
  }, 60_000);

  it("answers 400 to a malformed key and 404 to an unknown one", async () => {
    const user = await createTestUser("Keys");
    const cookie = await cookieFor(user.id);
    const bad = await progressOf("x", cookie);
    expect(bad.status).toBe(400);
    expect(await bad.json()).toEqual({ error: { code: "bad_request", message: "The progress key is not valid." } });
    const unknown = await progressOf("no-such-import-key", cookie);
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toEqual({
      error: { code: "not_found", message: "No import with this key is running." },
    });
  });
});
