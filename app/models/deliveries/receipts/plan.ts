// The rules that apply receipts (docs/rules.md#opens-and-clicks,
// docs/rules.md#bounce-and-complaint-feeds), apart from the database: what a batch changes, given
// what is stored. The same code on both engines; each engine reads what the rules ask
// (ReceiptLookups) and writes the plan in one transaction (./sqlite.server.ts, ./postgres.server.ts).
import { parseDeliveryId } from "~/lib/campaigns";
import {
  type AddressToSuppress,
  type BouncedAddress,
  type CounterDelta,
  type FeedbackPolicy,
  type NewDeliveryEvent,
  type Receipt,
  type ReceiptEvent,
  type ReceiptLookups,
  type ReceiptPlan,
  type RowState,
  softBounceDetails,
} from "./rows";

const STATE_COUNTER: Record<string, keyof CounterDelta | undefined> = {
  pending: "pending",
  sent: "sent",
  delivered: "delivered",
  failed: "failed",
  bounced: "bounced",
  complained: "complained",
};
const noDelta = (): CounterDelta => ({
  pending: 0,
  sent: 0,
  delivered: 0,
  failed: 0,
  bounced: 0,
  complained: 0,
  opened: 0,
  clicked: 0,
  opensTotal: 0,
  clicksTotal: 0,
  machineOpens: 0,
  machineClicks: 0,
  softBounces: 0,
});

/**
 * The rules of applyReceipts, apart from the database: what `receipts` change, given what is
 * stored (`lookups`). Both engines write the plan in one transaction.
 */
