// The checks the delivery engine makes before each message goes, on PostgreSQL: a memory the
// PostgreSQL implementations of claims (./claims/postgres.server.ts), outcomes
// (./receipts/postgres.server.ts), campaigns and suppressions share. It imports no domain, so any
// of those engine files may use it without a loop.
//
// On SQLite the engine asks two synchronous reads before a message is handed to a channel
// (SendControl.proceed): is the campaign still Active (campaignStatusReader), and is the row still
// this claim's, its address not suppressed since (claimStillHeld). A PostgreSQL read cannot be
// synchronous, so here each answer comes from memory, kept fresh from the database:
//
// - The campaign's status: a cache per connection, filled by each round's sendingCampaigns() and
//   read again (one statement for every campaign asked about) whenever a read finds it older than
//   half of SEND_CHECK_MAX_AGE_MS.
// - The claim: its attempt number and lease time are known in memory from the claim itself
//   (claimBatch notes them here); whether the row is still pending with them and its address not
//   suppressed is checked again, for every claim out, by one statement as often.
//
// A check older than SEND_CHECK_MAX_AGE_MS answers "no" (the message is held, back in the queue
// without spending an attempt), never a stale "yes". So a write that must stop sends (a pause, a
// cancel, an unsubscribe, a resume that takes leases back) is seen by every engine, on any
// instance, within SEND_CHECK_MAX_AGE_MS of its commit: such a write answers only after waiting
// that long (waitForSenders), and then nothing is handed over after its answer, as on SQLite.
import { performance } from "node:perf_hooks";
import { type Postgres, query } from "~/db/postgres.server";

/** The oldest a status or claim check the engine acts on may be. */
export const SEND_CHECK_MAX_AGE_MS = 200;
/** A check older than this is read again (while the engine still acts on the one it has). */
const REFRESH_AFTER_MS = SEND_CHECK_MAX_AGE_MS / 2;
/** A campaign nobody asked about for this long leaves the status cache. */
const FORGET_AFTER_MS = 10_000;

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * Waits until every sending engine has read the database again since now: called after the commit
 * of a write that must stop sends, before it answers.
 */
export function waitForSenders(): Promise<void> {
  return sleep(SEND_CHECK_MAX_AGE_MS + 5);
}

/** What the engines of one pool share, made when the pool first asks (each pool its own). */
function perPool<T>(make: () => T): (pg: Postgres) => T {
  const values = new WeakMap<Postgres, T>();
  return (pg) => {
    let value = values.get(pg);
    if (value === undefined) values.set(pg, (value = make()));
    return value;
  };
}

// --- The campaigns' status ----------------------------------------------------------------------

type StatusEntry = { status: string | null; checkedAt: number; readAt: number };
type StatusCache = { entries: Map<string, StatusEntry>; refreshing: Promise<void> | null };
const statusCache = perPool<StatusCache>(() => ({ entries: new Map(), refreshing: null }));

/**
 * Notes statuses read at `checkedAt` (performance.now() when the statement was sent). With
 * `allActive`, `rows` are every Active campaign then, so a campaign noted Active before and not
 * among them is Active no longer: it is read again at its next check.
 */
export function noteStatuses(
  pg: Postgres,
  rows: readonly { id: string; status: string }[],
  checkedAt: number,
  allActive = false,
): void {
  const { entries } = statusCache(pg);
  const seen = new Set<string>();
  for (const row of rows) {
    seen.add(row.id);
    const known = entries.get(row.id);
    if (known && known.checkedAt > checkedAt) continue;
    entries.set(row.id, { status: row.status, checkedAt, readAt: known?.readAt ?? performance.now() });
  }
  if (allActive)
    for (const [id, entry] of entries)
      if (!seen.has(id) && entry.status === "Active" && entry.checkedAt <= checkedAt) entry.checkedAt = -Infinity;
}

function refreshStatuses(pg: Postgres): void {
  const cache = statusCache(pg);
  if (cache.refreshing) return;
  const startedAt = performance.now();
  for (const [id, entry] of cache.entries) if (startedAt - entry.readAt > FORGET_AFTER_MS) cache.entries.delete(id);
  const ids = [...cache.entries.keys()];
  if (ids.length === 0) return;
  cache.refreshing = query<{ id: string; status: string }>(
    pg,
    `SELECT "id", "status" FROM "Campaign" WHERE "id" = ANY($1::text[])`,
    [ids],
  )
    .then((rows) => {
      const found = new Set(rows.map((r) => r.id));
      noteStatuses(pg, rows, startedAt);
      // A campaign deleted meanwhile has no status.
      for (const id of ids)
        if (!found.has(id)) {
          const entry = cache.entries.get(id);
          if (entry && entry.checkedAt <= startedAt) Object.assign(entry, { status: null, checkedAt: startedAt });
        }
    })
    // A failed read leaves the entries to age: the engine holds its messages until one succeeds.
    .catch(() => undefined)
    .finally(() => {
      cache.refreshing = null;
    });
}

/** The status reader of campaignStatusReader on PostgreSQL: synchronous, from the cache. */
export function statusReader(pg: Postgres): (campaignId: string) => string | null {
  const cache = statusCache(pg);
  return (campaignId) => {
    const now = performance.now();
    let entry = cache.entries.get(campaignId);
    if (!entry) cache.entries.set(campaignId, (entry = { status: null, checkedAt: -Infinity, readAt: now }));
    entry.readAt = now;
    const age = now - entry.checkedAt;
    if (age > REFRESH_AFTER_MS) refreshStatuses(pg);
    return age <= SEND_CHECK_MAX_AGE_MS ? entry.status : null;
  };
}

