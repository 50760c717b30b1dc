// The table Notification: a user's notifications, newest first, the newest few kept.
import type { Notification } from "~/generated/prisma/client";

/** One stored notification. */
export type NotificationRow = Notification;

/** What a new notification says. */
export type NewNotification = { type: string; title: string; details: string };

/** A user's notifications as listed: newest first, the id breaking a tie of times. */
export const NEWEST_FIRST = [{ createdAt: "desc" as const }, { id: "desc" as const }];
