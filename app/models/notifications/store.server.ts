// The notifications model's door: the functions of ./contract.ts, answered by the configured
// engine's implementation.
import { engineDoor } from "~/db/engine.server";
import type { NotificationsStore } from "~/models/notifications/contract";
import { postgresNotifications } from "~/models/notifications/postgres.server";
import { sqliteNotifications } from "~/models/notifications/sqlite.server";

export const notifications = engineDoor<NotificationsStore>({
  sqlite: sqliteNotifications,
  postgres: postgresNotifications,
});

export type { NotificationRow } from "~/models/notifications/rows";
