// The data has one door (docs/architecture.md#data-access): SQL text lives in app/models/ and
// app/db/ only. ESLint keeps the drivers and the Prisma client there (eslint.config.js); this test
// keeps the SQL there, which no import rule can see.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = path.resolve(__dirname, "../..");
const SOURCES = ["app", "server", "jobs", "cli"];
const DOORS = ["app/models/", "app/db/", "app/generated/"];

// A statement as the code writes one: the keyword and the word that must follow it.
const SQL =
  /\b(SELECT\b[^`"']*\bFROM\s+["\w]|INSERT\s+(OR\s+\w+\s+)?INTO\s|UPDATE\s+"\w+"\s+SET\b|DELETE\s+FROM\s|CREATE\s+(UNIQUE\s+)?(TABLE|INDEX)\b|PRAGMA\s+\w+)/;

function sourceFiles(dir: string): string[] {
  return readdirSync(path.join(ROOT, dir), { withFileTypes: true }).flatMap((entry) => {
    const relative = path.posix.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(relative);
    return /\.(ts|tsx)$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [relative] : [];
  });
}

describe("one door to the data", () => {
  it("finds SQL nowhere but in app/models/ and app/db/", () => {
    const files = SOURCES.flatMap(sourceFiles).filter((file) => !DOORS.some((door) => file.startsWith(door)));
    expect(files.length).toBeGreaterThan(50);
    const offenders = files.flatMap((file) =>
      readFileSync(path.join(ROOT, file), "utf8")
        .split("\n")
        .flatMap((line, i) =>
          SQL.test(line) && !/^\s*(\/\/|\*)/.test(line) ? [`${file}:${i + 1}: ${line.trim()}`] : [],
        ),
    );
    expect(offenders).toEqual([]);
  });

  it("finds the SQL it looks for where it is allowed", () => {
    const modelFiles = sourceFiles("app/models");
    expect(modelFiles.some((file) => SQL.test(readFileSync(path.join(ROOT, file), "utf8")))).toBe(true);
  });
});
