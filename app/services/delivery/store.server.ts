// The delivery table's writes: the launch snapshot, the outcomes of a sent batch, receipts, the
// campaign controls and completion. Every function takes a better-sqlite3 connection (the server's
// writer, the delivery job's own connection in its worker thread, or a test's) and runs as one
// transaction, changing the campaign's counters together with its rows, so the counters always
// add up to the audience.
import { openSqlite, type Sqlite } from "~/db/sqlite.server";
import { ApiError } from "~/lib/api.server";
import { parseDeliveryId } from "~/lib/campaigns";
import type { CompiledWhere } from "~/services/segment-sql.server";

import { CAMPAIGN_COLUMNS, type CampaignRow } from "~/models/campaigns.server";

export { CAMPAIGN_COLUMNS, type CampaignRow };

export type NewCampaign = {
  id: string;
  userId: string;
  segmentId: string | null;
  segmentName: string;
  name: string;
  subject: string;
  description: string;
  message: string;
};

/**
 * Writes a draft: no delivery rows yet; audienceSize is the count when it was saved. A launch writes
 * its campaign as a draft too, with the LAUNCHING detail, until its audience is written.
 */
export function insertDraft(
  sqlite: Sqlite,
  c: NewCampaign,
  audienceSize: number,
  now = Date.now(),
  statusDetail = "",
): void {
  sqlite
    .prepare(
      `INSERT INTO "Campaign" ("id", "userId", "segmentId", "segmentName", "name", "subject", "description", "message", "status",
         "statusDetail", "audienceSize", "createdAt", "updatedAt")
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, 'Draft', ?, ?, ?, ?)`,
    )
    .run(
      c.id,
      c.userId,
      c.segmentId,
      c.segmentName,
      c.name,
      c.subject,
      c.description,
      c.message,
      statusDetail,
      audienceSize,
      now,
      now,
    );
}

/** Replaces a draft's content (only while it is a draft). Returns false when there was no such draft. */
export function updateDraft(sqlite: Sqlite, c: NewCampaign, audienceSize: number, now = Date.now()): boolean {
  const result = sqlite
    .prepare(
      `UPDATE "Campaign" SET "segmentId" = ?, "segmentName" = ?, "name" = ?, "subject" = ?, "description" = ?, "message" = ?,
         "audienceSize" = ?, "updatedAt" = ?
       WHERE "id" = ? AND "userId" = ? AND "status" = 'Draft' AND "statusDetail" != ?`,
    )
    .run(
      c.segmentId,
      c.segmentName,
      c.name,
      c.subject,
      c.description,
      c.message,
      audienceSize,
      now,
      c.id,
      c.userId,
      LAUNCHING,
    );
  return result.changes === 1;
}

/** The status detail of a draft whose audience is being written (see startLaunch). */
export const LAUNCHING = "Launching: writing the audience";
/** The 409 of a launch of a campaign another launch has taken (docs/rules.md#one-launch-one-send). */
export const LAUNCH_IN_PROGRESS = "This campaign is being launched already.";
export const LAUNCH_INTERRUPTED = "The launch was interrupted before its audience was written. Launch it again.";
/** Delivery rows written a transaction: a few milliseconds of the write lock at a time. */
export const LAUNCH_SLICE = 5_000;
/** A launch's connection checkpoints every this many pages of log (SQLite's default: 1,000). */
const LAUNCH_CHECKPOINT_PAGES = 10_000;
const LAUNCH_CACHE_KIB = 8 * 1024;

/**
 * The connection a launch writes on (the server's worker thread, and the bench that measures it).
 * A small page cache: the launch reads customers and appends deliveries in rowid order, and the
 * default 64 MB would fill and stay resident. Checkpoints every LAUNCH_CHECKPOINT_PAGES: each one
 * syncs the files, and at SQLite's 1,000 pages a million-row launch ran about 200 of them.
 */
export function openLaunchConnection(file: string): Sqlite {
  const sqlite = openSqlite(file);
  sqlite.pragma(`cache_size = -${LAUNCH_CACHE_KIB}`);
  sqlite.pragma(`wal_autocheckpoint = ${LAUNCH_CHECKPOINT_PAGES}`);
  return sqlite;
}

export type Launch = {
  /** Writes the next slice of the audience; false when there is nothing left to write. */
  step(): boolean;
  /** Makes the campaign Active with its audience; returns the audience size (0: nothing to send, nothing kept). */
  finish(): number;
};

