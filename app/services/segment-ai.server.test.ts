// @engines sqlite postgres
// Use AI's writer on a real database: the LLM path against a local fake of the chat-completions
// endpoint (the conditions it answers checked, read into builder rows, the tenant's own fields in
// the prompt), and the fall back on the local writer for every failure: no LLM, a malformed body,
// an error status, a timeout, and answers that are not valid conditions of the tenant's fields.
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { startFakeLlm, type FakeLlm } from "../../tests/fakes/llm";
import { createTestUser, useTestDatabase } from "../../tests/helpers/db";

// eslint-disable-next-line react-hooks/rules-of-hooks -- a test helper named use*, not a React hook
useTestDatabase();

import { resetEnvCache } from "~/env.server";
import { interpretDescription } from "~/lib/segments-ai";
import { builderRows, builderToTree } from "~/lib/segments-builder";
import { toConditions } from "~/lib/segments";
import { PUNE, PUNE_CONDITIONS, PUNE_ROWS } from "~/lib/segments-ai-example";
import { NewFieldSchema } from "~/schemas/custom-field";
import { createField, fieldCatalog, updateField } from "~/services/custom-fields.server";
import { describeSegment, segmentPrompt } from "~/services/segment-ai.server";

let llm: FakeLlm;
let userId: string;
let otherId: string;

beforeAll(async () => {
  llm = await startFakeLlm();
  userId = (await createTestUser("Use AI")).id;
  otherId = (await createTestUser("Use AI other")).id;
  await createField(
    userId,
    NewFieldSchema.parse({ name: "loyalty_tier", label: "Loyalty tier", type: "choice", choices: ["Gold", "Silver"] }),
  );
  await createField(userId, NewFieldSchema.parse({ name: "points", label: "Reward points", type: "number" }));
  await createField(userId, NewFieldSchema.parse({ name: "old_code", label: "Old code", type: "text" }));
  await updateField(userId, "old_code", { retired: true });
  await createField(otherId, NewFieldSchema.parse({ name: "secret_margin", label: "Secret margin", type: "number" }));
});
afterEach(() => useNoLlm());
afterAll(async () => {
  await llm.close();
});

function useLlm() {
  process.env.AI_BASE_URL = llm.url;
  process.env.AI_MODEL = "fake-segment-model";
  process.env.AI_API_KEY = "sk-test";
  resetEnvCache();
}
function useNoLlm() {
  delete process.env.AI_BASE_URL;
  delete process.env.AI_MODEL;
  delete process.env.AI_API_KEY;
  resetEnvCache();
}

/** What the local writer makes of a description, as the service answers it. */
function local(description: string) {
  const result = interpretDescription(description);
  if (!result.ok) throw new Error(result.message);
  return { conditions: toConditions(builderToTree(result.builder)), builder: builderRows(result.builder) };
}

describe("Use AI with an LLM", () => {
  it("takes the LLM's conditions, read into the builder's rows, with the tenant's fields in the prompt", async () => {
    useLlm();
    llm.behave({ kind: "content", content: JSON.stringify({ conditions: PUNE_CONDITIONS }) });
    const sent = llm.requests.length;
    const result = await describeSegment(userId, PUNE);
    expect(result).toEqual({
      writer: "llm",
      conditions: PUNE_CONDITIONS,
      builder: PUNE_ROWS,
      summary: "Birthday anniversary within 7 days AND City is Pune AND Bought Saree AND Last open in the last 90 days",
    });

    expect(llm.requests.length).toBe(sent + 1);
    const request = llm.requests.at(-1)!;
    expect(request).toMatchObject({ model: "fake-segment-model", authorization: "Bearer sk-test" });
    const [system, user] = request.messages;
    expect(user).toEqual({ role: "user", content: PUNE });
    // The tenant's own fields with their labels, types and choices; the built-in ones; the language.
    expect(system.content).toContain('field:loyalty_tier: "Loyalty tier", choice of "Gold", "Silver"; $in, $eq, $ne');
    expect(system.content).toContain('field:points: "Reward points", number;');
    expect(system.content).toContain('field:birthday: "Birthday", date;');
    expect(system.content).toContain("$anniversaryWithinDays");
    for (const key of ["totalSpend", "visits", "lastActiveDate", "boughtProduct", "lastOpenDate", '"tags"', "$or"]) {
      expect(system.content).toContain(key);
    }
    // Neither a retired field nor another tenant's.
    expect(system.content).not.toContain("old_code");
    expect(system.content).not.toContain("secret_margin");
  });

  it("makes a choice the field's own spelling, and takes an answer that is the bare mapping", async () => {
    useLlm();
    llm.behave({
      kind: "content",
      content: JSON.stringify({
        $or: [{ "field:loyalty_tier": { $in: ["gold"] } }, { "field:points": { $gte: 500 } }],
      }),
    });
    const result = await describeSegment(userId, "gold members or 500 points and more");
    expect(result).toMatchObject({
      writer: "llm",
      conditions: { $or: [{ "field:loyalty_tier": { $in: ["Gold"] } }, { "field:points": { $gte: 500 } }] },
      builder: { logic: "OR" },
      summary: "Loyalty tier is any of Gold OR Reward points greater than or equal to 500",
    });
  });

  it("falls back on the local writer when the LLM fails or its answer is not valid conditions", async () => {
    useLlm();
    const expected = { writer: "local", ...local(PUNE) };
    const answers = [
      { kind: "malformed" },
      { kind: "status", status: 500 },
      { kind: "content", content: "Sure! Here are your conditions." },
      { kind: "content", content: JSON.stringify({ conditions: { height: { $gt: 170 } } }) },
      { kind: "content", content: JSON.stringify({ conditions: { visits: { $between: [1, 2] } } }) },
      // A field the tenant does not have, another tenant's, an operator its type does not take,
      // a choice it does not offer, a retired field.
      { kind: "content", content: JSON.stringify({ conditions: { "field:shoe_size": { $eq: "9" } } }) },
      { kind: "content", content: JSON.stringify({ conditions: { "field:secret_margin": { $gt: 5 } } }) },
      { kind: "content", content: JSON.stringify({ conditions: { "field:loyalty_tier": { $gt: 5 } } }) },
      { kind: "content", content: JSON.stringify({ conditions: { "field:loyalty_tier": { $eq: "Bronze" } } }) },
      { kind: "content", content: JSON.stringify({ conditions: { "field:old_code": { $eq: "X1" } } }) },
      { kind: "content", content: JSON.stringify({ conditions: {} }) },
      { kind: "content", content: "[1, 2, 3]" },
    ] as const;
    for (const answer of answers) {
      llm.behave(answer);
      expect(await describeSegment(userId, PUNE), JSON.stringify(answer)).toEqual({
        ...expected,
        // The local writer keeps the product as written.
        summary:
          "Birthday anniversary within 7 days AND City is Pune AND Bought saree AND Last open in the last 90 days",
      });
    }
  });

  it("does not wait for a slow LLM past its time", async () => {
    useLlm();
    llm.behave({ kind: "slow", ms: 2000, content: JSON.stringify({ conditions: PUNE_CONDITIONS }) });
    const started = Date.now();
    expect((await describeSegment(userId, PUNE, { timeoutMs: 300 })).writer).toBe("local");
    expect(Date.now() - started).toBeLessThan(1500);
  });

  it("answers the local writer's refusal when both fail: a 422", async () => {
    useLlm();
    llm.behave({ kind: "status", status: 503 });
    await expect(describeSegment(userId, "12345 !!!")).rejects.toMatchObject({
      code: "unprocessable",
      message: "Failed to process your request. Please try different wording.",
    });
  });
});

