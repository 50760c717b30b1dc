// @engines sqlite postgres
// The AI insights on a real migrated database (SQLite; PostgreSQL in the postgres project): every
// figure checked against a direct count over the same rows, another tenant's rows never used, the threshold, the numbers check,
// the cache, and the LLM path against a local fake of the chat-completions endpoint (a good answer,
// one stating a number it was not given, a malformed, failing, short or slow one).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFakeLlm, type FakeLlm } from "../../../tests/fakes/llm";
import { createTestUser, useTestDatabase } from "../../../tests/helpers/db";

// eslint-disable-next-line react-hooks/rules-of-hooks -- a test helper named use*, not a React hook
useTestDatabase();

import { db } from "~/db/prisma.server";
import { resetEnvCache } from "~/env.server";
import { newId } from "~/lib/id";
import { formatFigure, type Insight, type Insights } from "~/lib/insights";
import { parseConditions } from "~/lib/segment-parse";
import { CustomerApiSchema } from "~/schemas/customer";
import { createCustomer, deleteCustomer } from "~/services/customers.server";
import { clearInsightsCache, getInsights } from "~/services/dashboard/insights.server";
import { insightFacts } from "~/services/dashboard/insights/facts.server";
import { numbersIn, unknownNumbers } from "~/services/dashboard/insights/grounding.server";
import { localLists } from "~/services/dashboard/insights/local-writer.server";
import { seedTenant } from "~/services/seed.server";
import { createSegment } from "~/services/segments.server";

const DAY = 86_400_000;
let llm: FakeLlm;
let a: string; // the tenant under test
let b: string; // another tenant with more striking figures, which must never show up in a's

beforeAll(async () => {
  llm = await startFakeLlm();
  a = (await createTestUser("Insights A")).id;
  b = (await createTestUser("Insights B")).id;
  await seedTenant(a, { customers: 300, orders: 0, seed: 21 });
  await seedTenant(b, { customers: 500, orders: 0, seed: 22 });
  // Customers added today (the seed's are at least a day old).
  for (let i = 0; i < 4; i++) await addCustomer(a, "New", `new${i}@a.example`);
});
afterAll(async () => {
  await llm.close();
  useNoLlm();
});

function useLlm() {
  process.env.AI_BASE_URL = llm.url;
  process.env.AI_MODEL = "fake-insights-model";
  process.env.AI_API_KEY = "sk-test";
  resetEnvCache();
  clearInsightsCache();
}
function useNoLlm() {
  delete process.env.AI_BASE_URL;
  delete process.env.AI_MODEL;
  delete process.env.AI_API_KEY;
  resetEnvCache();
  clearInsightsCache();
}

async function segment(userId: string, name: string, conditions: unknown) {
  const parsed = parseConditions(conditions);
  if (!parsed.ok) throw new Error(parsed.message);
  return (await createSegment(userId, { name, description: "", tree: parsed.tree })).id;
}

type Counters = { delivered: number; failed: number; bounced?: number; opened: number; status?: string };
async function campaign(userId: string, name: string, c: Counters, segmentId: string | null = null) {
  const id = newId();
  const now = new Date();
  await db().campaign.create({
    data: {
      id,
      userId,
      segmentId,
      name,
      message: "Hi {NAME}",
      status: c.status ?? "Completed",
      audienceSize: c.delivered + c.failed + (c.bounced ?? 0),
      launchedAt: c.status === "Draft" ? null : now,
      createdAt: now,
      updatedAt: now,
      deliveredCount: c.delivered,
      failedCount: c.failed,
      bouncedCount: c.bounced ?? 0,
      openedCount: c.opened,
    },
  });
  return id;
}

/** A customer added now, through the service every screen and /api call uses. */
const addCustomer = (userId: string, firstName: string, email: string) =>
  createCustomer(userId, CustomerApiSchema.parse({ firstName, lastName: "Test", email }));

/** The tenant's customers that `where` selects, counted directly. */
const customersWhere = (userId: string, where: Record<string, unknown> = {}) =>
  db().customer.count({ where: { userId, ...where } });

/** The start of the India Standard Time month `back` months before the one `at` is in. */
function istMonthStart(at: number, back = 0): number {
  const ist = new Date(at + 330 * 60_000);
  return Date.UTC(ist.getUTCFullYear(), ist.getUTCMonth() - back, 1) - 330 * 60_000;
}

const allInsights = (i: Insights): Insight[] => [
  ...i.customerTrends,
  ...i.segmentRecommendations,
  ...i.campaignSuggestions,
  ...i.growthPredictions,
];
const figureOf = (i: Insights, label: string) =>
  allInsights(i)
    .flatMap((x) => x.figures)
    .find((f) => f.label === label)?.value;

