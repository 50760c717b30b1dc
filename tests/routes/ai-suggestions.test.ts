// @engines sqlite postgres
// Message suggestions on a real database: the local writer from the segment's figures, the LLM path
// against a local fake of the chat-completions endpoint (good, malformed, failing and slow answers),
// and the /api route's validation and tenant scoping.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFakeLlm, type FakeLlm } from "../fakes/llm";
import { createTestUser, useTestDatabase } from "../helpers/db";

// eslint-disable-next-line react-hooks/rules-of-hooks -- a test helper named use*, not a React hook
useTestDatabase();

import { resetEnvCache } from "~/env.server";
import { parseConditions } from "~/lib/segment-parse";
import { action } from "~/routes/api/ai-message-suggestions";
import { messageSuggestions, segmentFigures } from "~/services/ai.server";
import { seedTenant } from "~/services/seed.server";
import { createSegment } from "~/services/segments.server";
import { issueToken } from "~/services/token.server";
import { db } from "~/db/prisma.server";

let llm: FakeLlm;
let userId: string;
let segmentId: string;

beforeAll(async () => {
  const user = await createTestUser("Writer");
  userId = user.id;
  await seedTenant(user.id, { customers: 200, orders: 0, seed: 11 });
  const parsed = parseConditions({ totalSpend: { $gt: 5000 } });
  if (!parsed.ok) throw new Error(parsed.message);
  segmentId = (await createSegment(user.id, { name: "Big spenders", description: "", tree: parsed.tree })).id;
  llm = await startFakeLlm();
});
afterAll(async () => {
  await llm.close();
  delete process.env.AI_BASE_URL;
  delete process.env.AI_MODEL;
  delete process.env.AI_API_KEY;
  resetEnvCache();
});

const good = JSON.stringify({
  suggestions: [
    {
      message: "Hi {NAME}, a treat for our big spenders: free shipping all week.",
      tone: "Exclusive",
      expectedResponse: "High",
    },
    { message: "Hi {NAME}, 10% off with code BIG10 until Sunday.", tone: "Friendly", expectedResponse: "Medium" },
    { message: "Hi {NAME}, only 48 hours left for 15% off!", tone: "Urgent", expectedResponse: "Medium" },
  ],
});

describe("message suggestions", () => {
  it("are figured from the segment's real customers", async () => {
    const f = await segmentFigures(userId, segmentId);
    const direct = await db().customer.aggregate({
      where: { userId, totalSpendPaise: { gt: 500_000 } },
      _count: true,
      _min: { totalSpendPaise: true },
    });
    expect(f).toMatchObject({
      name: "Big spenders",
      customers: direct._count,
      minSpend: (direct._min.totalSpendPaise ?? 0) / 100,
    });
    expect(f.customers).toBeGreaterThan(0);
  });

  it("are written locally without an LLM: three, each with {NAME}, a tone and the real figures", async () => {
    const result = await messageSuggestions(userId, { campaignObjective: "Promote Big spenders", segmentId });
    expect(result.source).toBe("local");
    expect(result.suggestions).toHaveLength(3);
    for (const s of result.suggestions) {
      expect(s.message).toContain("{NAME}");
      expect(s.tone.length).toBeGreaterThan(1);
      expect(s.expectedResponse.length).toBeGreaterThan(5);
    }
    const f = await segmentFigures(userId, segmentId);
    expect(result.suggestions.map((s) => s.expectedResponse).join(" ")).toContain(f.averageVisits.toString());
  });

  it("come from the LLM when one is set up, with the figures in the prompt, and fall back on any failure", async () => {
    process.env.AI_BASE_URL = llm.url;
    process.env.AI_MODEL = "fake-model";
    process.env.AI_API_KEY = "sk-test";
    resetEnvCache();
    llm.behave({ kind: "content", content: good });
    const fromLlm = await messageSuggestions(userId, { campaignObjective: "Promote Big spenders", segmentId });
    expect(fromLlm).toMatchObject({
      source: "llm",
      suggestions: [{ tone: "Exclusive" }, { tone: "Friendly" }, { tone: "Urgent" }],
    });
    const sent = llm.requests.at(-1)!;
    expect(sent).toMatchObject({ model: "fake-model", authorization: "Bearer sk-test" });
    const f = await segmentFigures(userId, segmentId);
    expect(sent.messages[1].content).toContain(`${f.customers} customers`);

    llm.behave({ kind: "malformed" });
    expect((await messageSuggestions(userId, { campaignObjective: "", segmentId })).source).toBe("local");
    llm.behave({ kind: "content", content: '{"suggestions":[{"message":"no","tone":"x"}]}' });
    expect((await messageSuggestions(userId, { campaignObjective: "", segmentId })).source).toBe("local");
    llm.behave({ kind: "status", status: 503 });
    expect((await messageSuggestions(userId, { campaignObjective: "", segmentId })).source).toBe("local");
    llm.behave({ kind: "slow", ms: 2000, content: good });
    const started = Date.now();
    expect((await messageSuggestions(userId, { campaignObjective: "", segmentId }, { timeoutMs: 300 })).source).toBe(
      "local",
    );
    expect(Date.now() - started).toBeLessThan(1500);
  });

  it("the route checks its input and the tenant", async () => {
    const call = async (body: unknown, uid = userId) =>
      (await action({
        request: new Request("http://localhost/api/ai/message-suggestions", {
          method: "POST",
          headers: { Authorization: `Bearer ${await issueToken(uid)}`, "Content-Type": "application/json" },
          body: JSON.stringify(body),
        }),
        params: {},
        context: {},
      })) as Response;
    expect((await call({ segmentId: "x" })).status).toBe(400);
    const other = await createTestUser("Other");
    expect((await call({ campaignObjective: "x", segmentId }, other.id)).status).toBe(404);
    const ok = await call({ campaignObjective: "x", segmentId });
    expect(ok.status).toBe(200);
    expect(((await ok.json()) as { suggestions: unknown[] }).suggestions).toHaveLength(3);
  });

  it("state the segment's real audience size, and are refused for a segment with no customers", async () => {
    delete process.env.AI_BASE_URL;
    delete process.env.AI_MODEL;
    resetEnvCache();
    const f = await segmentFigures(userId, segmentId);
    const result = await messageSuggestions(userId, { campaignObjective: "", segmentId });
    expect(result.suggestions[0].expectedResponse).toContain(`${f.customers} customers of "Big spenders"`);

    const parsed = parseConditions({ totalSpend: { $gt: 100_000_000 } });
    if (!parsed.ok) throw new Error(parsed.message);
    const empty = (await createSegment(userId, { name: "Nobody", description: "", tree: parsed.tree })).id;
    const refused = (await action({
      request: new Request("http://localhost/api/ai/message-suggestions", {
        method: "POST",
        headers: { Authorization: `Bearer ${await issueToken(userId)}`, "Content-Type": "application/json" },
        body: JSON.stringify({ campaignObjective: "", segmentId: empty }),
      }),
      params: {},
      context: {},
    })) as Response;
    expect(refused.status).toBe(422);
    expect(((await refused.json()) as { error: { message: string } }).error.message).toBe(
      "This segment has no customers: there is nobody to write a message for.",
    );
  });
});
