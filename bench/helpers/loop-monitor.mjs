// Preloaded into the server the offthread bench section starts (node --import): the event-loop
// delay of the server's main thread, over exactly the phases the bench marks. On SIGUSR2 it writes
// what it measured since the last signal (monitorEventLoopDelay at 10 ms less those 10 ms, how late
// the loop ran, as /healthz reports it; ms) to
// BENCH_LOOP_MONITOR_FILE and starts again. Worker threads load preloads too: only the main thread,
// the one that answers requests, is watched.
import { renameSync, writeFileSync } from "node:fs";
import { monitorEventLoopDelay } from "node:perf_hooks";
import { isMainThread } from "node:worker_threads";

// "{pid}" in the name gives each process of a cluster a file of its own (bench/helpers/loop-marks.ts).
const out = process.env.BENCH_LOOP_MONITOR_FILE?.replace("{pid}", String(process.pid));
if (isMainThread && out) {
  const histogram = monitorEventLoopDelay({ resolution: 10 });
  histogram.enable();
  const ms = (ns) => Math.max(0, Math.round(ns / 1e4) / 100 - 10);
  process.on("SIGUSR2", () => {
    // Written aside and renamed: the bench never reads a file half written.
    writeFileSync(
      `${out}.tmp`,
      JSON.stringify({
        at: Date.now(),
        samples: histogram.count,
        p50: ms(histogram.percentile(50)),
        p99: ms(histogram.percentile(99)),
        max: ms(histogram.max),
      }),
    );
    renameSync(`${out}.tmp`, out);
    histogram.reset();
  });
}