/**
 * Launches a campaign: one pending delivery row per customer the segment's WHERE matches, written
 * by INSERT … SELECT (no customer passes through JavaScript) in slices of `slice` rows in customer
 * rowid order, each its own short transaction, so a million-row audience never holds the write
 * lock for seconds. The server drives it in a worker thread (launchCampaignOffThread in
 * app/services/offthread.server.ts), so no request waits for the event loop meanwhile.
 *
 * While the slices are written the campaign stays a Draft marked LAUNCHING, which the delivery job
 * does not send; finish() makes it Active in one step. Its delivery rows get a range of seq numbers
 * reserved up front (as many as the tenant has customers), so a campaign's rows stay contiguous
 * even when two launches run at once, and its log pages by seq. A launch cut off by a crash leaves
 * a LAUNCHING draft that recoverInterruptedLaunches() clears.
 */
export function startLaunch(
  sqlite: Sqlite,
  c: NewCampaign,
  where: CompiledWhere,
  options: { now?: number; slice?: number } = {},
): Launch {
  const now = options.now ?? Date.now();
  const slice = options.slice ?? LAUNCH_SLICE;
  let existed = false;
  const { base, room } = sqlite
    .transaction(() => {
      const existing = sqlite
        .prepare(`SELECT "status", "statusDetail" FROM "Campaign" WHERE "id" = ? AND "userId" = ?`)
        .get(c.id, c.userId) as { status: string; statusDetail: string } | undefined;
      // Two launches of one draft at once: the second is refused (409), never a second send.
      if (existing && (existing.status !== "Draft" || existing.statusDetail === LAUNCHING))
        throw new ApiError("conflict", LAUNCH_IN_PROGRESS);
      existed = Boolean(existing);
      if (existing) {
        sqlite
          .prepare(
            `UPDATE "Campaign" SET "segmentId" = ?, "segmentName" = ?, "name" = ?, "subject" = ?, "description" = ?, "message" = ?,
               "statusDetail" = ?, "updatedAt" = ? WHERE "id" = ?`,
          )
          .run(c.segmentId, c.segmentName, c.name, c.subject, c.description, c.message, LAUNCHING, now, c.id);
      } else insertDraft(sqlite, c, 0, now, LAUNCHING);
      // The tally kept by triggers; counted when a tenant has none.
      const tally = sqlite.prepare(`SELECT "customers" FROM "CustomerTally" WHERE "userId" = ?`).pluck().get(c.userId);
      const customers = Number(
        tally ?? sqlite.prepare(`SELECT count(*) FROM "Customer" WHERE "userId" = ?`).pluck().get(c.userId),
      );
      const from = Number(
        sqlite
          .prepare(
            `SELECT max(coalesce((SELECT max("seq") FROM "Delivery"), 0), coalesce((SELECT max("lastSeq") FROM "Campaign"), 0))`,
          )
          .pluck()
          .get(),
      );
      sqlite
        .prepare(`UPDATE "Campaign" SET "firstSeq" = ?, "lastSeq" = ? WHERE "id" = ?`)
        .run(from + 1, from + Math.max(1, customers), c.id);
      return { base: from, room: Math.max(1, customers) };
    })
    .immediate();

  // Rows go in customer rowid order and seq follows it, so the primary key and both indexes are
  // appended to rather than written at random places. The inner query takes the slice first, so
  // each slice reads about as many customers as it writes. No row comes back to JavaScript: the
  // slice's last row (the highest seq, so the highest customer rowid) says where the next begins.
  // (Returning every row built a million objects per million recipients: a fifth of the launch.)
  const insert = sqlite.prepare(
    `INSERT INTO "Delivery" ("seq", "campaignId", "userId", "customerId", "name", "email", "phone", "status", "nextAttemptAt", "updatedAt")
     SELECT ? + row_number() OVER (ORDER BY "r"), ?, "userId", "id", trim("firstName" || ' ' || "lastName"), "email", "phone",
       'pending', ?, ?
     FROM (SELECT "rowid" AS "r", "userId", "id", "firstName", "lastName", "email", "phone" FROM "Customer"
           WHERE "rowid" > ? AND (${where.sql}) ORDER BY "rowid" LIMIT ?)`,
  );
  const rowidAtSeq = sqlite
    .prepare(
      `SELECT "c"."rowid" FROM "Delivery" "d" JOIN "Customer" "c" ON "c"."id" = "d"."customerId" WHERE "d"."seq" = ?`,
    )
    .pluck();
  const heartbeat = sqlite.prepare(`UPDATE "Campaign" SET "updatedAt" = ? WHERE "id" = ?`);
  let after = 0;
  let written = 0;
  let done = false;
  const writeSlice = sqlite.transaction(() => {
    const limit = Math.min(slice, room - written);
    if (limit <= 0) return 0;
    const { changes } = insert.run(base + written, c.id, now, now, after, ...where.params, limit);
    if (changes === 0) return 0;
    after = Number(rowidAtSeq.get(base + written + changes));
    heartbeat.run(Date.now(), c.id);
    return changes;
  });

  return {
    step() {
      if (done) return false;
      const n = writeSlice.immediate();
      written += n;
      if (n === 0) done = true;
      return !done;
    },
    finish() {
      while (this.step());
      return sqlite
        .transaction(() => {
          if (written === 0) {
            if (existed)
              sqlite
                .prepare(`UPDATE "Campaign" SET "statusDetail" = '', "firstSeq" = 0, "lastSeq" = 0 WHERE "id" = ?`)
                .run(c.id);
            else sqlite.prepare(`DELETE FROM "Campaign" WHERE "id" = ?`).run(c.id);
            return 0;
          }
          sqlite
            .prepare(
              `UPDATE "Campaign" SET "status" = 'Active', "statusDetail" = '', "launchedAt" = ?, "updatedAt" = ?,
                 "audienceSize" = ?, "pendingCount" = ?, "lastSeq" = ? WHERE "id" = ?`,
            )
            .run(now, now, written, written, base + written, c.id);
          return written;
        })
        .immediate();
    },
  };
}

