// Background threads (campaign delivery, launches, CSV imports and exports, dashboard snapshots)
// run at a lower CPU priority than the threads that answer requests. On a small machine they all
// want the same cores; with the kernel told which work can wait, a page or an API call is not
// held up behind a million-message campaign, which still gets every cycle the requests leave.
import { readlinkSync } from "node:fs";
import os from "node:os";

/** The niceness of a background thread (0 is the requests' own; 19 the lowest). */
export const BACKGROUND_NICE = 10;

/**
 * Lowers the calling thread's priority to BACKGROUND_NICE. Linux lets setpriority() take a thread
 * id and then changes that thread alone (/proc/thread-self names it); elsewhere nothing changes.
 * Returns whether it did. Threads this one starts later inherit it.
 */
export function runAtBackgroundPriority(): boolean {
  try {
    const tid = Number(readlinkSync("/proc/thread-self").split("/").pop());
    if (!Number.isInteger(tid) || tid <= 0) return false;
    os.setPriority(tid, BACKGROUND_NICE);
    return true;
  } catch {
    return false;
  }
}
