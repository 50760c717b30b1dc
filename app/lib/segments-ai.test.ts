import { describe, expect, it } from "vitest";
import { AI_DEFAULTS, interpretDescription } from "~/lib/segments-ai";
import { builderToTree, validateConditions } from "~/lib/segments-builder";
import { toConditions } from "~/lib/segments";
import { describeTree } from "~/lib/segment-descriptions";
import { ConditionsSchema } from "~/schemas/segment";

const conditions = (text: string) => {
  const r = interpretDescription(text);
  if (!r.ok) throw new Error(r.message);
  expect(validateConditions(r.builder)).toBeUndefined();
  return toConditions(builderToTree(r.builder));
};

describe("Use AI: keywords to conditions", () => {
  it("asks for a description when it is empty", () => {
    expect(interpretDescription("   ")).toEqual({ ok: false, message: "Please enter a description" });
  });

  it("fails with the try-different-wording message on text it cannot read", () => {
    expect(interpretDescription("12345 !!!")).toEqual({
      ok: false,
      message: "Failed to process your request. Please try different wording.",
    });
    expect(interpretDescription("customers who spent more than 99999999999999")).toEqual({
      ok: false,
      message: "Failed to process your request. Please try different wording.",
    });
  });

  it("reads spend with a number, in words and with units", () => {
    expect(conditions("customers who spent more than 5000")).toEqual({ totalSpend: { $gt: 5000 } });
    expect(conditions("spend under ₹2,500")).toEqual({ totalSpend: { $lt: 2500 } });
    expect(conditions("spending at least 10k")).toEqual({ totalSpend: { $gte: 10000 } });
    expect(conditions("purchases of 2 lakh or more")).toEqual({ totalSpend: { $gte: 200000 } });
  });

  it("defaults spend to greater than 1000 without a number", () => {
    expect(conditions("big spenders")).toEqual({ totalSpend: { $gt: AI_DEFAULTS.spend } });
    expect(AI_DEFAULTS.spend).toBe(1000);
  });

  it("reads visits, defaulting to greater than 3", () => {
    expect(conditions("frequent visitors")).toEqual({ visits: { $gt: 3 } });
    expect(conditions("visited fewer than 2 times")).toEqual({ visits: { $lt: 2 } });
  });

  it("reads days of activity as rolling dates, defaulting to 30 days, and inactivity", () => {
    expect(conditions("active customers")).toEqual({ lastActiveDate: { $gte: { $daysAgo: 30 } } });
    expect(conditions("active in the last 7 days")).toEqual({ lastActiveDate: { $gte: { $daysAgo: 7 } } });
    expect(conditions("active in the last 60 days")).toEqual({ lastActiveDate: { $gte: { $daysAgo: 60 } } });
    expect(conditions("inactive for 90 days")).toEqual({ lastActiveDate: { $lt: { $daysAgo: 90 } } });
    expect(conditions("inactive for 2 months")).toEqual({ lastActiveDate: { $lt: { $daysAgo: 60 } } });
    expect(conditions("dormant for 3 weeks")).toEqual({ lastActiveDate: { $lt: { $daysAgo: 21 } } });
  });

  it("gives rolling dates the API accepts, described in words", () => {
    const r = interpretDescription("inactive for 90 days");
    if (!r.ok) throw new Error(r.message);
    const tree = builderToTree(r.builder);
    expect(toConditions(ConditionsSchema.parse(toConditions(tree)))).toEqual({
      lastActiveDate: { $lt: { $daysAgo: 90 } },
    });
    expect(describeTree(tree)).toBe("Last active more than 90 days ago");
    const active = interpretDescription("active in the last 60 days");
    expect(active.ok && describeTree(builderToTree(active.builder))).toBe("Last active in the last 60 days");
  });

  it("combines several with AND, or OR when the text says or", () => {
    expect(conditions("customers who spent over 5000 and visited at least 3 times in the last 60 days")).toEqual({
      $and: [{ totalSpend: { $gt: 5000 } }, { visits: { $gte: 3 } }, { lastActiveDate: { $gte: { $daysAgo: 60 } } }],
    });
    expect(conditions("spent more than 100 or visits above 10")).toEqual({
      $or: [{ totalSpend: { $gt: 100 } }, { visits: { $gt: 10 } }],
    });
  });

  it("falls back to totalSpend greater than 500 when nothing matched", () => {
    expect(conditions("my favourite people")).toEqual({ totalSpend: { $gt: 500 } });
  });

  it("reads a product bought, opens, birthdays, a city, a tag and a number of orders", () => {
    expect(conditions("Birthday this week in Pune, bought a saree, opened something in 90 days")).toEqual({
      $and: [
        { "field:birthday": { $anniversaryWithinDays: 7 } },
        { "field:city": { $eq: "Pune" } },
        { boughtProduct: { $eq: "saree" } },
        { lastOpenDate: { $gte: { $daysAgo: 90 } } },
      ],
    });
    expect(conditions("customers who bought a saree")).toEqual({ boughtProduct: { $eq: "saree" } });
    expect(conditions("opened an email in the last 30 days")).toEqual({ lastOpenDate: { $gte: { $daysAgo: 30 } } });
    expect(conditions("birthday in the next 10 days")).toEqual({ "field:birthday": { $anniversaryWithinDays: 10 } });
    expect(conditions("customers in New Delhi")).toEqual({ "field:city": { $eq: "New Delhi" } });
    expect(conditions("tagged vip")).toEqual({ tags: { $in: ["vip"] } });
    expect(conditions("with tag Trade Fair")).toEqual({ tags: { $in: ["Trade Fair"] } });
    expect(conditions("more than 3 orders")).toEqual({ orderCount: { $gt: 3 } });
    expect(conditions("at least 2 orders in Mumbai")).toEqual({
      $and: [{ orderCount: { $gte: 2 } }, { "field:city": { $eq: "Mumbai" } }],
    });
    // Spending words after "bought" stay a spend, and "in the last N days" is not a city.
    expect(conditions("bought over 5000")).toEqual({ totalSpend: { $gt: 5000 } });
    expect(conditions("active In the last 60 days")).toEqual({ lastActiveDate: { $gte: { $daysAgo: 60 } } });
    expect(conditions("tagged vip, spent more than 5000")).toEqual({
      $and: [{ tags: { $in: ["vip"] } }, { totalSpend: { $gt: 5000 } }],
    });
  });
});
