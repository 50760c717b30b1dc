// The unit suite's console guard (tests/setup/console.ts, loaded for every test file): what it
// counts against a test, and what expectConsoleError() lets through.
import { createElement } from "react";
import { renderToString } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { expectConsoleError, takeConsoleProblems } from "./console";

describe("the console guard", () => {
  it("counts a console.error the test did not announce", () => {
    console.error("Failed to load %s", "customer 42");
    expect(takeConsoleProblems()).toEqual([
      expect.stringContaining("unexpected console.error: Failed to load customer 42"),
    ]);
  });

  it("counts a React warning (a list without keys)", () => {
    renderToString(
      createElement(
        "ul",
        null,
        ["a", "b"].map((x) => createElement("li", null, x)),
      ),
    );
    expect(takeConsoleProblems()).toEqual([
      expect.stringMatching(/unexpected console\.error: Warning: Each child in a list should have a unique "key" prop/),
    ]);
  });

  it("lets an announced console.error through", () => {
    expectConsoleError(/Health check failed/);
    console.error("Health check failed", new Error("database is locked"));
    expect(takeConsoleProblems()).toEqual([]);
  });

  it("fails a test that announced a console.error which never came", () => {
    expectConsoleError("Health check failed");
    expect(takeConsoleProblems()).toEqual([
      expect.stringContaining("expected a console.error matching /Health check failed/, none came"),
    ]);
  });

  it("leaves other console.warn output alone", () => {
    console.warn("a library's deprecation notice");
    expect(takeConsoleProblems()).toEqual([]);
  });
});
