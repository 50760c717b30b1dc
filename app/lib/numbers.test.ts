// Counts in Indian digit grouping and the rule for when a rate exists (docs/rules.md#numbers).
import { describe, expect, it } from "vitest";
import { NO_RATE, formatCount, formatRate, rateOf } from "~/lib/numbers";

describe("counts", () => {
  it("groups digits the Indian way: thousands, then pairs", () => {
    expect(formatCount(0)).toBe("0");
    expect(formatCount(999)).toBe("999");
    expect(formatCount(3271)).toBe("3,271");
    expect(formatCount(99_999)).toBe("99,999");
    expect(formatCount(100_000)).toBe("1,00,000");
    expect(formatCount(1_234_567)).toBe("12,34,567");
    expect(formatCount(1_000_000_000)).toBe("1,00,00,00,000");
    expect(formatCount(-1_234_567)).toBe("-12,34,567");
  });

  it("shows a count as a whole number", () => {
    expect(formatCount(1234.4)).toBe("1,234");
    expect(formatCount(1234.6)).toBe("1,235");
  });
});

describe("rates", () => {
  it("is no rate when the denominator is 0: nothing was attempted", () => {
    expect(rateOf(0, 0)).toBeNull();
    expect(rateOf(5, 0)).toBeNull();
    expect(formatRate(rateOf(0, 0))).toBe(NO_RATE);
    expect(NO_RATE).toBe("—");
  });

  it("is a percentage with one decimal otherwise, 0.0% included", () => {
    expect(rateOf(0, 10)).toBe(0);
    expect(formatRate(rateOf(0, 10))).toBe("0.0%");
    expect(formatRate(rateOf(37, 40))).toBe("92.5%");
    expect(formatRate(rateOf(1, 3))).toBe("33.3%");
    expect(formatRate(rateOf(2, 3))).toBe("66.7%");
    expect(formatRate(rateOf(40, 40))).toBe("100.0%");
  });
});