let big: string;
let sentTo: string;
let small: string;
let draftOnly: string;

describe("the figures", () => {
  beforeAll(async () => {
    big = await segment(a, "Anyone who spent", { totalSpend: { $gt: 0 } });
    small = await segment(a, "Frequent visitors", { visits: { $gte: 8 } });
    sentTo = await segment(a, "Already reached", { visits: { $gte: 1 } });
    draftOnly = await segment(a, "Draft only", { visits: { $gte: 3 } });
    await campaign(a, "Spring Sale", { delivered: 950, failed: 30, bounced: 20, opened: 300 }, sentTo);
    await campaign(a, "Monsoon Offer", { delivered: 600, failed: 300, bounced: 100, opened: 30 });
    await campaign(a, "Diwali Greetings", { delivered: 800, failed: 200, opened: 400 });
    await campaign(a, "Not yet", { delivered: 0, failed: 0, opened: 0, status: "Draft" }, draftOnly);
    // Tenant b: a perfect campaign and a segment bigger than any of a's, neither sent to a.
    await segment(b, "B everyone", { totalSpend: { $gte: 0 } });
    await campaign(b, "B Perfect", { delivered: 1000, failed: 0, opened: 1000 });
    await campaign(b, "B Disaster", { delivered: 1, failed: 999, opened: 0 });
    await campaign(b, "B Third", { delivered: 5, failed: 5, opened: 1 });
  });

  it("each equals a direct SQL count over the tenant's rows", async () => {
    const now = new Date();
    const at = now.getTime();
    const f = await insightFacts(a, now);

    const customers = await customersWhere(a);
    expect(f.counts).toEqual({
      customers,
      campaigns: await db().campaign.count({ where: { userId: a } }),
      segments: await db().segment.count({ where: { userId: a } }),
    });
    expect(f.counts).toMatchObject({ customers: 304, campaigns: 4, segments: 4 });

    // Growth month on month, by creation time.
    const thisMonth = await customersWhere(a, { createdAt: { gte: new Date(istMonthStart(at)) } });
    const lastMonth = await customersWhere(a, {
      createdAt: { gte: new Date(istMonthStart(at, 1)), lt: new Date(istMonthStart(at)) },
    });
    expect(thisMonth).toBeGreaterThanOrEqual(4);
    expect(lastMonth).toBeGreaterThan(0);
    expect(f.growth).toMatchObject({ thisMonth, lastMonth, beforeThisMonth: customers - thisMonth });
    expect(f.growth.growthPercent).toBe(Math.round((thisMonth / (customers - thisMonth)) * 1000) / 10);

    // Inactivity: no activity within the window, or never active.
    for (const w of f.inactive) {
      const n = await customersWhere(a, {
        OR: [{ lastActive: null }, { lastActive: { lt: new Date(at - w.days * DAY) } }],
      });
      expect(w).toEqual({ days: w.days, customers: n, percent: Math.round((n / customers) * 1000) / 10 });
    }
    expect(f.inactive.map((w) => w.days)).toEqual([30, 60, 90]);
    expect(f.inactive[0].customers).toBeGreaterThan(f.inactive[2].customers);

    // Spend concentration: the top 10% of customers by spend.
    const top = (
      await db().customer.findMany({
        where: { userId: a },
        orderBy: { totalSpendPaise: "desc" },
        take: Math.ceil(customers / 10),
        select: { totalSpendPaise: true },
      })
    ).reduce((sum, c) => sum + c.totalSpendPaise, 0);
    const total =
      (await db().customer.aggregate({ where: { userId: a }, _sum: { totalSpendPaise: true } }))._sum.totalSpendPaise ??
      0;
    expect(f.spend).toEqual({
      topCustomers: Math.ceil(customers / 10),
      topSpend: Math.round(top / 100),
      totalSpend: Math.round(total / 100),
      topPercent: Math.round((top / total) * 1000) / 10,
    });

    // Campaigns: delivered / (delivered + failed + bounced), opened / delivered; drafts left out.
    const oneDecimal = (x: number) => Math.round(x * 10) / 10;
    const rates = (await db().campaign.findMany({ where: { userId: a, status: { not: "Draft" } } })).map((c) => ({
      name: c.name,
      d: oneDecimal((100 * c.deliveredCount) / (c.deliveredCount + c.failedCount + c.bouncedCount)),
      o: oneDecimal((100 * c.openedCount) / c.deliveredCount),
    }));
    expect(f.campaigns.map((c) => [c.name, c.deliveryRate, c.openRate]).sort()).toEqual(
      rates.map((r) => [r.name, r.d, r.o]).sort(),
    );

    // Unsent segments: those without a launched campaign, with their audiences counted in SQL.
    const spent = await customersWhere(a, { totalSpendPaise: { gt: 0 } });
    const frequent = await customersWhere(a, { visits: { gte: 8 } });
    const sometimes = await customersWhere(a, { visits: { gte: 3 } });
    expect(f.unsentSegments.total).toBe(3);
    expect(f.unsentSegments.largest).toEqual(
      [
        { id: big, name: "Anyone who spent", customers: spent },
        { id: small, name: "Frequent visitors", customers: frequent },
        { id: draftOnly, name: "Draft only", customers: sometimes },
      ]
        .filter((s) => s.customers > 0)
        .sort((x, y) => y.customers - x.customers),
    );
    expect(f.unsentSegments.largest.map((s) => s.id)).not.toContain(sentTo);
  });

  it("the answer names each figure, states it, and uses nothing of another tenant", async () => {
    useNoLlm();
    const insights = await getInsights(a);
    expect(insights).toMatchObject({ enoughData: true, writer: "local" });
    expect(insights.model).toBeUndefined();
    const text = JSON.stringify(insights);
    expect(text).not.toMatch(/B Perfect|B Disaster|B everyone|B Third/);

    const f = await insightFacts(a);
    expect(figureOf(insights, "New customers this month")).toBe(f.growth.thisMonth);
    expect(figureOf(insights, "Customers inactive for 90 days or more")).toBe(f.inactive[2].percent);
    expect(figureOf(insights, "Share of total spend held by the top 10% of customers")).toBe(f.spend.topPercent);
    expect(figureOf(insights, 'Delivery rate of "Spring Sale"')).toBe(95);
    expect(figureOf(insights, 'Delivery rate of "Monsoon Offer"')).toBe(60);
    expect(figureOf(insights, 'Open rate of "Diwali Greetings"')).toBe(50);
    expect(figureOf(insights, 'Open rate of "Monsoon Offer"')).toBe(5);

    // Every text states its figures (as formatted) and no other number.
    for (const insight of allInsights(insights)) {
      expect(unknownNumbers(insight.text, insight.figures)).toEqual([]);
      for (const figure of insight.figures.filter(
        (x) => !x.label.endsWith("(count)") && x.label !== "Customer growth this month",
      ))
        expect(insight.text).toContain(formatFigure(figure));
    }
    expect(insights.campaignSuggestions[0].text).toBe(
      'Best delivery rate: "Spring Sale" delivered 95.0% of its 1,000 attempted messages.',
    );
    expect(insights.segmentRecommendations[0]).toMatchObject({ href: `/campaigns/new?segmentId=${big}` });

    // The card's blocks are made from the lists.
    expect(insights.blocks.campaignPerformance).toContain('"Spring Sale" delivered 95.0%');
    expect(insights.blocks.campaignPerformance).toContain('"Monsoon Offer" delivered 60.0%');
    expect(insights.blocks.segmentInsight).toContain('Segment "Anyone who spent"');
    expect(insights.blocks.recentActivity).toContain(`${formatFigure({ value: f.growth.thisMonth, unit: "count" })}`);
  });
});

