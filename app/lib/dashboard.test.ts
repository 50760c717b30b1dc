import { describe, expect, it } from "vitest";
import { listSuccessChip, successChipColour } from "~/lib/campaigns";
import {
  addDays,
  clickRateColour,
  dashboardSuccessChip,
  dayOf,
  dayStartMs,
  deliveryRateColour,
  hasEnoughForInsights,
  INSIGHTS_MIN_CAMPAIGNS,
  INSIGHTS_MIN_CUSTOMERS,
  isDecrease,
  isEmptyAccount,
  mergeActivity,
  monthStart,
  openRateColour,
  percentChange,
  performanceFigures,
  RECENT_ACTIVITY,
  RECENT_ACTIVITY_EACH,
  RECENT_CAMPAIGNS,
  SNACKBAR_MS,
  weekStart,
  weekStarts,
  type ActivityItem,
} from "~/lib/dashboard";

describe("percent change", () => {
  it("has a sign and one decimal", () => {
    expect(percentChange(1125, 1000)).toBe("+12.5%");
    expect(percentChange(97, 100)).toBe("-3.0%");
    expect(percentChange(200, 100)).toBe("+100.0%");
    expect(percentChange(1, 3)).toBe("-66.7%");
    expect(percentChange(2, 3)).toBe("-33.3%");
    expect(percentChange(0, 5)).toBe("-100.0%");
  });
  it("says 0.0% when nothing changed, including a change that rounds to nothing", () => {
    expect(percentChange(10, 10)).toBe("0.0%");
    expect(percentChange(100_000, 100_001)).toBe("0.0%");
  });
  it("previous 0: +100% when there is something now, 0% otherwise", () => {
    expect(percentChange(1, 0)).toBe("+100%");
    expect(percentChange(1_000_000, 0)).toBe("+100%");
    expect(percentChange(0, 0)).toBe("0%");
  });
  it("a decrease is only a fall from something", () => {
    expect(isDecrease(5, 10)).toBe(true);
    expect(isDecrease(10, 10)).toBe(false);
    expect(isDecrease(0, 0)).toBe(false);
    expect(isDecrease(3, 0)).toBe(false);
  });
});

describe("rate colours", () => {
  it("delivery: above 90 success, above 75 primary, above 50 warning, else error", () => {
    expect(deliveryRateColour(100)).toBe("success");
    expect(deliveryRateColour(90.1)).toBe("success");
    expect(deliveryRateColour(90)).toBe("primary");
    expect(deliveryRateColour(75.1)).toBe("primary");
    expect(deliveryRateColour(75)).toBe("warning");
    expect(deliveryRateColour(50.1)).toBe("warning");
    expect(deliveryRateColour(50)).toBe("error");
    expect(deliveryRateColour(0)).toBe("error");
  });
  it("open: above 25 success, above 15 secondary, above 10 warning, else error", () => {
    expect(openRateColour(25.1)).toBe("success");
    expect(openRateColour(25)).toBe("secondary");
    expect(openRateColour(15.1)).toBe("secondary");
    expect(openRateColour(15)).toBe("warning");
    expect(openRateColour(10.1)).toBe("warning");
    expect(openRateColour(10)).toBe("error");
  });
  it("click: above 15 success, above 10 info, above 5 warning, else error", () => {
    expect(clickRateColour(15.1)).toBe("success");
    expect(clickRateColour(15)).toBe("info");
    expect(clickRateColour(10.1)).toBe("info");
    expect(clickRateColour(10)).toBe("warning");
    expect(clickRateColour(5.1)).toBe("warning");
    expect(clickRateColour(5)).toBe("error");
  });
});

describe("recent campaign success", () => {
  it('shows no rate ("—", no colour) before anything was attempted', () => {
    expect(dashboardSuccessChip(null)).toEqual({ label: "—", colour: "default" });
  });
  it("chip: below 60 error, below 90 warning, else success, shown with one decimal", () => {
    expect(dashboardSuccessChip(59.9)).toEqual({ label: "59.9%", colour: "error" });
    expect(dashboardSuccessChip(60)).toEqual({ label: "60.0%", colour: "warning" });
    expect(dashboardSuccessChip(89.9)).toEqual({ label: "89.9%", colour: "warning" });
    expect(dashboardSuccessChip(90)).toEqual({ label: "90.0%", colour: "success" });
  });
  it("uses the same colour rule as the campaign list's chip", () => {
    for (const v of [0, 59, 60, 89, 90, 100]) expect(successChipColour(v)).toBe(listSuccessChip(v, 100 - v)?.colour);
  });
});

