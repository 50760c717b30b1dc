// isoFromEpochMs must be exactly Date#toISOString: the audience preview's lastActive goes out
// through it.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { isoFromEpochMs } from "~/lib/dates";

describe("isoFromEpochMs", () => {
  it("equals Date#toISOString at the edges of its range and of days, months, years and leap days", () => {
    const edges = [
      0,
      1,
      999,
      1000,
      59_999,
      86_399_999,
      86_400_000,
      Date.UTC(2000, 1, 29, 23, 59, 59, 999),
      Date.UTC(2000, 2, 1),
      Date.UTC(2100, 1, 28, 12),
      Date.UTC(2100, 2, 1),
      Date.UTC(2024, 11, 31, 23, 59, 59, 999),
      Date.UTC(2025, 0, 1),
      Date.UTC(9999, 11, 31, 23, 59, 59, 999),
    ];
    for (const ms of edges) expect(isoFromEpochMs(ms)).toBe(new Date(ms).toISOString());
  });

  it("falls back to the Date outside 1970 to 9999 and for fractions, and throws like it", () => {
    for (const ms of [-1, -86_400_001, Date.UTC(10000, 0, 1), Date.UTC(-5, 3, 2), 1.5, 8.64e15]) {
      expect(isoFromEpochMs(ms)).toBe(new Date(ms).toISOString());
    }
    expect(() => isoFromEpochMs(Number.NaN)).toThrow(RangeError);
    expect(() => isoFromEpochMs(8.64e15 + 1)).toThrow(RangeError);
  });

  it("equals Date#toISOString on random instants", () => {
    fc.assert(
      fc.property(fc.integer({ min: -8.64e15, max: 8.64e15 }), (ms) => {
        expect(isoFromEpochMs(ms)).toBe(new Date(ms).toISOString());
      }),
      { numRuns: 20_000 },
    );
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 253_402_300_799_999 }), (ms) => {
        expect(isoFromEpochMs(ms)).toBe(new Date(ms).toISOString());
      }),
      { numRuns: 20_000 },
    );
  });
});