export function planReceipts(
  receipts: readonly Receipt[],
  policy: FeedbackPolicy,
  lookups: ReceiptLookups,
): ReceiptPlan {
  const rows = new Map<number, RowState | null>();
  const deltas = new Map<string, CounterDelta>();
  const events: NewDeliveryEvent[] = [];
  /** Soft bounces kept by this batch, by tenant and address: their times. */
  const softBouncesKept = new Map<string, number[]>();
  const delta = (campaignId: string) => {
    let d = deltas.get(campaignId);
    if (!d) deltas.set(campaignId, (d = noDelta()));
    return d;
  };
  const move = (row: RowState, to: "delivered" | "bounced" | "complained", at: number, details?: string) => {
    const d = delta(row.campaignId);
    const from = STATE_COUNTER[row.status];
    if (from) d[from] -= 1;
    d[to] += 1;
    row.status = to;
    if (details !== undefined) row.details = details;
    row.updatedAt = at;
    row.changed = true;
  };
  const keep = (row: RowState, r: Receipt, kind: ReceiptEvent, machine: boolean) => {
    const email = row.email.toLowerCase();
    events.push({
      userId: row.userId,
      campaignId: row.campaignId,
      seq: row.seq,
      customerId: row.customerId,
      email,
      kind,
      machine,
      link: r.link ?? null,
      source: r.source ?? "vendor",
      eventId: r.eventId ?? null,
      details: (r.details ?? "").slice(0, 500),
      at: r.at,
    });
    if (kind === "soft-bounced") {
      const key = `${row.userId}\u0000${email}`;
      let times = softBouncesKept.get(key);
      if (!times) softBouncesKept.set(key, (times = []));
      times.push(r.at);
    }
  };
  const softBouncesSince = (userId: string, email: string, since: number) =>
    lookups.softBouncesSince(userId, email, since) +
    (softBouncesKept.get(`${userId}\u0000${email}`) ?? []).filter((at) => at > since).length;
  let applied = 0;
  let ignored = 0;
  let latest = 0;
  const suppress: AddressToSuppress[] = [];
  const seenInBatch = new Set<string>();
  for (const r of receipts) {
    const id = parseDeliveryId(r.id);
    if (!id) {
      ignored += 1;
      continue;
    }
    let row = rows.get(id.seq);
    if (row === undefined) {
      const found = lookups.row(id.seq);
      row = found && found.campaignId.startsWith(id.prefix) ? { ...found, changed: false } : null;
      rows.set(id.seq, row);
    }
    // A receipt of an earlier message of a row that was retried since says nothing about it now.
    if (!row || row.retries !== id.retries) {
      ignored += 1;
      continue;
    }
    if (r.email !== undefined && r.email.toLowerCase() !== row.email.toLowerCase()) {
      ignored += 1;
      continue;
    }
    // A feed's event seen before (a replayed webhook, a report read twice) changes nothing.
    const source = r.source ?? "vendor";
    if (r.eventId !== undefined) {
      const key = `${source}\u0000${r.eventId}`;
      if (seenInBatch.has(key) || lookups.seen(source, r.eventId)) {
        ignored += 1;
        continue;
      }
      seenInBatch.add(key);
    }
    const fromVendor = source === "vendor";
    const open = row.status === "pending" || row.status === "sent";
    const reached = open || row.status === "delivered";
    let changed = false;
    if (r.event === "delivered" || r.event === "failed") {
      if (open) {
        // A receipt is about a message the vendor accepted: one it could not deliver
        // afterwards came back, a bounce, so "sent" never counts down (failed is for refusals).
        move(row, r.event === "delivered" ? "delivered" : "bounced", r.at, r.details ?? row.details);
        if (row.status === "bounced") suppress.push({ ...addressOf(row), reason: "hard-bounced" });
        changed = true;
      }
    } else if (r.event === "bounced") {
      // A bounce reported later (a DSN, SES, SendGrid) also takes back a delivery the relay had
      // accepted: Sent stays, Delivered becomes Bounced.
      if (reached) {
        move(row, "bounced", r.at, r.details ?? row.details);
        if (!fromVendor) keep(row, r, "bounced", false);
        suppress.push({ ...addressOf(row), reason: "hard-bounced" });
        changed = true;
      }
    } else if (r.event === "complained") {
      if (row.status === "sent" || row.status === "delivered") {
        move(row, "complained", r.at, r.details ?? "Reported as spam by the recipient");
        keep(row, r, "complained", false);
        suppress.push({ ...addressOf(row), reason: "complained" });
        changed = true;
      }
    } else if (r.event === "soft-bounced") {
      if (row.status !== "pending") {
        keep(row, r, "soft-bounced", false);
        delta(row.campaignId).softBounces += 1;
        changed = true;
        const since = r.at - policy.softBounceWindowMs;
        if (
          policy.softBounceLimit > 0 &&
          softBouncesSince(row.userId, row.email.toLowerCase(), since) >= policy.softBounceLimit
        )
          suppress.push({
            ...addressOf(row),
            reason: "soft-bounced",
            details: softBounceDetails(policy, r.details ?? ""),
          });
      }
    } else if (reached || row.status === "complained") {
      // Opened or clicked: the message reached the mailbox. When it was handed over: the row's
      // last change before this (the relay's acceptance, or the vendor's delivery receipt).
      const handedOverAt = row.updatedAt;
      if (open) {
        // Dated by the handover, not by this open: the message arrived some time before it
        // was read, and a click that follows must not look like a scanner's.
        move(row, "delivered", handedOverAt, row.details);
        changed = true;
      }
      const d = delta(row.campaignId);
      const click = r.event === "clicked";
      // A link scanner clicks within seconds of the delivery; a person does not.
      const machine =
        !fromVendor &&
        (r.machine === true || (click && policy.scannerWindowMs > 0 && r.at - handedOverAt < policy.scannerWindowMs));
      if (machine) {
        if (click) d.machineClicks += 1;
        else d.machineOpens += 1;
        keep(row, r, r.event, true);
        changed = true;
      } else {
        // The vendor reports each recipient's first open and click once (a repeat is a resend
        // of its webhook): the first of either is their open, counted once in the totals too.
        // This server's pixel and links report every one: opens in total are every image load by
        // a person, and for a recipient who clicked with images off (no load seen) their click
        // stands for one open. The first load of a recipient whose open is known only from a
        // click takes that open's place instead of adding one, so a click then a load and a load
        // then a click both count one open, whatever order they are applied in.
        if (!fromVendor) {
          if (click) d.clicksTotal += 1;
          else {
            const impliedByClick = row.openedAt !== null && row.pixelOpenedAt === null;
            if (!impliedByClick) d.opensTotal += 1;
            if (row.pixelOpenedAt === null || r.at < row.pixelOpenedAt) row.pixelOpenedAt = r.at;
          }
          keep(row, r, r.event, false);
          changed = true;
        }
        if (row.openedAt === null) {
          d.opened += 1;
          if (fromVendor || click) d.opensTotal += 1;
          if (fromVendor && !click) row.pixelOpenedAt = r.at;
        }
        // The first open and click are the earliest, whichever was applied first.
        if (row.openedAt === null || r.at < row.openedAt) {
          row.openedAt = r.at;
          changed = true;
        }
        if (click && (row.clickedAt === null || r.at < row.clickedAt)) {
          if (row.clickedAt === null) {
            d.clicked += 1;
            if (fromVendor) d.clicksTotal += 1;
          }
          row.clickedAt = r.at;
          changed = true;
        }
      }
      if (changed) row.changed = true;
    }
    if (changed) {
      applied += 1;
      latest = Math.max(latest, r.at);
    } else ignored += 1;
  }
  const changedRows: RowState[] = [];
  for (const row of rows.values()) if (row?.changed) changedRows.push(row);
  return { applied, ignored, latest, rows: changedRows, events, deltas, suppress };
}

function addressOf(row: RowState): BouncedAddress {
  return { campaignId: row.campaignId, userId: row.userId, email: row.email, details: row.details };
}