/** A whole launch at once (the seed, the CLI and tests); the server uses launchCampaignOffThread. */
export function launchCampaign(sqlite: Sqlite, c: NewCampaign, where: CompiledWhere, now = Date.now()): number {
  return startLaunch(sqlite, c, where, { now }).finish();
}

/**
 * Clears launches cut off by a crash: drafts still marked LAUNCHING whose last slice is older than
 * `staleMs` lose their partial audience and say that the launch was interrupted. Returns how many.
 */
export function recoverInterruptedLaunches(sqlite: Sqlite, staleMs = 60_000, now = Date.now()): number {
  const stale = sqlite
    .prepare(`SELECT "id" FROM "Campaign" WHERE "status" = 'Draft' AND "statusDetail" = ? AND "updatedAt" < ?`)
    .pluck()
    .all(LAUNCHING, now - staleMs) as string[];
  const slice = sqlite.prepare(
    `DELETE FROM "Delivery" WHERE "seq" IN (SELECT "seq" FROM "Delivery" WHERE "campaignId" = ? LIMIT ${LAUNCH_SLICE})`,
  );
  for (const id of stale) {
    while (slice.run(id).changes > 0);
    sqlite
      .prepare(
        `UPDATE "Campaign" SET "statusDetail" = ?, "firstSeq" = 0, "lastSeq" = 0, "updatedAt" = ? WHERE "id" = ?`,
      )
      .run(LAUNCH_INTERRUPTED, now, id);
  }
  return stale.length;
}

export type SendOutcome =
  /** Accepted by a channel that sends receipts later: the row waits for one as sent. */
  | { seq: number; attempts: number; outcome: "sent"; details: string }
  /** Accepted by a channel without receipts (an SMTP relay): that acceptance is the delivery. */
  | { seq: number; attempts: number; outcome: "delivered"; details: string }
  | { seq: number; attempts: number; outcome: "failed" | "bounced"; details: string; error: boolean }
  | { seq: number; attempts: number; outcome: "retry"; details: string; retryAt: number; error: boolean }
  /** Never handed to the channel (the campaign was paused or cancelled): back in the queue, the attempt not spent. */
  | { seq: number; attempts: number; outcome: "held" };

/**
 * Records what the channel said about claimed rows of one campaign. A row is changed only while
 * it is still pending with the attempt number of this claim (its lease token); an outcome for a row
 * whose lease ran out and was claimed again, or that a receipt already moved on, changes nothing.
 * Outcomes marked `error` count toward the campaign's error cap.
 */
