// The insights card's pure rules: the threshold, who wrote the text, and how a figure reads.
import { describe, expect, it } from "vitest";
import { formatFigure, hasEnoughDataForInsights, insightsWriterLabel } from "~/lib/insights";

describe("insights", () => {
  it("need at least 3 campaigns and at least 10 customers", () => {
    expect(hasEnoughDataForInsights({ customers: 10, campaigns: 3 })).toBe(true);
    expect(hasEnoughDataForInsights({ customers: 9, campaigns: 30 })).toBe(false);
    expect(hasEnoughDataForInsights({ customers: 1000, campaigns: 2 })).toBe(false);
  });

  it("say who wrote them", () => {
    expect(insightsWriterLabel({ writer: "ai", model: "gpt-4o-mini" })).toBe("Written by AI (gpt-4o-mini)");
    expect(insightsWriterLabel({ writer: "ai" })).toBe("Written by AI");
    expect(insightsWriterLabel({ writer: "local" })).toBe("Written from your data");
  });

  it("state counts with Indian grouping, rates with one decimal and amounts in whole rupees", () => {
    expect(formatFigure({ value: 1234567, unit: "count" })).toBe("12,34,567");
    expect(formatFigure({ value: 95, unit: "percent" })).toBe("95.0%");
    expect(formatFigure({ value: 12.25, unit: "percent" })).toBe("12.3%");
    expect(formatFigure({ value: 475562.4, unit: "rupees" })).toBe("₹4,75,562");
  });
});
