import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { ID_PATTERN, idTime, isId, newId } from "./id";

describe("ids", () => {
  it("are 24 lowercase hex characters", () => {
    for (let i = 0; i < 1000; i += 1) expect(newId()).toMatch(/^[0-9a-f]{24}$/);
  });

  it("are unique and sort in creation order within one process", () => {
    const ids = Array.from({ length: 5000 }, () => newId());
    expect(new Set(ids).size).toBe(ids.length);
    expect([...ids].sort()).toEqual(ids.slice().sort());
    const earlier = newId(new Date("2020-01-01T00:00:00Z"));
    const later = newId(new Date("2030-01-01T00:00:00Z"));
    expect(earlier < later).toBe(true);
  });

  it("ids made later sort after ids made earlier, for any two times", () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 2 ** 31 }), fc.integer({ min: 1, max: 2 ** 20 }), (seconds, gap) => {
        const a = newId(new Date(seconds * 1000));
        const b = newId(new Date((seconds + gap) * 1000));
        return a < b;
      }),
    );
  });

  it("carry their creation second", () => {
    const at = new Date("2026-11-22T04:52:43.999Z");
    expect(idTime(newId(at)).toISOString()).toBe("2026-11-22T04:52:43.000Z");
  });

  it("isId accepts only the format", () => {
    expect(isId(newId())).toBe(true);
    expect(ID_PATTERN.test("507f1f77bcf86cd799439011")).toBe(true);
    for (const bad of [
      "",
      "507F1F77BCF86CD799439011",
      "507f1f77bcf86cd79943901",
      "507f1f77bcf86cd7994390111",
      "zzzzzzzzzzzzzzzzzzzzzzzz",
      42,
      null,
      undefined,
    ]) {
      expect(isId(bad)).toBe(false);
    }
  });
});