export function recordOutcomes(
  sqlite: Sqlite,
  campaignId: string,
  outcomes: readonly SendOutcome[],
  now = Date.now(),
): void {
  const finish = sqlite.prepare(
    `UPDATE "Delivery" SET "status" = ?, "details" = ?, "updatedAt" = ?, "nextAttemptAt" = 0
     WHERE "seq" = ? AND "status" = 'pending' AND "attempts" = ?`,
  );
  const retry = sqlite.prepare(
    `UPDATE "Delivery" SET "nextAttemptAt" = ?, "details" = ?, "updatedAt" = ?
     WHERE "seq" = ? AND "status" = 'pending' AND "attempts" = ?`,
  );
  const release = sqlite.prepare(
    `UPDATE "Delivery" SET "nextAttemptAt" = ?, "attempts" = "attempts" - 1
     WHERE "seq" = ? AND "status" = 'pending' AND "attempts" = ?`,
  );
  const counters = sqlite.prepare(
    `UPDATE "Campaign" SET "pendingCount" = "pendingCount" - ?, "sentCount" = "sentCount" + ?, "deliveredCount" = "deliveredCount" + ?,
       "failedCount" = "failedCount" + ?, "bouncedCount" = "bouncedCount" + ?, "sendErrors" = "sendErrors" + ?, "updatedAt" = ?
     WHERE "id" = ?`,
  );
  sqlite
    .transaction(() => {
      let sent = 0;
      let delivered = 0;
      let failed = 0;
      let bounced = 0;
      let errors = 0;
      for (const o of outcomes) {
        if (o.outcome === "held") {
          release.run(now, o.seq, o.attempts);
          continue;
        }
        if (o.outcome === "retry") {
          if (retry.run(o.retryAt, o.details, now, o.seq, o.attempts).changes && o.error) errors += 1;
          continue;
        }
        if (!finish.run(o.outcome, o.details, now, o.seq, o.attempts).changes) continue;
        if (o.outcome === "sent") sent += 1;
        else if (o.outcome === "delivered") delivered += 1;
        else {
          if (o.outcome === "failed") failed += 1;
          else bounced += 1;
          if (o.error) errors += 1;
        }
      }
      counters.run(sent + delivered + failed + bounced, sent, delivered, failed, bounced, errors, now, campaignId);
    })
    .immediate();
}

/** What a cancel writes in the details of the rows it ends. */
export const CANCELLED_DETAILS = "Not sent: the campaign was cancelled";

/**
 * Ends the queued rows of cancelled campaigns as "cancelled", up to `slice` rows a transaction and
 * a call. Rows out with the channel (their lease not yet run out) are left to come back first: a
 * message that was handed over keeps what the channel said. Returns how many rows it ended.
 */
export function endCancelledRows(sqlite: Sqlite, now = Date.now(), slice = LAUNCH_SLICE): number {
  const campaigns = sqlite
    .prepare(`SELECT "id" FROM "Campaign" WHERE "status" = 'Cancelled' AND "pendingCount" > 0`)
    .pluck()
    .all() as string[];
  const end = sqlite.prepare(
    `UPDATE "Delivery" SET "status" = 'cancelled', "details" = ?, "updatedAt" = ?, "nextAttemptAt" = 0
     WHERE "seq" IN (
       SELECT "seq" FROM "Delivery" WHERE "campaignId" = ? AND "status" = 'pending' AND "nextAttemptAt" <= ? LIMIT ${slice}
     )`,
  );
  const counters = sqlite.prepare(
    `UPDATE "Campaign" SET "pendingCount" = "pendingCount" - ?, "cancelledCount" = "cancelledCount" + ?, "updatedAt" = ? WHERE "id" = ?`,
  );
  const one = sqlite.transaction((campaignId: string) => {
    const n = end.run(CANCELLED_DETAILS, now, campaignId, now).changes;
    if (n > 0) counters.run(n, n, now, campaignId);
    return n;
  });
  let total = 0;
  for (const id of campaigns) total += one.immediate(id);
  return total;
}

/** Whether a claimed row is still this claim's: pending, with its attempt number, its lease running past `until`. */
export function claimStillHeld(sqlite: Sqlite): (seq: number, attempts: number, until: number) => boolean {
  const read = sqlite
    .prepare(
      `SELECT 1 FROM "Delivery" WHERE "seq" = ? AND "status" = 'pending' AND "attempts" = ? AND "nextAttemptAt" > ?`,
    )
    .pluck();
  return (seq, attempts, until) => read.get(seq, attempts, until) !== undefined;
}

