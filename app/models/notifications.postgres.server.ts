// The notifications model's PostgreSQL part: what ./notifications.server.ts needs besides the
// Prisma calls the two engines share. Only one thing differs: on SQLite a write transaction holds
// the database's one write lock, so a user's inserts and their trims run one after the other; on
// PostgreSQL two transactions run side by side, and two notifications arriving at once each
// trimmed to the newest 50 as it saw them, leaving 51 or 52 (measured: 70 at once left 52).
import type { Tx } from "~/models/transaction.server";

// The two-key form of the advisory lock (a space of its own, apart from the one-key locks of
// migrations and jobs): this constant names "a user's notifications", the second key is the user.
const NOTIFICATIONS_LOCK_CLASS = 26_001;

/**
 * Makes the transaction wait for any other one adding a notification for the same user, until it
 * ends: the insert and the trim then see each other's rows. Users whose ids hash alike only queue.
 */
export async function lockUsersNotificationsPg(tx: Tx, userId: string): Promise<void> {
  await tx.$executeRawUnsafe(`SELECT pg_advisory_xact_lock($1::int, hashtext($2))`, NOTIFICATIONS_LOCK_CLASS, userId);
}
