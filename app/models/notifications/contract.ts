// What the notifications model offers (NotificationsStore): a user's notifications, newest first,
// the newest few kept.
import type { Tx } from "~/models/transaction/store.server";
import type { NewNotification, NotificationRow } from "~/models/notifications/rows";

export type NotificationsStore = {
  /**
   * Stores a notification and drops the user's older ones beyond the newest `keep`, in one
   * transaction (or in `tx`, the caller's). Returns the stored row.
   */
  insertNotificationKeepingNewest(
    userId: string,
    input: NewNotification,
    keep: number,
    tx?: Tx,
  ): Promise<NotificationRow>;
  /** The user's newest notifications (of one type when given), and how many of all are unread. */
  findNotificationsWithUnread(
    userId: string,
    options: { type?: string; take: number },
  ): Promise<{ rows: NotificationRow[]; unread: number }>;
  /** Marks one of the user's notifications read; returns how many matched (0: not the user's, or none). */
  markNotificationRead(userId: string, id: string): Promise<number>;
  /** Marks every unread notification of the user read; returns how many were unread. */
  markAllNotificationsRead(userId: string): Promise<number>;
  /** Deletes one of the user's notifications; returns how many were deleted (0: not the user's, or none). */
  deleteNotificationOfUser(userId: string, id: string): Promise<number>;
};