/** The campaign's status now: asked before each message is handed to a channel. */
export function campaignStatusOf(sqlite: Sqlite): (campaignId: string) => string | null {
  const read = sqlite.prepare(`SELECT "status" FROM "Campaign" WHERE "id" = ?`).pluck();
  return (campaignId) => (read.get(campaignId) as string | undefined) ?? null;
}

export const RECEIPT_EVENTS = ["delivered", "failed", "bounced", "opened", "clicked"] as const;
export type ReceiptEvent = (typeof RECEIPT_EVENTS)[number];
export type Receipt = { id: string; event: ReceiptEvent; at: number; details?: string };

type RowState = {
  seq: number;
  campaignId: string;
  retries: number;
  status: string;
  details: string;
  updatedAt: number;
  openedAt: number | null;
  clickedAt: number | null;
  changed: boolean;
};

type CounterDelta = {
  pending: number;
  sent: number;
  delivered: number;
  failed: number;
  bounced: number;
  opened: number;
  clicked: number;
};
const STATE_COUNTER: Record<string, keyof CounterDelta | undefined> = {
  pending: "pending",
  sent: "sent",
  delivered: "delivered",
  failed: "failed",
  bounced: "bounced",
};

/**
 * Applies receipts in one transaction. Idempotent and monotonic: a row moves from pending or sent
 * to delivered, failed or bounced once; opened and clicked only add to a delivered row (and deliver
 * it if its receipt has not come yet); nothing moves a row back, so a late "opened" never undoes a
 * "clicked" and a repeated receipt changes nothing. Receipts for ids that are not delivery rows are
 * counted as ignored.
 */
export function applyReceipts(sqlite: Sqlite, receipts: readonly Receipt[]): { applied: number; ignored: number } {
  const read = sqlite.prepare(
    `SELECT "seq", "campaignId", "retries", "status", "details", "updatedAt", "openedAt", "clickedAt" FROM "Delivery" WHERE "seq" = ?`,
  );
  const write = sqlite.prepare(
    `UPDATE "Delivery" SET "status" = ?, "details" = ?, "updatedAt" = ?, "openedAt" = ?, "clickedAt" = ? WHERE "seq" = ?`,
  );
  const counters = sqlite.prepare(
    `UPDATE "Campaign" SET "pendingCount" = "pendingCount" + ?, "sentCount" = "sentCount" + ?, "deliveredCount" = "deliveredCount" + ?,
       "failedCount" = "failedCount" + ?, "bouncedCount" = "bouncedCount" + ?, "openedCount" = "openedCount" + ?,
       "clickedCount" = "clickedCount" + ?, "updatedAt" = max("updatedAt", ?)
     WHERE "id" = ?`,
  );
  return sqlite
    .transaction(() => {
      const rows = new Map<number, RowState | null>();
      const deltas = new Map<string, CounterDelta>();
      const delta = (campaignId: string) => {
        let d = deltas.get(campaignId);
        if (!d)
          deltas.set(
            campaignId,
            (d = { pending: 0, sent: 0, delivered: 0, failed: 0, bounced: 0, opened: 0, clicked: 0 }),
          );
        return d;
      };
      const move = (row: RowState, to: "delivered" | "failed" | "bounced", at: number, details: string | undefined) => {
        const d = delta(row.campaignId);
        const from = STATE_COUNTER[row.status];
        if (from) d[from] -= 1;
        d[to] += 1;
        row.status = to;
        if (details !== undefined) row.details = details;
        row.updatedAt = at;
        row.changed = true;
      };
      let applied = 0;
      let ignored = 0;
      let latest = 0;
      for (const r of receipts) {
        const id = parseDeliveryId(r.id);
        if (!id) {
          ignored += 1;
          continue;
        }
        let row = rows.get(id.seq);
        if (row === undefined) {
          const found = read.get(id.seq) as Omit<RowState, "changed"> | undefined;
          row = found && found.campaignId.startsWith(id.prefix) ? { ...found, changed: false } : null;
          rows.set(id.seq, row);
        }
        // A receipt of an earlier message of a row that was retried since says nothing about it now.
        if (!row || row.retries !== id.retries) {
          ignored += 1;
          continue;
        }
        const open = row.status === "pending" || row.status === "sent";
        let changed = false;
        if (r.event === "delivered" || r.event === "failed" || r.event === "bounced") {
          if (open) {
            // A receipt is about a message the vendor accepted: one it could not deliver
            // afterwards came back, a bounce, so "sent" never counts down (failed is for refusals).
            move(row, r.event === "delivered" ? "delivered" : "bounced", r.at, r.details ?? row.details);
            changed = true;
          }
        } else if (open || row.status === "delivered") {
          if (open) {
            move(row, "delivered", r.at, row.details);
            changed = true;
          }
          const d = delta(row.campaignId);
          if (row.openedAt === null) {
            row.openedAt = r.at;
            d.opened += 1;
            changed = true;
          }
          if (r.event === "clicked" && row.clickedAt === null) {
            row.clickedAt = r.at;
            d.clicked += 1;
            changed = true;
          }
          if (changed) row.changed = true;
        }
        if (changed) {
          applied += 1;
          latest = Math.max(latest, r.at);
        } else ignored += 1;
      }
      for (const row of rows.values()) {
        if (row?.changed) write.run(row.status, row.details, row.updatedAt, row.openedAt, row.clickedAt, row.seq);
      }
      for (const [campaignId, d] of deltas) {
        counters.run(d.pending, d.sent, d.delivered, d.failed, d.bounced, d.opened, d.clicked, latest, campaignId);
      }
      return { applied, ignored };
    })
    .immediate();
}

