// Notifications on SQLite: a write transaction holds the database's one write lock, so a user's
// inserts and their trims run one after the other; nothing to take first.
import { commonNotifications, insertKeepingNewest } from "~/models/notifications/common.server";
import type { NotificationsStore } from "~/models/notifications/contract";

export const sqliteNotifications: NotificationsStore = {
  ...commonNotifications,
  insertNotificationKeepingNewest: insertKeepingNewest(async () => {}),
};
