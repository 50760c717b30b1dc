import { describe, expect, it } from "vitest";
import { csvText, importedCell, neutraliseCell } from "~/lib/csv-cells";

describe("CSV formula cells", () => {
  it("puts a quote before text a spreadsheet would run, and nothing else", () => {
    for (const v of ["=1+1", "+91 98450", "-5", "@SUM(A1)", "\tx", "\rx"]) expect(neutraliseCell(v)).toBe(`'${v}`);
    for (const v of ["", "Asha", "1+1", "a=b", "'quoted", " =1", "'"]) expect(neutraliseCell(v)).toBe(v);
  });

  it("reads back exactly what was exported", () => {
    for (const v of ["=1+1", "+91", "-5", "@x", "\tx", "\rx", "'", "'plain", "'=x", "''=x", "Asha"]) {
      expect(importedCell(neutraliseCell(v))).toBe(v);
    }
  });

  it("writes numbers as numbers and text neutralised", () => {
    expect(
      csvText([
        ["a", 1],
        ["=b", -2],
      ]),
    ).toBe("a,1\n'=b,-2\n");
  });
});
