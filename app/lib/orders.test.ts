import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  CHIP_CLASSES,
  customerName,
  isPaiseStep,
  normalizeStatus,
  orderContribution,
  shortOrderId,
  statusColour,
  subtotalPaise,
  toPaise,
  toQuantity,
  totalPaise,
} from "~/lib/orders";

describe("order totals", () => {
  it("the subtotal is the sum of price × quantity", () => {
    expect(
      subtotalPaise([
        { quantity: 2, pricePaise: 15_050 },
        { quantity: 3, pricePaise: 999 },
      ]),
    ).toBe(30_100 + 2_997);
    expect(subtotalPaise([])).toBe(0);
  });

  it("the total is subtotal plus tax", () => {
    expect(totalPaise(33_097, 5_000)).toBe(38_097);
    fc.assert(
      fc.property(
        fc.array(
          fc.record({ quantity: fc.integer({ min: 1, max: 1000 }), pricePaise: fc.integer({ min: 0, max: 1e6 }) }),
        ),
        fc.integer({ min: 0, max: 1e6 }),
        (items, tax) => {
          const sub = subtotalPaise(items);
          expect(totalPaise(sub, tax) - tax).toBe(sub);
          expect(sub).toBeGreaterThanOrEqual(0);
        },
      ),
    );
  });

  it("rupees become whole paise", () => {
    expect(toPaise(10.1)).toBe(1010);
    expect(toPaise(0.29)).toBe(29);
    expect(toPaise(1234.56)).toBe(123_456);
    expect(toPaise(Number.NaN)).toBe(0);
  });
});

describe("quantity, price and tax rules", () => {
  it("quantity has a minimum of 1 and a non-numeric value becomes 1", () => {
    expect(toQuantity("abc")).toBe(1);
    expect(toQuantity("")).toBe(1);
    expect(toQuantity(undefined)).toBe(1);
    expect(toQuantity("0")).toBe(1);
    expect(toQuantity(-4)).toBe(1);
    expect(toQuantity("7")).toBe(7);
    expect(toQuantity("2.9")).toBe(2);
    expect(toQuantity(12)).toBe(12);
  });

  it("price and tax move in steps of 0.01", () => {
    expect(isPaiseStep(10)).toBe(true);
    expect(isPaiseStep(10.5)).toBe(true);
    expect(isPaiseStep(19.99)).toBe(true);
    expect(isPaiseStep(0.1 + 0.2)).toBe(true);
    expect(isPaiseStep(10.005)).toBe(false);
    expect(isPaiseStep(Number.POSITIVE_INFINITY)).toBe(false);
  });
});

describe("order status", () => {
  it("colours: completed green, pending amber, cancelled red, others default", () => {
    expect(statusColour("Completed")).toBe("success");
    expect(statusColour("completed")).toBe("success");
    expect(statusColour("Pending")).toBe("warning");
    expect(statusColour("Cancelled")).toBe("error");
    expect(statusColour("Processing")).toBe("default");
    expect(statusColour("Shipped")).toBe("default");
    expect(CHIP_CLASSES.success).toContain("green");
    expect(CHIP_CLASSES.warning).toContain("amber");
    expect(CHIP_CLASSES.error).toContain("red");
  });

  it("statuses are matched without regard to case", () => {
    expect(normalizeStatus("processing")).toBe("Processing");
    expect(normalizeStatus(" CANCELLED ")).toBe("Cancelled");
    expect(normalizeStatus("Shipped")).toBeUndefined();
    expect(normalizeStatus(3)).toBeUndefined();
  });
});

describe("display", () => {
  it("an order id is shown as its last 6 characters", () => {
    expect(shortOrderId("6741f0a2b3c4d5e6f7a8b9c0")).toBe("a8b9c0");
  });

  it("customer names fall back to 'No Name' and 'Unknown'", () => {
    expect(customerName({ firstName: "Priya", lastName: "Sharma" })).toBe("Priya Sharma");
    expect(customerName({ firstName: " ", lastName: "" })).toBe("No Name");
    expect(customerName(null)).toBe("Unknown");
  });
});

describe("what an order adds to its customer", () => {
  it("a counting order adds its total and one visit; a cancelled one adds nothing", () => {
    expect(orderContribution({ status: "Pending", amountPaise: 10_000, taxPaise: 1_800 })).toEqual({
      spendPaise: 11_800,
      visits: 1,
    });
    expect(orderContribution({ status: "Completed", amountPaise: 5, taxPaise: 0 })).toEqual({
      spendPaise: 5,
      visits: 1,
    });
    expect(orderContribution({ status: "Cancelled", amountPaise: 10_000, taxPaise: 1_800 })).toEqual({
      spendPaise: 0,
      visits: 0,
    });
  });
});