describe("performance", () => {
  it("delivery = delivered / attempted, open = opened / delivered, click = clicked / opened", () => {
    expect(performanceFigures({ attempted: 200, delivered: 180, opened: 45, clicked: 9 })).toEqual({
      deliveryRate: 90,
      openRate: 25,
      clickRate: 20,
      attempted: 200,
      delivered: 180,
      opened: 45,
      clicked: 9,
    });
    expect(performanceFigures({ attempted: 3, delivered: 2, opened: 1, clicked: 0 })).toMatchObject({
      deliveryRate: 66.7,
      openRate: 50,
      clickRate: 0,
    });
  });
  it("is 0 where there is nothing to divide by", () => {
    expect(performanceFigures({ attempted: 0, delivered: 0, opened: 0, clicked: 0 })).toMatchObject({
      deliveryRate: 0,
      openRate: 0,
      clickRate: 0,
    });
  });
});

describe("thresholds and lists", () => {
  it("has the product's constants", () => {
    expect(RECENT_CAMPAIGNS).toBe(3);
    expect(RECENT_ACTIVITY).toBe(10);
    expect(RECENT_ACTIVITY_EACH).toBe(5);
    expect(INSIGHTS_MIN_CAMPAIGNS).toBe(3);
    expect(INSIGHTS_MIN_CUSTOMERS).toBe(10);
    expect(SNACKBAR_MS).toBe(6000);
  });
  it("insights need 3 campaigns and 10 customers", () => {
    expect(hasEnoughForInsights({ campaigns: 3, customers: 10 })).toBe(true);
    expect(hasEnoughForInsights({ campaigns: 2, customers: 1000 })).toBe(false);
    expect(hasEnoughForInsights({ campaigns: 100, customers: 9 })).toBe(false);
  });
  it("an account is empty when all three counts are zero", () => {
    expect(isEmptyAccount({ customers: 0, segments: 0, campaigns: 0 })).toBe(true);
    expect(isEmptyAccount({ customers: 0, segments: 1, campaigns: 0 })).toBe(false);
  });
  it("activity merges the kinds newest first and keeps 10", () => {
    const items = (type: ActivityItem["type"], minutes: number[]) =>
      minutes.map((m) => ({
        type,
        id: `${type}${m}`,
        title: type,
        details: "",
        date: new Date(Date.UTC(2026, 10, 1, 0, m)).toISOString(),
      }));
    const merged = mergeActivity(
      items("campaign", [1, 4, 7, 10, 13]),
      items("segment", [2, 5, 8, 11, 14]),
      items("customer", [3, 6, 9, 12, 15]),
    );
    expect(merged).toHaveLength(10);
    expect(merged.map((i) => i.id)).toEqual([
      "customer15",
      "segment14",
      "campaign13",
      "customer12",
      "segment11",
      "campaign10",
      "customer9",
      "segment8",
      "campaign7",
      "customer6",
    ]);
  });
});

describe("calendar (India Standard Time)", () => {
  it("a day starts at 00:00 IST, 18:30 UTC the day before", () => {
    expect(dayOf(new Date("2026-10-31T18:29:59.999Z"))).toBe("2026-10-31");
    expect(dayOf(new Date("2026-10-31T18:30:00.000Z"))).toBe("2026-11-01");
    expect(new Date(dayStartMs("2026-11-01")).toISOString()).toBe("2026-10-31T18:30:00.000Z");
  });
  it("months and weeks (Monday first)", () => {
    expect(monthStart("2026-11-23")).toBe("2026-11-01");
    expect(addDays("2026-11-01", -1)).toBe("2026-10-31");
    expect(addDays("2024-02-28", 1)).toBe("2024-02-29");
    expect(weekStart("2026-11-23")).toBe("2026-11-23"); // a Monday
    expect(weekStart("2026-11-29")).toBe("2026-11-23"); // Sunday
    expect(weekStart("2026-11-01")).toBe("2026-10-26");
  });
  it("12 weeks, oldest first, the current week last", () => {
    const weeks = weekStarts(new Date("2026-11-25T10:00:00Z"));
    expect(weeks).toHaveLength(12);
    expect(weeks[11]).toBe("2026-11-23");
    expect(weeks[0]).toBe("2026-09-07");
  });
});
