// Vitest setup (vite.config.ts, test.setupFiles): a test fails when it writes to console.error, or
// when React logs one of its warnings, unless the test said it expects that output with
// expectConsoleError(). Such output means something went wrong that no assertion looked at: a
// swallowed exception, a failed update, a key or act() warning.
import { afterEach, beforeEach, vi } from "vitest";
import { format } from "node:util";

type Expected = { match: RegExp; seen: number };

let unexpected: string[] = [];
let expected: Expected[] = [];

/**
 * Declares that the current test is meant to make console.error print something matching `match`
 * (a substring or a pattern, checked against the formatted message). The test fails if it never does.
 */
export function expectConsoleError(match: string | RegExp) {
  expected.push({ match: typeof match === "string" ? new RegExp(escape(match)) : match, seen: 0 });
}

/** What would fail the current test so far; clears it (for the setup's own tests). */
export function takeConsoleProblems(): string[] {
  const problems = [
    ...unexpected.map((m) => `unexpected ${m}`),
    ...expected.filter((e) => e.seen === 0).map((e) => `expected a console.error matching ${e.match}, none came`),
  ];
  unexpected = [];
  expected = [];
  return problems;
}

function escape(text: string) {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

function record(method: "error" | "warn", original: (...args: unknown[]) => void) {
  return (...args: unknown[]) => {
    const message = format(...args);
    // React 18 prefixes its development warnings with "Warning:"; other console.warn output is
    // a library's business and stays allowed.
    if (method === "warn" && !message.startsWith("Warning:")) return original(...args);
    const allowed = expected.find((e) => e.match.test(message));
    if (allowed) {
      allowed.seen += 1;
      return;
    }
    unexpected.push(`console.${method}: ${message}`);
    original(...args);
  };
}

beforeEach(() => {
  unexpected = [];
  expected = [];
  // The originals, taken before the spies replace them, so the output still shows.
  const error = console.error.bind(console);
  const warn = console.warn.bind(console);
  vi.spyOn(console, "error").mockImplementation(record("error", error));
  vi.spyOn(console, "warn").mockImplementation(record("warn", warn));
});

afterEach(() => {
  // A test that restored all mocks itself already put the originals back.
  if (vi.isMockFunction(console.error)) vi.mocked(console.error).mockRestore();
  if (vi.isMockFunction(console.warn)) vi.mocked(console.warn).mockRestore();
  const problems = takeConsoleProblems();
  if (problems.length) {
    throw new Error(
      `${problems.join("\n")}\n(If the test means to cause it, call expectConsoleError() from tests/setup/console.ts.)`,
    );
  }
});
