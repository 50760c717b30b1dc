// The table Notification: a user's notifications, newest first, the newest few kept.
import { databaseEngine } from "~/db/connection.server";
import { db } from "~/db/prisma.server";
import type { Notification } from "~/generated/prisma/client";
import { newId } from "~/lib/id";
import { lockUsersNotificationsPg } from "~/models/notifications.postgres.server";
import type { Tx } from "~/models/transaction.server";

/** One stored notification. */
export type NotificationRow = Notification;

const NEWEST_FIRST = [{ createdAt: "desc" as const }, { id: "desc" as const }];

/**
 * Stores a notification and drops the user's older ones beyond the newest `keep`, in one
 * transaction (or in `tx`, the caller's). Returns the stored row.
 */
export async function insertNotificationKeepingNewest(
  userId: string,
  input: { type: string; title: string; details: string },
  keep: number,
  tx?: Tx,
): Promise<NotificationRow> {
  const work = async (t: Tx) => {
    if (databaseEngine() === "postgres") await lockUsersNotificationsPg(t, userId);
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
  return tx ? work(tx) : db().$transaction(work);
}

/** The user's newest notifications (of one type when given), and how many of all are unread. */
export async function findNotificationsWithUnread(
  userId: string,
  options: { type?: string; take: number },
): Promise<{ rows: NotificationRow[]; unread: number }> {
  const [rows, unread] = await Promise.all([
    db().notification.findMany({
      where: { userId, ...(options.type ? { type: options.type } : {}) },
      orderBy: NEWEST_FIRST,
      take: options.take,
    }),
    db().notification.count({ where: { userId, read: false } }),
  ]);
  return { rows, unread };
}

/** Marks one of the user's notifications read; returns how many matched (0: not the user's, or none). */
export async function markNotificationRead(userId: string, id: string): Promise<number> {
  return (await db().notification.updateMany({ where: { id, userId }, data: { read: true } })).count;
}

/** Marks every unread notification of the user read; returns how many were unread. */
export async function markAllNotificationsRead(userId: string): Promise<number> {
  return (await db().notification.updateMany({ where: { userId, read: false }, data: { read: true } })).count;
}

/** Deletes one of the user's notifications; returns how many were deleted (0: not the user's, or none). */
export async function deleteNotificationOfUser(userId: string, id: string): Promise<number> {
  return (await db().notification.deleteMany({ where: { id, userId } })).count;
}
