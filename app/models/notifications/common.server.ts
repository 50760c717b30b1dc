// The notifications model's Prisma calls, one body for both engines (db() is PostgreSQL's client
// there). Storing a notification differs in one step only, what the transaction takes first
// (nothing on SQLite, a lock on PostgreSQL): each engine file makes it with insertKeepingNewest().
import { db } from "~/db/prisma.server";
import { newId } from "~/lib/id";
import type { NotificationsStore } from "~/models/notifications/contract";
import { NEWEST_FIRST } from "~/models/notifications/rows";
import { inTransaction, type Tx } from "~/models/transaction/store.server";

/**
 * insertNotificationKeepingNewest, with `first` run at the start of its transaction (before the
 * insert and the trim).
 */
export function insertKeepingNewest(
  first: (tx: Tx, userId: string) => Promise<void>,
): NotificationsStore["insertNotificationKeepingNewest"] {
  return async (userId, input, keep, tx) => {
    const work = async (t: Tx) => {
      await first(t, userId);
      const row = await t.notification.create({
        data: { id: newId(), userId, type: input.type, title: input.title, details: input.details },
      });
      // The first one past the newest `keep`, and everything older than it, go.
      const cutoff = await t.notification.findMany({
        where: { userId },
        orderBy: NEWEST_FIRST,
        skip: keep,
        take: 1,
        select: { id: true, createdAt: true },
      });
      if (cutoff[0]) {
        await t.notification.deleteMany({
          where: {
            userId,
            OR: [
              { createdAt: { lt: cutoff[0].createdAt } },
              { createdAt: cutoff[0].createdAt, id: { lte: cutoff[0].id } },
            ],
          },
        });
      }
      return row;
    };
    return inTransaction(tx, work);
  };
}

export const commonNotifications = {
  async findNotificationsWithUnread(userId, options) {
    const [rows, unread] = await Promise.all([
      db().notification.findMany({
        where: { userId, ...(options.type ? { type: options.type } : {}) },
        orderBy: NEWEST_FIRST,
        take: options.take,
      }),
      db().notification.count({ where: { userId, read: false } }),
    ]);
    return { rows, unread };
  },

  async markNotificationRead(userId, id) {
    return (await db().notification.updateMany({ where: { id, userId }, data: { read: true } })).count;
  },

  async markAllNotificationsRead(userId) {
    return (await db().notification.updateMany({ where: { userId, read: false }, data: { read: true } })).count;
  },

  async deleteNotificationOfUser(userId, id) {
    return (await db().notification.deleteMany({ where: { id, userId } })).count;
  },
} satisfies Omit<NotificationsStore, "insertNotificationKeepingNewest">;
