// Notifications are stored per user (newest 50 kept) and pushed to that user's open pages over
// Server-Sent Events. Adding a notification anywhere in the product is one call: notify().
import { db } from "~/db.server";
import type { Notification } from "~/generated/prisma/client";
import { newId } from "~/lib/id";
import { MAX_NOTIFICATIONS, type NotificationType } from "~/lib/notifications";
import { notFound } from "~/lib/api.server";
import type { NotificationDto } from "~/lib/dto";
import { publish as publishOnBus, subscribe } from "~/services/process-bus.server";

export type { NotificationDto };

export const toDto = (n: Notification): NotificationDto => ({
  id: n.id,
  type: n.type,
  title: n.title,
  details: n.details,
  date: n.createdAt.toISOString(),
  read: n.read,
});

// Each open page subscribes to its user's topic on the process bus, which reaches the pages
// served by every worker of this machine. (Instances on other machines only see their own
// writes: pages still catch up on reload.)
export type NotificationEvent = { kind: "created"; notification: NotificationDto } | { kind: "changed" };

const topic = (userId: string) => `notifications:${userId}`;

function publish(userId: string, event: NotificationEvent) {
  publishOnBus(topic(userId), event);
}

/** Calls the listener with each change to the user's notifications; returns the call that stops it. */
export function subscribeNotifications(userId: string, listener: (event: NotificationEvent) => void): () => void {
  return subscribe<NotificationEvent>(topic(userId), listener);
}

export async function notify(
  userId: string,
  input: { type: NotificationType; title: string; details?: string },
): Promise<NotificationDto> {
  const created = await db().$transaction(async (tx) => {
    const row = await tx.notification.create({
      data: { id: newId(), userId, type: input.type, title: input.title, details: input.details ?? "" },
    });
    // Keep the newest 50: drop whatever is older than the 50th.
    const cutoff = await tx.notification.findMany({
      where: { userId },
      orderBy: [{ createdAt: "desc" }, { id: "desc" }],
      skip: MAX_NOTIFICATIONS,
      take: 1,
      select: { id: true, createdAt: true },
    });
    if (cutoff[0]) {
      await tx.notification.deleteMany({
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
  });
  const dto = toDto(created);
  publish(userId, { kind: "created", notification: dto });
  return dto;
}

export async function listNotifications(userId: string, options: { type?: string; take?: number } = {}) {
  const [items, unreadCount] = await Promise.all([
    db().notification.findMany({
      where: { userId, ...(options.type ? { type: options.type } : {}) },
      orderBy: [{ createdAt: "desc" }, { id: "desc" }],
      take: options.take ?? MAX_NOTIFICATIONS,
    }),
    db().notification.count({ where: { userId, read: false } }),
  ]);
  return { notifications: items.map(toDto), unreadCount };
}

export async function markRead(userId: string, id: string) {
  const result = await db().notification.updateMany({ where: { id, userId }, data: { read: true } });
  if (result.count === 0) throw notFound("Notification");
  publish(userId, { kind: "changed" });
}

export async function markAllRead(userId: string) {
  const result = await db().notification.updateMany({ where: { userId, read: false }, data: { read: true } });
  publish(userId, { kind: "changed" });
  return result.count;
}

export async function deleteNotification(userId: string, id: string) {
  const result = await db().notification.deleteMany({ where: { id, userId } });
  if (result.count === 0) throw notFound("Notification");
  publish(userId, { kind: "changed" });
}
