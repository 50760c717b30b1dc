// @engines sqlite postgres
// POST /api/segments/describe through its route module: the description checked (400s that name
// it), the local writer's answer without an LLM and its refusal (422), the LLM's answer against a
// local fake of the chat-completions endpoint with the caller's own fields in the prompt and never
// another tenant's, and a failing LLM never a 500.
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { startFakeLlm, type FakeLlm } from "../fakes/llm";
import { createTestUser, useTestDatabase } from "../helpers/db";
import { args, bearerFor, cookieFor, makeRequest, ORIGIN } from "../helpers/requests";

// eslint-disable-next-line react-hooks/rules-of-hooks -- a test helper named use*, not a React hook
useTestDatabase();

import { resetEnvCache } from "~/env.server";
import { action, loader } from "~/routes/api/segments-describe";
import { NewFieldSchema } from "~/schemas/custom-field";
import { createField } from "~/services/custom-fields.server";

type Answer = {
  conditions?: unknown;
  builder?: { logic: string; children: unknown[] };
  summary?: string;
  writer?: string;
  error?: { code: string; message: string; fields?: Record<string, string> };
};

let llm: FakeLlm;
let alice: string;
let bob: string;

beforeAll(async () => {
  llm = await startFakeLlm();
  alice = (await createTestUser("Describe Alice")).id;
  bob = (await createTestUser("Describe Bob")).id;
  await createField(
    alice,
    NewFieldSchema.parse({ name: "alice_tier", label: "Alice tier", type: "choice", choices: ["Gold", "Silver"] }),
  );
  await createField(bob, NewFieldSchema.parse({ name: "bob_secret_score", label: "Bob's score", type: "number" }));
});
afterEach(() => {
  delete process.env.AI_BASE_URL;
  delete process.env.AI_MODEL;
  resetEnvCache();
});
afterAll(async () => {
  await llm.close();
});

async function post(userId: string | null, body: unknown, raw = false) {
  const request = makeRequest("/api/segments/describe", {
    method: "POST",
    auth: userId ? { bearer: await bearerFor(userId) } : undefined,
    ...(raw ? { body: body as string, headers: { "Content-Type": "application/json" } } : { json: body }),
  });
  const response = (await action(args(request))) as Response;
  return { status: response.status, body: (await response.json()) as Answer };
}

describe("POST /api/segments/describe", () => {
  it("refuses a missing, empty, non-text, too long or unreadable body with a 400 naming the description", async () => {
    const refused = [
      [{}, "description: description is required"],
      [{ description: 42 }, "description: description is required"],
      [{ description: "   " }, "description: Please enter a description"],
      [{ description: "x".repeat(1001) }, "description: description must be at most 1000 characters"],
      [{ description: "big\u0000spenders" }, "description: description cannot contain control characters"],
    ] as const;
    for (const [body, message] of refused) {
      const answer = await post(alice, body);
      expect(answer.status, JSON.stringify(body)).toBe(400);
      expect(answer.body.error).toMatchObject({ code: "bad_request", message });
      expect(answer.body.error?.fields?.description).toBeTruthy();
    }
    expect((await post(alice, "{not json", true)).status).toBe(400);
    expect((await post(alice, { description: "x".repeat(1000) })).status).not.toBe(400);
  });

  it("wants a signed-in caller and POST", async () => {
    expect((await post(null, { description: "big spenders" })).status).toBe(401);
    const get = await loader(args(makeRequest("/api/segments/describe")));
    expect((get as Response).status).toBe(405);
    expect((get as Response).headers.get("Allow")).toBe("POST");
  });

  it("answers the local writer's conditions without an LLM, and its refusal as a 422", async () => {
    const ok = await post(alice, { description: "customers who spent more than 10000" });
    expect(ok).toEqual({
      status: 200,
      body: {
        conditions: { totalSpend: { $gt: 10000 } },
        builder: { logic: "AND", children: [{ kind: "condition", field: "totalSpend", op: "$gt", value: "10000" }] },
        summary: "Total spend greater than ₹10,000",
        writer: "local",
      },
    });
    const refused = await post(alice, { description: "12345 !!!" });
    expect(refused.status).toBe(422);
    expect(refused.body.error?.message).toBe("Failed to process your request. Please try different wording.");
  });

  it("takes the page's session cookie from our own origin", async () => {
    const request = makeRequest("/api/segments/describe", {
      method: "POST",
      auth: { cookie: await cookieFor(alice) },
      json: { description: "inactive for 40 days" },
      headers: { Origin: ORIGIN },
    });
    const response = (await action(args(request))) as Response;
    expect(response.status).toBe(200);
    expect(((await response.json()) as Answer).conditions).toEqual({ lastActiveDate: { $lt: { $daysAgo: 40 } } });
  });

  it("with an LLM: the caller's fields in the prompt and not another tenant's, and a failure is no 500", async () => {
    process.env.AI_BASE_URL = llm.url;
    process.env.AI_MODEL = "fake-model";
    resetEnvCache();
    llm.behave({ kind: "content", content: JSON.stringify({ conditions: { "field:alice_tier": { $eq: "gold" } } }) });
    const ok = await post(alice, { description: "our gold members" });
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({
      writer: "llm",
      conditions: { "field:alice_tier": { $eq: "Gold" } },
      summary: "Alice tier is Gold",
    });
    const prompt = llm.requests
      .at(-1)!
      .messages.map((m) => m.content)
      .join("\n");
    expect(prompt).toContain("field:alice_tier");
    expect(prompt).not.toContain("bob_secret_score");
    expect(prompt).not.toContain("Bob's score");

    // Bob's own request names his field and not Alice's; the LLM answering with Alice's field for
    // Bob is refused (not his field), and the local writer answers.
    const forBob = await post(bob, { description: "our gold members" });
    expect(forBob.status).toBe(200);
    expect(forBob.body.writer).toBe("local");
    const bobPrompt = llm.requests
      .at(-1)!
      .messages.map((m) => m.content)
      .join("\n");
    expect(bobPrompt).toContain("field:bob_secret_score");
    expect(bobPrompt).not.toContain("alice_tier");

    llm.behave({ kind: "status", status: 500 });
    const failed = await post(alice, { description: "customers who spent more than 10000" });
    expect(failed).toMatchObject({
      status: 200,
      body: { writer: "local", conditions: { totalSpend: { $gt: 10000 } } },
    });
    const refused = await post(alice, { description: "12345 !!!" });
    expect(refused.status).toBe(422);
  });
});
