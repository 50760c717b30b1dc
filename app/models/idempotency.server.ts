// Idempotency keys as stored: one row per tenant and key (unique), with the fingerprint of the
// request that claimed it, the id it makes and whether that work is done. The rules that use them
// are in app/services/idempotency.server.ts (docs/rules.md#one-launch-one-send).
//
// Prisma's calls only, so they run on either engine as they are (db() is PostgreSQL's client
// there, whose unique violation is the same P2002). What they rely on holds on PostgreSQL too: one
// insert wins a key (the unique index), and of two takeovers only the one whose UPDATE still finds
// the `updatedAt` it read changes the row (the second waits for the first's row lock, then reads
// the row anew and finds it moved on). app/services/idempotency.server.test.ts runs on both.
import { db } from "~/db/prisma.server";
import { type IdempotencyKey, Prisma } from "~/generated/prisma/client";

export type { IdempotencyKey };

export type NewIdempotencyKey = Pick<IdempotencyKey, "id" | "userId" | "key" | "fingerprint" | "resultId">;

const isUniqueViolation = (error: unknown) =>
  error instanceof Prisma.PrismaClientKnownRequestError && error.code === "P2002";

/** Deletes the tenant's keys made before `before`. */
export async function deleteKeysMadeBefore(userId: string, before: Date): Promise<void> {
  await db().idempotencyKey.deleteMany({ where: { userId, createdAt: { lt: before } } });
}

/** Claims the tenant's key with a pending row; null when a row for that key exists already. */
export async function insertPendingKey(key: NewIdempotencyKey): Promise<IdempotencyKey | null> {
  try {
    return await db().idempotencyKey.create({ data: key });
  } catch (error) {
    if (!isUniqueViolation(error)) throw error;
    return null;
  }
}

export async function findKey(userId: string, key: string): Promise<IdempotencyKey | null> {
  return db().idempotencyKey.findUnique({ where: { userId_key: { userId, key } } });
}

/** Marks the key's work done; with `resultId`, records the id it made too. */
export async function markKeyDone(id: string, resultId?: string): Promise<void> {
  await db().idempotencyKey.updateMany({
    where: { id },
    data: { state: "done", ...(resultId === undefined ? {} : { resultId }) },
  });
}

/**
 * Takes over a pending key whose request died: true for the one caller whose write still finds
 * the key pending with the `updatedAt` it read (it stamps the key anew).
 */
export async function takeOverPendingKey(id: string, updatedAt: Date): Promise<boolean> {
  const taken = await db().idempotencyKey.updateMany({
    where: { id, state: "pending", updatedAt },
    data: { updatedAt: new Date() },
  });
  return taken.count === 1;
}

/** Gives a pending key back (its work failed), so the request can be tried again. */
export async function deletePendingKey(id: string): Promise<void> {
  await db().idempotencyKey.deleteMany({ where: { id, state: "pending" } });
}