/** Receipts an inbox row holds at most: the delivery job applies a row in one transaction of about 2 ms. */
export const RECEIPTS_PER_INBOX_ROW = 250;

/**
 * Keeps a checked batch of receipts for the delivery job to apply: one small write (a row per
 * RECEIPTS_PER_INBOX_ROW receipts, in one transaction), so the receipts endpoint answers without
 * reading or changing a delivery row on the request thread, and the job's transactions that apply
 * them stay short.
 */
export function queueReceipts(sqlite: Sqlite, receipts: readonly Receipt[], now = Date.now()): void {
  const insert = sqlite.prepare(`INSERT INTO "ReceiptInbox" ("receipts", "count", "receivedAt") VALUES (?, ?, ?)`);
  sqlite
    .transaction(() => {
      for (let i = 0; i < receipts.length; i += RECEIPTS_PER_INBOX_ROW) {
        const part = receipts.slice(i, i + RECEIPTS_PER_INBOX_ROW);
        insert.run(JSON.stringify(part), part.length, now);
      }
    })
    .immediate();
}

export function queuedReceiptBatches(sqlite: Sqlite): number {
  return Number(sqlite.prepare(`SELECT count(*) FROM "ReceiptInbox"`).pluck().get());
}

/**
 * Applies queued receipt batches, oldest first, each in one transaction with its removal from the
 * inbox (so a crash in between applies it again, which receipts allow: they are idempotent). At
 * most `maxBatches` a call, so the job goes back to sending in between.
 */
export function applyQueuedReceipts(
  sqlite: Sqlite,
  maxBatches = 10,
): { batches: number; applied: number; ignored: number } {
  const oldest = sqlite.prepare(`SELECT "id", "receipts" FROM "ReceiptInbox" ORDER BY "id" LIMIT 1`);
  const remove = sqlite.prepare(`DELETE FROM "ReceiptInbox" WHERE "id" = ?`);
  const one = sqlite.transaction(() => {
    const row = oldest.get() as { id: number; receipts: string } | undefined;
    if (!row) return null;
    remove.run(row.id);
    // Written by queueReceipts from checked receipts; anything else in the table is dropped.
    let receipts: Receipt[] = [];
    try {
      const parsed: unknown = JSON.parse(row.receipts);
      if (Array.isArray(parsed)) receipts = parsed as Receipt[];
    } catch {
      receipts = [];
    }
    return applyReceipts(sqlite, receipts);
  });
  const total = { batches: 0, applied: 0, ignored: 0 };
  while (total.batches < maxBatches) {
    const result = one.immediate();
    if (!result) break;
    total.batches += 1;
    total.applied += result.applied;
    total.ignored += result.ignored;
  }
  return total;
}

/** Campaigns the delivery job should work on now. */
export function sendingCampaigns(
  sqlite: Sqlite,
): { id: string; userId: string; subject: string; message: string; sendErrors: number }[] {
  return sqlite
    .prepare(
      `SELECT "id", "userId", "subject", "message", "sendErrors" FROM "Campaign" WHERE "status" = 'Active' ORDER BY "launchedAt", "id"`,
    )
    .all() as { id: string; userId: string; subject: string; message: string; sendErrors: number }[];
}