describe("a campaign with spam reports", () => {
  it("counts a message reported as spam as delivered, as the campaign's success rate does", async () => {
    const user = (await createTestUser("Insights complaints")).id;
    const id = await campaign(user, "Reported", { delivered: 9, failed: 1, opened: 9 });
    // One of the ten opened it and reported it as spam: its row moved from delivered to complained.
    await db().campaign.update({ where: { id }, data: { complainedCount: 1, openedCount: 10, audienceSize: 11 } });
    const f = await insightFacts(user);
    expect(f.campaigns).toEqual([
      expect.objectContaining({ attempted: 11, delivered: 10, opened: 10, deliveryRate: 90.9, openRate: 100 }),
    ]);
  });
});

describe("the threshold", () => {
  it("needs at least 3 campaigns and 10 customers", async () => {
    useNoLlm();
    const c = (await createTestUser("Small shop")).id;
    for (let i = 0; i < 10; i++) await addCustomer(c, "C", `c${i}@c.example`);
    await campaign(c, "One", { delivered: 5, failed: 0, opened: 1 });
    await campaign(c, "Two", { delivered: 5, failed: 1, opened: 1 });
    const two = await getInsights(c);
    expect(two).toMatchObject({
      enoughData: false,
      writer: "local",
      counts: { customers: 10, campaigns: 2 },
      customerTrends: [],
      segmentRecommendations: [],
      campaignSuggestions: [],
      growthPredictions: [],
      blocks: { campaignPerformance: "", segmentInsight: "", recentActivity: "" },
    });

    await campaign(c, "Three", { delivered: 5, failed: 2, opened: 0 });
    const three = await getInsights(c);
    expect(three).toMatchObject({ enoughData: true, counts: { customers: 10, campaigns: 3 } });
    // All ten were added this month: the whole base is this month's growth.
    expect(figureOf(three, "New customers this month")).toBe(10);
    expect(figureOf(three, "Customers before this month")).toBe(0);
    expect(three.customerTrends[0].text).toBe("All 10 of your customers were added this month; last month brought 0.");

    // What the Segment Insight says without a segment to recommend.
    expect(three.blocks.segmentInsight).toBe("You have no segments yet: create one to target a group of customers.");
    const none = await segment(c, "Spenders", { totalSpend: { $gt: 0 } });
    clearInsightsCache();
    expect((await getInsights(c)).blocks.segmentInsight).toBe(
      "Your 1 newest segment not yet sent to has no customers: loosen its conditions or create a new segment.",
    );
    await campaign(c, "To spenders", { delivered: 0, failed: 0, opened: 0 }, none);
    clearInsightsCache();
    expect((await getInsights(c)).blocks.segmentInsight).toBe(
      "Every one of your 1 segment has had a campaign: create a new segment to reach other customers.",
    );

    const d = (await createTestUser("Nine customers")).id;
    for (let i = 0; i < 9; i++) await addCustomer(d, "D", `d${i}@d.example`);
    for (const name of ["x", "y", "z"]) await campaign(d, name, { delivered: 1, failed: 0, opened: 0 });
    expect(await getInsights(d)).toMatchObject({ enoughData: false, counts: { customers: 9, campaigns: 3 } });
  });
});

