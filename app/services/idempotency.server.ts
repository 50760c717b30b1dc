// Idempotency keys (docs/rules.md#one-launch-one-send): a request that carries a key does its work
// once per tenant and key. The first request claims the key (a unique row) and reserves the id of
// what it makes before it starts; a repeat with the same request waits while the first runs and
// then answers the same id; a repeat with another request is refused. A failure gives the key
// back, so the request can be tried again. Keys are kept 24 hours.
import { createHash } from "node:crypto";
import { ApiError } from "~/lib/api.server";
import { newId } from "~/lib/id";
import { type IdempotencyKey, idempotencyKeys } from "~/models/idempotency/store.server";

/** How long a key is kept (and answers with what it made). */
export const IDEMPOTENCY_TTL_MS = 24 * 3_600_000;
/** How long a repeat waits for the first request to finish before it answers 409. */
export const IDEMPOTENCY_WAIT_MS = 60_000;
/** A key still pending after this long belongs to a request that died (a crash): a repeat takes it over. */
export const IDEMPOTENCY_STALE_MS = 10 * 60_000;
const POLL_MS = 50;

/** The fingerprint of a request: what is compared when a key comes again. */
export function requestFingerprint(value: unknown): string {
  return createHash("sha256").update(JSON.stringify(value)).digest("hex");
}

export type OnceOptions = {
  key: string;
  fingerprint: string;
  /** The id the work will make, when it is known in advance (a draft launched in place); else a new id. */
  resultId?: string;
  /** The 422's message when the key was used for another request. */
  mismatch: string;
  /** The 409's message when the first request is still running after the wait. */
  busy: string;
  /** Whether the work a dead request was doing got done anyway (a takeover then answers it). */
  finished: (resultId: string) => boolean | Promise<boolean>;
  waitMs?: number;
  staleMs?: number;
};

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Runs `work(reservedId)` once for the tenant's key and resolves with the id it made; `replayed`
 * says this call answered an earlier request's work instead of doing it.
 */
export async function runOnce(
  userId: string,
  options: OnceOptions,
  work: (reservedId: string) => Promise<string>,
): Promise<{ id: string; replayed: boolean }> {
  const deadline = Date.now() + (options.waitMs ?? IDEMPOTENCY_WAIT_MS);
  const staleMs = options.staleMs ?? IDEMPOTENCY_STALE_MS;
  await idempotencyKeys.deleteKeysMadeBefore(userId, new Date(Date.now() - IDEMPOTENCY_TTL_MS));
  for (;;) {
    const claimed = await claim(userId, options);
    if (claimed.own) return { id: await doWork(claimed.row, work, options.finished), replayed: false };
    const row = claimed.row;
    if (!row) continue; // given back in between: claim it again
    if (row.fingerprint !== options.fingerprint) throw new ApiError("unprocessable", options.mismatch);
    if (row.state === "done") return { id: row.resultId, replayed: true };
    if (Date.now() - row.updatedAt.getTime() > staleMs) {
      if (await options.finished(row.resultId)) {
        await idempotencyKeys.markKeyDone(row.id);
        return { id: row.resultId, replayed: true };
      }
      // Only one repeat takes it over: the one whose write still finds the time it read.
      if (await idempotencyKeys.takeOverPendingKey(row.id, row.updatedAt)) {
        return { id: await doWork(row, work, options.finished), replayed: false };
      }
      continue;
    }
    if (Date.now() >= deadline) throw new ApiError("conflict", options.busy);
    await sleep(POLL_MS);
  }
}

async function claim(
  userId: string,
  options: OnceOptions,
): Promise<{ own: true; row: IdempotencyKey } | { own: false; row: IdempotencyKey | null }> {
  const row = await idempotencyKeys.insertPendingKey({
    id: newId(),
    userId,
    key: options.key,
    fingerprint: options.fingerprint,
    resultId: options.resultId ?? newId(),
  });
  if (row) return { own: true, row };
  return { own: false, row: await idempotencyKeys.findKey(userId, options.key) };
}

async function doWork(
  row: IdempotencyKey,
  work: (reservedId: string) => Promise<string>,
  finished: (resultId: string) => boolean | Promise<boolean>,
): Promise<string> {
  let id: string;
  try {
    id = await work(row.resultId);
  } catch (error) {
    // A failure after the work was done (the campaign exists: a step after the launch failed)
    // keeps the key, so a retry answers that campaign instead of making another.
    if (await finished(row.resultId)) await idempotencyKeys.markKeyDone(row.id);
    else await idempotencyKeys.deletePendingKey(row.id);
    throw error;
  }
  await idempotencyKeys.markKeyDone(row.id, id);
  return id;
}
