// What is on record of a campaign's deliveries (app/models/deliveries/history/): its log a page at
// a time, its clicks by link, and rows written again or in bulk outside a send (a seeded history,
// a replay). The row types and what is the same on both engines.
import type { DeliveryStatus } from "~/lib/campaigns";

/** One row of the log as the page shows it. */
export type LogRow = {
  seq: number;
  customerId: string;
  name: string;
  email: string;
  phone: string;
  status: DeliveryStatus;
  details: string;
  updatedAt: number;
  nextAttemptAt: number;
  openedAt: number | null;
  clickedAt: number | null;
};

export const LOG_COLUMNS = `"seq", "customerId", "name", "email", "phone", "status", "details", "updatedAt", "nextAttemptAt", "openedAt", "clickedAt"`;

/** One link's clicks: by people (every click, and each recipient once) and by machines. */
export type LinkClicksRow = { link: number; clicks: number; uniqueClicks: number; machineClicks: number };

/** A segment a seeded campaign can be sent to. */
export type HistorySegment = { id: string; name: string; conditions: string };

/** The shares of a seeded campaign's rows, from a hash of each row (of 100). */
export type SeededShares = { deliveredBelow: number; failedBelow: number; openedBelow: number };

/** The rows a replay puts back in the queue: those of one status. */
export type ReplayStatus = "failed" | "bounced" | "sent";

/** The campaign's counter of the rows of a status a replay puts back in the queue. */
export const REPLAYED_COUNTER = { failed: "failedCount", bounced: "bouncedCount", sent: "sentCount" } as const;
