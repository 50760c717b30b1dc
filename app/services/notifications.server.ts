// Notifications are stored per user (newest 50 kept) and pushed to that user's open pages over
// Server-Sent Events. Adding a notification anywhere in the product is one call: notify().
import { MAX_NOTIFICATIONS, type NotificationType } from "~/lib/notifications";
import { notFound } from "~/lib/api.server";
import type { NotificationDto } from "~/lib/dto";
import { type NotificationRow, notifications } from "~/models/notifications/store.server";
import { publish as publishOnBus, subscribe } from "~/services/process-bus.server";

export type { NotificationDto };

const toDto = (n: NotificationRow): NotificationDto => ({
  id: n.id,
  type: n.type,
  title: n.title,
  details: n.details,
  date: n.createdAt.toISOString(),
  read: n.read,
});

// Each open page subscribes to its user's topic on the process bus, which reaches the pages
// served by every worker of this machine and, on PostgreSQL, of every instance sharing the
// database (docs/decisions/0034-many-instances.md).
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
  // Keep the newest 50: the older ones go with the new one's insert.
  const created = await notifications.insertNotificationKeepingNewest(
    userId,
    { type: input.type, title: input.title, details: input.details ?? "" },
    MAX_NOTIFICATIONS,
  );
  const dto = toDto(created);
  publish(userId, { kind: "created", notification: dto });
  return dto;
}

export async function listNotifications(userId: string, options: { type?: string; take?: number } = {}) {
  const { rows, unread } = await notifications.findNotificationsWithUnread(userId, {
    type: options.type,
    take: options.take ?? MAX_NOTIFICATIONS,
  });
  return { notifications: rows.map(toDto), unreadCount: unread };
}

export async function markRead(userId: string, id: string) {
  if ((await notifications.markNotificationRead(userId, id)) === 0) throw notFound("Notification");
  publish(userId, { kind: "changed" });
}

export async function markAllRead(userId: string) {
  const count = await notifications.markAllNotificationsRead(userId);
  publish(userId, { kind: "changed" });
  return count;
}

export async function deleteNotification(userId: string, id: string) {
  if ((await notifications.deleteNotificationOfUser(userId, id)) === 0) throw notFound("Notification");
  publish(userId, { kind: "changed" });
}