/** The earliest time a pending row of an active campaign becomes claimable (null: none left). */
export function nextDueAt(sqlite: Sqlite, campaignId: string): number | null {
  const v = sqlite
    .prepare(`SELECT min("nextAttemptAt") FROM "Delivery" WHERE "campaignId" = ? AND "status" = 'pending'`)
    .pluck()
    .get(campaignId) as number | null;
  return v ?? null;
}

/**
 * Moves an active campaign to Paused (with why), Active again, or Cancelled, when its current
 * status allows it. Returns the status it had, or null when the campaign is not the tenant's.
 */
export function setCampaignStatus(
  sqlite: Sqlite,
  userId: string,
  id: string,
  to: "Active" | "Paused" | "Cancelled",
  from: readonly string[],
  detail = "",
  now = Date.now(),
): { before: string; changed: boolean } | null {
  return sqlite
    .transaction(() => {
      const row = sqlite.prepare(`SELECT "status" FROM "Campaign" WHERE "id" = ? AND "userId" = ?`).get(id, userId) as
        { status: string } | undefined;
      if (!row) return null;
      if (!from.includes(row.status)) return { before: row.status, changed: false };
      sqlite
        .prepare(
          `UPDATE "Campaign" SET "status" = ?, "statusDetail" = ?, "updatedAt" = ?,
             "sendErrors" = CASE WHEN ? = 'Active' THEN 0 ELSE "sendErrors" END WHERE "id" = ?`,
        )
        .run(to, detail, now, to, id);
      if (to === "Active") {
        // Rows waiting for a retry or a lease when the campaign was paused are due again now.
        sqlite
          .prepare(
            `UPDATE "Delivery" SET "nextAttemptAt" = ? WHERE "campaignId" = ? AND "status" = 'pending' AND "nextAttemptAt" > ?`,
          )
          .run(now, id, now);
      }
      return { before: row.status, changed: true };
    })
    .immediate();
}

/**
 * Puts the failed rows of a campaign back in the queue with fresh attempts, each as a new message
 * with a new idempotency key (bounced addresses are not retried: the receiving server said the
 * address does not exist), and makes the campaign active again. Returns how many rows were queued,
 * `{ refused: status }` for a draft or a cancelled campaign (nothing to retry), or null when the
 * campaign is not the tenant's.
 */
export function retryFailed(
  sqlite: Sqlite,
  userId: string,
  id: string,
  now = Date.now(),
): number | { refused: string } | null {
  return sqlite
    .transaction(() => {
      const row = sqlite.prepare(`SELECT "status" FROM "Campaign" WHERE "id" = ? AND "userId" = ?`).get(id, userId) as
        { status: string } | undefined;
      if (!row) return null;
      // Checked in the transaction that queues: a cancel answered a moment before wins.
      if (row.status === "Draft" || row.status === "Cancelled") return { refused: row.status };
      const queued = sqlite
        .prepare(
          `UPDATE "Delivery" SET "status" = 'pending', "attempts" = 0, "retries" = "retries" + 1, "nextAttemptAt" = ?, "details" = '', "updatedAt" = ?
           WHERE "campaignId" = ? AND "status" = 'failed'`,
        )
        .run(now, now, id).changes;
      if (queued > 0) {
        sqlite
          .prepare(
            `UPDATE "Campaign" SET "failedCount" = "failedCount" - ?, "pendingCount" = "pendingCount" + ?, "sendErrors" = 0,
               "status" = CASE WHEN "status" = 'Paused' THEN 'Paused' ELSE 'Active' END, "statusDetail" = '',
               "completedAt" = NULL, "updatedAt" = ?
             WHERE "id" = ?`,
          )
          .run(queued, queued, now, id);
      }
      return queued;
    })
    .immediate();
}

/**
 * Marks active campaigns whose sending is over as Completed and returns them: no pending row left,
 * and either no row still waiting for a receipt or the last change older than `receiptWaitMs`
 * (a channel without receipts, like SMTP, passes 0).
 */