// --- The claims out -----------------------------------------------------------------------------

type HeldClaim = {
  attempts: number;
  /** The row's nextAttemptAt as the claim set it: the claim is ours until then. */
  leaseUntil: number;
  /** When the database last said the row is pending with this claim and its address not suppressed. */
  checkedAt: number;
  ok: boolean;
};
type Ledger = { claims: Map<number, HeldClaim>; refreshing: Promise<void> | null };
const ledgerOf = perPool<Ledger>(() => ({ claims: new Map(), refreshing: null }));

/**
 * Notes the rows a claim took (checked in the claim's transaction, sent at `checkedAt`), and
 * forgets claims whose lease ran out by `now`: nobody can ask about those any more.
 */
export function noteClaimed(
  pg: Postgres,
  rows: readonly { seq: number; attempts: number }[],
  leaseUntil: number,
  now: number,
  checkedAt: number,
): void {
  const { claims } = ledgerOf(pg);
  for (const [seq, claim] of claims) if (claim.leaseUntil <= now) claims.delete(seq);
  for (const row of rows) claims.set(row.seq, { attempts: row.attempts, leaseUntil, checkedAt, ok: true });
}

/** Forgets claims whose outcome was recorded (the row is no longer theirs to send). */
export function noteRecorded(pg: Postgres, rows: readonly { seq: number; attempts: number }[]): void {
  const { claims } = ledgerOf(pg);
  for (const row of rows) if (claims.get(row.seq)?.attempts === row.attempts) claims.delete(row.seq);
}

/** Reads every claim out again: still pending with its attempt number and lease, its address not suppressed. */
export function refreshClaims(pg: Postgres): Promise<void> {
  const ledger = ledgerOf(pg);
  if (ledger.refreshing) return ledger.refreshing;
  const asked = [...ledger.claims.entries()];
  if (asked.length === 0) return Promise.resolve();
  const startedAt = performance.now();
  ledger.refreshing = query<{ seq: number; attempts: number; nextAttemptAt: number }>(
    pg,
    `SELECT "d"."seq", "d"."attempts", "d"."nextAttemptAt" FROM "Delivery" "d"
     WHERE "d"."seq" = ANY($1::int[]) AND "d"."status" = 'pending'
       AND NOT EXISTS (SELECT 1 FROM "Suppression" "s" WHERE "s"."userId" = "d"."userId" AND "s"."email" = lower("d"."email"))`,
    [asked.map(([seq]) => seq)],
  )
    .then((rows) => {
      const now = new Map(rows.map((r) => [r.seq, r]));
      for (const [seq, claim] of asked) {
        // A claim noted again meanwhile (the row claimed anew) keeps its own check.
        if (ledger.claims.get(seq) !== claim || claim.checkedAt > startedAt) continue;
        const row = now.get(seq);
        claim.ok = row !== undefined && row.attempts === claim.attempts && row.nextAttemptAt === claim.leaseUntil;
        claim.checkedAt = startedAt;
      }
    })
    .catch(() => undefined)
    .finally(() => {
      ledger.refreshing = null;
    });
  return ledger.refreshing;
}

/** The claim check of claimStillHeld on PostgreSQL: synchronous, from the ledger. */
export function heldReader(pg: Postgres): (seq: number, attempts: number, until: number) => boolean {
  const { claims } = ledgerOf(pg);
  return (seq, attempts, until) => {
    const claim = claims.get(seq);
    if (!claim || claim.attempts !== attempts || claim.leaseUntil <= until) return false;
    const age = performance.now() - claim.checkedAt;
    if (age > REFRESH_AFTER_MS) void refreshClaims(pg);
    return claim.ok && age <= SEND_CHECK_MAX_AGE_MS;
  };
}

/**
 * The claim check made just before the text of a message whose envelope went ahead: the claim's
 * lease as known in memory, and the row's latest check whatever its age. The envelope went on a
 * check at most SEND_CHECK_MAX_AGE_MS old; once the relay waits for the text, a check that is
 * merely old is no reason to drop the connection (only a row that is no longer this claim's is).
 */
export function latestHeldReader(pg: Postgres): (seq: number, attempts: number, until: number) => boolean {
  const { claims } = ledgerOf(pg);
  return (seq, attempts, until) => {
    const claim = claims.get(seq);
    if (!claim || claim.attempts !== attempts || claim.leaseUntil <= until) return false;
    if (performance.now() - claim.checkedAt > REFRESH_AFTER_MS) void refreshClaims(pg);
    return claim.ok;
  };
}

/**
 * Settles once the campaigns' statuses and the claims out have been read again, if their last
 * read is older than REFRESH_AFTER_MS (at most one read each; a failed read leaves them as they
 * were).
 */
export async function freshenChecks(pg: Postgres): Promise<void> {
  const now = performance.now();
  const cache = statusCache(pg);
  let statusesOld = false;
  for (const entry of cache.entries.values()) if (now - entry.checkedAt > REFRESH_AFTER_MS) statusesOld = true;
  if (statusesOld) refreshStatuses(pg);
  const ledger = ledgerOf(pg);
  let claimsOld = false;
  for (const claim of ledger.claims.values()) if (now - claim.checkedAt > REFRESH_AFTER_MS) claimsOld = true;
  await Promise.all([statusesOld ? cache.refreshing : null, claimsOld ? refreshClaims(pg) : null]);
}
