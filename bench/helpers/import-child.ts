// Runs one CSV import in its own process for the customers bench section, so the peak RSS it
// reports is the import's own. Usage: tsx bench/helpers/import-child.ts FILE USER_ID (DATABASE_URL set).
import { createReadStream } from "node:fs";
import { importCustomers } from "../../app/services/customer-import.server.ts";

const [file, userId] = process.argv.slice(2);
let peak = process.memoryUsage().rss;
const timer = setInterval(() => {
  peak = Math.max(peak, process.memoryUsage().rss);
}, 50);
const baseline = process.memoryUsage().rss;
// As `crm import customers` runs it (a process of its own, 5-second transactions, a large file
// saved in one transaction with the segment indexes built at the end).
const result = await importCustomers(userId, createReadStream(file, { highWaterMark: 1 << 20 }), {
  batchMs: 5000,
  deferIndexes: true,
});
clearInterval(timer);
peak = Math.max(peak, process.memoryUsage().rss, process.resourceUsage().maxRSS * 1024);
process.stdout.write(
  `${JSON.stringify({ rows: result.rows, created: result.created, failed: result.failed, durationMs: result.durationMs, peakRssBytes: peak, startRssBytes: baseline })}\n`,
);
process.exit(0);