describe("the cache", () => {
  it("keeps the answer until the data changes or an hour passes", async () => {
    useNoLlm();
    const t0 = new Date();
    const first = await getInsights(a, { now: t0 });
    expect(await getInsights(a, { now: new Date(t0.getTime() + 59 * 60_000) })).toBe(first);
    const later = await getInsights(a, { now: new Date(t0.getTime() + 61 * 60_000) });
    expect(later).not.toBe(first);
    expect(later.generatedAt).toBe(new Date(t0.getTime() + 61 * 60_000).toISOString());

    // A new campaign changes the data: a new answer (after the 30 s floor that spares a sending campaign).
    const id = await campaign(a, "Winter Clearance", { delivered: 999, failed: 0, opened: 998 });
    const t1 = t0.getTime() + 61 * 60_000;
    expect(await getInsights(a, { now: new Date(t1 + 10_000) })).toBe(later);
    const changed = await getInsights(a, { now: new Date(t1 + 31_000) });
    expect(changed.campaignSuggestions[0].text).toContain('"Winter Clearance" delivered 100.0%');
    await db().campaign.delete({ where: { id } });

    // A new customer changes the customers' figures too (never active: inactive in every window).
    const before = await getInsights(a, { now: new Date(t1 + 62_000) });
    await addCustomer(a, "Late", "late@a.example");
    const after = await getInsights(a, { now: new Date(t1 + 93_000) });
    expect(figureOf(after, "New customers this month")).toBe(figureOf(before, "New customers this month")! + 1);
    expect(figureOf(after, "Customers inactive for 30 days or more (count)")).toBe(
      figureOf(before, "Customers inactive for 30 days or more (count)")! + 1,
    );
    // The tally follows the delete (the database's trigger).
    const late = await db().customer.findFirstOrThrow({ where: { userId: a, email: "late@a.example" } });
    await deleteCustomer(a, late.id);
    clearInsightsCache();
  });
});

describe("the numbers check", () => {
  it("reads the numbers a text states and refuses those not among the figures", () => {
    expect(numbersIn("₹1,23,456 and 12.5% of 3 segments, 1,000 sent")).toEqual([123456, 12.5, 3, 1000]);
    const figures = [
      { label: 'Open rate of "Campaign 12"', value: 31.25, unit: "percent" as const },
      { label: "Customers inactive for 30 days or more", value: 41.7, unit: "percent" as const },
      { label: "Total spend", value: 123456.4, unit: "rupees" as const },
    ];
    expect(unknownNumbers('"Campaign 12" opened by 31.3%, or about 31%', figures)).toEqual([]);
    expect(unknownNumbers("41.7% inactive for 30 days; ₹1,23,456 spent", figures)).toEqual([]);
    expect(unknownNumbers("45% inactive, 2,000 new customers expected by 2027", figures)).toEqual([45, 2000, 2027]);
  });
});

