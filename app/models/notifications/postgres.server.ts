// Notifications on PostgreSQL. Two transactions run side by side there, and two notifications
// arriving at once each trimmed to the newest 50 as it saw them, leaving 51 or 52 (measured: 70 at
// once left 52); so a user's notification is stored under a lock of that user's notifications.
import { commonNotifications, insertKeepingNewest } from "~/models/notifications/common.server";
import type { NotificationsStore } from "~/models/notifications/contract";
import type { Tx } from "~/models/transaction/store.server";

// The two-key form of the advisory lock (a space of its own, apart from the one-key locks of
// migrations and jobs): this constant names "a user's notifications", the second key is the user.
const NOTIFICATIONS_LOCK_CLASS = 26_001;

/**
 * Makes the transaction wait for any other one adding a notification for the same user, until it
 * ends: the insert and the trim then see each other's rows. Users whose ids hash alike only queue.
 */
async function lockUsersNotifications(tx: Tx, userId: string): Promise<void> {
  await tx.$executeRawUnsafe(`SELECT pg_advisory_xact_lock($1::int, hashtext($2))`, NOTIFICATIONS_LOCK_CLASS, userId);
}

export const postgresNotifications: NotificationsStore = {
  ...commonNotifications,
  insertNotificationKeepingNewest: insertKeepingNewest(lockUsersNotifications),
};
