// The background priority: the calling thread alone is lowered, on a real Linux kernel.
import { readFileSync, readdirSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { BACKGROUND_NICE, runAtBackgroundPriority } from "~/lib/thread-priority.server";

/** A thread's niceness: field 19 of /proc/…/stat, counted after the command's closing parenthesis. */
function niceOf(statFile: string): number {
  const stat = readFileSync(statFile, "utf8");
  return Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[16]);
}

describe("runAtBackgroundPriority", () => {
  it("lowers this thread to the background niceness and leaves the process's other threads alone", () => {
    expect(niceOf("/proc/thread-self/stat")).toBe(0);
    expect(runAtBackgroundPriority()).toBe(true);
    expect(niceOf("/proc/thread-self/stat")).toBe(BACKGROUND_NICE);
    const others = readdirSync("/proc/self/task")
      .map((tid) => niceOf(`/proc/self/task/${tid}/stat`))
      .filter((nice) => nice === 0);
    expect(others.length).toBeGreaterThan(0);
  });
});