describe("Use AI without an LLM", () => {
  it("is the local writer exactly, and asks no LLM", async () => {
    const sent = llm.requests.length;
    for (const description of [PUNE, "customers who spent more than 10000", "inactive for 40 days", "big spenders"]) {
      expect(await describeSegment(userId, description)).toMatchObject({ writer: "local", ...local(description) });
    }
    expect((await describeSegment(userId, "customers who spent more than 10000")).summary).toBe(
      "Total spend greater than ₹10,000",
    );
    await expect(describeSegment(userId, "12345 !!!")).rejects.toMatchObject({ code: "unprocessable" });
    expect(llm.requests.length).toBe(sent);
  });
});

describe("the prompt", () => {
  it("lists at most 20 choices of a field and states today's date", async () => {
    const catalog = await fieldCatalog(userId);
    const many = Array.from({ length: 30 }, (_, i) => `C${i}`);
    catalog.set("size", { ...catalog.get("loyalty_tier")!, name: "size", label: "Size", choices: many });
    const prompt = segmentPrompt(catalog, Date.parse("2025-03-14T20:00:00Z"));
    expect(prompt).toContain('"C19", …;');
    expect(prompt).not.toContain('"C20"');
    // 20:00 UTC is already the next day in India.
    expect(prompt).toContain("Today is 2025-03-15 (India Standard Time)");
  });
});

describe("Use AI with an LLM and the tenant's segments", () => {
  it("lists the tenant's segments in the prompt and takes a membership condition of one of them, never another tenant's", async () => {
    useLlm();
    const { createSegment } = await import("~/services/segments.server");
    const { parsedTree: tree } = await import("../../tests/helpers/segment-trees");
    const vip = await createSegment(userId, {
      name: "VIP shoppers",
      description: "",
      tree: tree({ visits: { $gte: 5 } }),
    });
    const theirs = await createSegment(otherId, {
      name: "Their secret list",
      description: "",
      tree: tree({ visits: { $gte: 1 } }),
    });
    const conditions = { $and: [{ inSegment: { $eq: vip.id } }, { lastOrderDate: { $lt: { $daysAgo: 90 } } }] };
    llm.behave({ kind: "content", content: JSON.stringify({ conditions }) });
    const answer = await describeSegment(userId, "VIP shoppers who have not ordered in 90 days");
    expect(answer.writer).toBe("llm");
    expect(answer.conditions).toEqual(conditions);
    expect(answer.summary).toBe('In segment "VIP shoppers" AND Last order more than 90 days ago');
    const prompt = llm.requests.at(-1)?.messages[0]?.content ?? "";
    expect(prompt).toContain(`- ${vip.id}: "VIP shoppers"`);
    expect(prompt).not.toContain(theirs.id);
    expect(prompt).not.toContain("Their secret list");

    // Another tenant's segment in the answer is refused: the local rules answer instead.
    llm.behave({ kind: "content", content: JSON.stringify({ conditions: { inSegment: { $eq: theirs.id } } }) });
    const refused = await describeSegment(userId, "customers who spent over 5000");
    expect(refused.writer).toBe("local");
    expect(JSON.stringify(refused.conditions)).not.toContain(theirs.id);
  });
});
