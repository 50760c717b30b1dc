// The idempotency keys' model: one body for both engines, so this folder has no engine files and
// no engineDoor(); other code imports idempotencyKeys from here as from any domain's door.
//
// Prisma's calls only, so they run on either engine as they are (db() is PostgreSQL's client
// there, whose unique violation is the same P2002). What they rely on holds on PostgreSQL too: one
// insert wins a key (the unique index), and of two takeovers only the one whose UPDATE still finds
// the `updatedAt` it read changes the row (the second waits for the first's row lock, then reads
// the row anew and finds it moved on). app/services/idempotency.server.test.ts runs on both.
import { db } from "~/db/prisma.server";
import { isUniqueViolation } from "~/db/unique-violation.server";
import type { IdempotencyStore } from "~/models/idempotency/contract";

export type { IdempotencyKey, NewIdempotencyKey } from "~/models/idempotency/rows";

export const idempotencyKeys: IdempotencyStore = {
  async deleteKeysMadeBefore(userId, before) {
    await db().idempotencyKey.deleteMany({ where: { userId, createdAt: { lt: before } } });
  },

  async insertPendingKey(key) {
    try {
      return await db().idempotencyKey.create({ data: key });
    } catch (error) {
      if (!isUniqueViolation(error)) throw error;
      return null;
    }
  },

  async findKey(userId, key) {
    return db().idempotencyKey.findUnique({ where: { userId_key: { userId, key } } });
  },

  async markKeyDone(id, resultId) {
    await db().idempotencyKey.updateMany({
      where: { id },
      data: { state: "done", ...(resultId === undefined ? {} : { resultId }) },
    });
  },

  async takeOverPendingKey(id, updatedAt) {
    const taken = await db().idempotencyKey.updateMany({
      where: { id, state: "pending", updatedAt },
      data: { updatedAt: new Date() },
    });
    return taken.count === 1;
  },

  async deletePendingKey(id) {
    await db().idempotencyKey.deleteMany({ where: { id, state: "pending" } });
  },
};