describe("the LLM writer", () => {
  /** An answer that phrases the local lists anew, stating only their figures. */
  async function goodAnswer() {
    const lists = localLists(await insightFacts(a));
    const phrase = (i: Insight) =>
      i.figures.length
        ? `Worth knowing: ${i.figures.map((f) => `${f.label} is ${formatFigure(f)}`).join("; ")}.`
        : "Nothing to report.";
    return {
      lists,
      answer: {
        customerTrends: lists.customerTrends.map(phrase),
        segmentRecommendations: lists.segmentRecommendations.map(phrase),
        campaignSuggestions: lists.campaignSuggestions.map(phrase),
        growthPredictions: lists.growthPredictions.map(phrase),
        blocks: {
          campaignPerformance: `Your best campaign delivered ${formatFigure(lists.campaignSuggestions[0].figures[0])}.`,
          segmentInsight: `A segment of ${formatFigure(lists.segmentRecommendations[0].figures[0])} customers is waiting.`,
          recentActivity: `You added ${formatFigure(lists.customerTrends[0].figures[0])} customers this month.`,
        },
      },
    };
  }

  it("uses a good answer, with the figures in the prompt, and says the AI wrote it", async () => {
    useLlm();
    const { lists, answer } = await goodAnswer();
    llm.behave({ kind: "content", content: JSON.stringify(answer) });
    const insights = await getInsights(a);
    expect(insights).toMatchObject({ writer: "ai", model: "fake-insights-model", enoughData: true });
    expect(insights.customerTrends.map((i) => i.text)).toEqual(answer.customerTrends);
    expect(insights.blocks).toEqual(answer.blocks);
    // The figures are ours, not the model's.
    expect(insights.campaignSuggestions.map((i) => i.figures)).toEqual(lists.campaignSuggestions.map((i) => i.figures));
    const sent = llm.requests.at(-1)!;
    expect(sent).toMatchObject({ model: "fake-insights-model", authorization: "Bearer sk-test" });
    expect(sent.messages[1].content).toContain('Delivery rate of \\"Spring Sale\\"');
    expect(sent.messages[1].content).toContain('"95.0%"');
  });

  it("refuses an answer stating a number it was not given, and writes locally", async () => {
    useLlm();
    const { answer } = await goodAnswer();
    answer.campaignSuggestions[0] = `${answer.campaignSuggestions[0]} Expect 37,000 more opens next week.`;
    llm.behave({ kind: "content", content: JSON.stringify(answer) });
    const insights = await getInsights(a);
    expect(insights.writer).toBe("local");
    expect(insights.model).toBeUndefined();
    expect(JSON.stringify(insights)).not.toContain("37,000");

    // In a block too, and a number another list's figure holds does not count for this block.
    const again = await goodAnswer();
    const segmentFigures = again.lists.segmentRecommendations.flatMap((i) => i.figures.map((f) => f.value));
    expect(segmentFigures).not.toContain(again.lists.campaignSuggestions[0].figures[0].value);
    again.answer.blocks.segmentInsight = `Your best campaign delivered ${formatFigure(again.lists.campaignSuggestions[0].figures[0])}.`;
    llm.behave({ kind: "content", content: JSON.stringify(again.answer) });
    clearInsightsCache();
    expect((await getInsights(a)).writer).toBe("local");
  });

  it("falls back on a malformed, short, failing or slow answer", async () => {
    useLlm();
    const { answer } = await goodAnswer();
    llm.behave({ kind: "malformed" });
    expect((await getInsights(a)).writer).toBe("local");

    clearInsightsCache();
    llm.behave({
      kind: "content",
      content: JSON.stringify({ ...answer, customerTrends: answer.customerTrends.slice(1) }),
    });
    expect((await getInsights(a)).writer).toBe("local");

    clearInsightsCache();
    llm.behave({ kind: "content", content: '{"customerTrends": "not a list"}' });
    expect((await getInsights(a)).writer).toBe("local");

    clearInsightsCache();
    llm.behave({ kind: "status", status: 503 });
    expect((await getInsights(a)).writer).toBe("local");

    clearInsightsCache();
    llm.behave({ kind: "slow", ms: 3000, content: JSON.stringify(answer) });
    const started = Date.now();
    const slow = await getInsights(a, { timeoutMs: 300 });
    expect(slow.writer).toBe("local");
    expect(Date.now() - started).toBeLessThan(2000);
    useNoLlm();
  });
});
