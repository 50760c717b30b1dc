// The import's CSV reader against csv-parse (the reference it replaced) on generated files cut into
// random chunks, and its own errors and line numbers.
import { parse } from "csv-parse/sync";
import { describe, expect, it } from "vitest";
import { CsvFormatError, CsvRecordReader } from "./csv-records";

function read(text: string, chunks: number[] = [], max?: number) {
  const records: { fields: string[]; line: number }[] = [];
  const reader = new CsvRecordReader((fields, line) => records.push({ fields, line }), max);
  let at = 0;
  for (const size of chunks) {
    reader.push(text.slice(at, at + size));
    at += size;
  }
  reader.push(text.slice(at));
  reader.end();
  return records;
}

/** A small deterministic generator (mulberry32). */
function random(seed: number) {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const PIECES = ["a", "Priya", " ", "₹1,200", "x\ny", 'say "hi"', "", "é", "\r\n", "日本", ",", "5'10\"", "\r"];

function field(rnd: () => number): string {
  let s = "";
  const parts = Math.floor(rnd() * 3);
  for (let i = 0; i < parts; i++) s += PIECES[Math.floor(rnd() * PIECES.length)];
  return s;
}

/** Quotes a field when it must be (or at random), as spreadsheet exports do. */
function quote(value: string, rnd: () => number): string {
  return /[",\r\n]/.test(value) || rnd() < 0.2 ? `"${value.replace(/"/g, '""')}"` : value;
}

describe("CsvRecordReader", () => {
  it("reads what csv-parse reads, whatever the line endings and however the text is cut", () => {
    for (let seed = 1; seed <= 400; seed++) {
      const rnd = random(seed);
      const eol = ["\n", "\r\n", "\r"][seed % 3];
      const rows: string[][] = [];
      const count = 1 + Math.floor(rnd() * 12);
      for (let r = 0; r < count; r++) {
        const width = 1 + Math.floor(rnd() * 5);
        // No record of one empty field: csv-parse and this reader both skip those as empty lines.
        const row = Array.from({ length: width }, () => field(rnd));
        if (row.length === 1 && row[0] === "") row[0] = "z";
        // A bare-\r file cannot hold a bare \r in an unquoted field either: quote() sees to it.
        rows.push(row);
      }
      let text =
        (seed % 5 === 0 ? "\uFEFF" : "") + rows.map((row) => row.map((v) => quote(v, rnd)).join(",")).join(eol);
      if (rnd() < 0.6) text += eol;
      const expected = parse(text, {
        bom: true,
        relax_column_count: true,
        skip_empty_lines: true,
        record_delimiter: eol,
      }) as string[][];
      const chunks = Array.from({ length: Math.floor(rnd() * 6) }, () => Math.floor(rnd() * 20));
      expect(
        read(text, chunks).map((r) => r.fields),
        `seed ${seed}`,
      ).toEqual(expected);
    }
  });

  it("gives each record the line it starts on, counting empty lines and quoted line breaks", () => {
    const text = 'h1,h2\n\na,b\n"two\nlines",c\r\nd,"e"\n\n"x""y",\n';
    expect(read(text, [3, 7, 1, 9])).toEqual([
      { fields: ["h1", "h2"], line: 1 },
      { fields: ["a", "b"], line: 3 },
      { fields: ["two\nlines", "c"], line: 4 },
      { fields: ["d", "e"], line: 6 },
      { fields: ['x"y', ""], line: 8 },
    ]);
  });

  it("keeps a quote inside an unquoted field as text", () => {
    expect(read("name,height\nRavi,5'10\"\n").map((r) => r.fields)).toEqual([
      ["name", "height"],
      ["Ravi", "5'10\""],
    ]);
  });

  it("refuses an unclosed quote, text after a closing quote and an overlong record, naming the line", () => {
    const error = (text: string, max?: number) => {
      try {
        read(text, [], max);
      } catch (e) {
        expect(e).toBeInstanceOf(CsvFormatError);
        return (e as CsvFormatError).message;
      }
      throw new Error("no error");
    };
    expect(error('a,b\nc,"open\nstill\n')).toBe(
      "A quoted field is never closed: the quote on line 2 has no closing quote.",
    );
    expect(error('a,b\n"x"y,z\n')).toBe(
      'Line 2 has text after a closing quote ("y,z\\n"): a quote inside a quoted field must be doubled ("").',
    );
    expect(error("a,b\nccccccccccc,d\n", 10)).toBe(
      "The row on line 2 is longer than 10 characters: is a quote left open?",
    );
    expect(error('a\n"' + "x".repeat(50), 10)).toBe(
      "The row on line 2 is longer than 10 characters: is a quote left open?",
    );
  });

  it("reads a last line without its line break, and nothing from an empty text", () => {
    expect(read("a,b\nc,d").map((r) => r.fields)).toEqual([
      ["a", "b"],
      ["c", "d"],
    ]);
    expect(read("")).toEqual([]);
    expect(read("\uFEFF")).toEqual([]);
  });
});
