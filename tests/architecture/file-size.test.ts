// A file does one job (docs/architecture.md#a-file-does-one-job): no source file in app/, tests
// beside the code included, runs past MAX_LINES. A file that grows past it holds more than one job
// and is split by job (a domain's own folder, a component per card, a module per kind of rule),
// never by cutting a function in two.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = path.resolve(__dirname, "../..");
const MAX_LINES = 500;
/** Written by a tool, not by hand. */
const GENERATED = "app/generated/";

function sourceFiles(dir: string): string[] {
  return readdirSync(path.join(ROOT, dir), { withFileTypes: true }).flatMap((entry) => {
    const relative = path.posix.join(dir, entry.name);
    if (entry.isDirectory()) return relative.startsWith(GENERATED) ? [] : sourceFiles(relative);
    return /\.(ts|tsx)$/.test(entry.name) ? [relative] : [];
  });
}

const lineCount = (file: string) => readFileSync(path.join(ROOT, file), "utf8").replace(/\n$/, "").split("\n").length;

describe("a file does one job", () => {
  it(`keeps every source file of app/ within ${MAX_LINES} lines`, () => {
    const files = sourceFiles("app");
    expect(files.length).toBeGreaterThan(100);
    const long = files.map((file) => ({ file, lines: lineCount(file) })).filter((f) => f.lines > MAX_LINES);
    expect(long).toEqual([]);
  });
});