export function completeFinished(sqlite: Sqlite, receiptWaitMs: number, now = Date.now()): CampaignRow[] {
  return sqlite
    .prepare(
      `UPDATE "Campaign" SET "status" = 'Completed', "completedAt" = ?, "statusDetail" = ''
       WHERE "status" = 'Active' AND "pendingCount" = 0 AND ("sentCount" = 0 OR "updatedAt" <= ?)
       RETURNING ${CAMPAIGN_COLUMNS}`,
    )
    .all(now, now - receiptWaitMs) as CampaignRow[];
}

/** Pauses a campaign whose send errors passed the cap; returns it if it was paused now. */
export function pauseOnErrorCap(sqlite: Sqlite, campaignId: string, cap: number, now = Date.now()): CampaignRow | null {
  const row = sqlite
    .prepare(
      `UPDATE "Campaign" SET "status" = 'Paused', "updatedAt" = ?,
         "statusDetail" = 'Paused after ' || "sendErrors" || ' send errors: check the delivery settings, then resume.'
       WHERE "id" = ? AND "status" = 'Active' AND "sendErrors" >= ?
       RETURNING ${CAMPAIGN_COLUMNS}`,
    )
    .get(now, campaignId, cap) as CampaignRow | undefined;
  return row ?? null;
}

/**
 * Puts rows of a campaign back in the queue to be sent again under their own delivery ids (the
 * channel's idempotency keys): the CLI's `crm deliveries replay`. A vendor that already accepted a
 * key answers "duplicate" and sends nothing twice. Returns how many rows were (or, with dryRun,
 * would be) queued.
 */
export function replayDeliveries(
  sqlite: Sqlite,
  campaignId: string,
  status: "failed" | "bounced" | "sent",
  dryRun: boolean,
  now = Date.now(),
): number {
  return sqlite
    .transaction(() => {
      if (dryRun)
        return Number(
          sqlite
            .prepare(`SELECT count(*) FROM "Delivery" WHERE "campaignId" = ? AND "status" = ?`)
            .pluck()
            .get(campaignId, status),
        );
      const queued = sqlite
        .prepare(
          `UPDATE "Delivery" SET "status" = 'pending', "attempts" = 0, "nextAttemptAt" = ?, "details" = 'Replayed', "updatedAt" = ?
           WHERE "campaignId" = ? AND "status" = ?`,
        )
        .run(now, now, campaignId, status).changes;
      if (queued > 0) {
        const column = ({ failed: "failedCount", bounced: "bouncedCount", sent: "sentCount" } as const)[status];
        sqlite
          .prepare(
            `UPDATE "Campaign" SET "${column}" = "${column}" - ?, "pendingCount" = "pendingCount" + ?, "sendErrors" = 0,
               "status" = CASE WHEN "status" IN ('Paused', 'Draft', 'Cancelled') THEN "status" ELSE 'Active' END, "completedAt" = NULL, "updatedAt" = ?
             WHERE "id" = ?`,
          )
          .run(queued, queued, now, campaignId);
      }
      return queued;
    })
    .immediate();
}

/** Sets a campaign's counters from its rows (after rows were written in bulk, as a seed does). */
export function recountCampaign(sqlite: Sqlite, campaignId: string): void {
  sqlite
    .prepare(
      `UPDATE "Campaign" SET
         "pendingCount" = (SELECT count(*) FROM "Delivery" WHERE "campaignId" = "Campaign"."id" AND "status" = 'pending'),
         "sentCount" = (SELECT count(*) FROM "Delivery" WHERE "campaignId" = "Campaign"."id" AND "status" = 'sent'),
         "deliveredCount" = (SELECT count(*) FROM "Delivery" WHERE "campaignId" = "Campaign"."id" AND "status" = 'delivered'),
         "failedCount" = (SELECT count(*) FROM "Delivery" WHERE "campaignId" = "Campaign"."id" AND "status" = 'failed'),
         "bouncedCount" = (SELECT count(*) FROM "Delivery" WHERE "campaignId" = "Campaign"."id" AND "status" = 'bounced'),
         "cancelledCount" = (SELECT count(*) FROM "Delivery" WHERE "campaignId" = "Campaign"."id" AND "status" = 'cancelled'),
         "openedCount" = (SELECT count("openedAt") FROM "Delivery" WHERE "campaignId" = "Campaign"."id"),
         "clickedCount" = (SELECT count("clickedAt") FROM "Delivery" WHERE "campaignId" = "Campaign"."id")
       WHERE "id" = ?`,
    )
    .run(campaignId);
}
