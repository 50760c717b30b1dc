// What the idempotency keys' model offers (IdempotencyStore). The rules that use the keys are in
// app/services/idempotency.server.ts (docs/rules.md#one-launch-one-send).
import type { IdempotencyKey, NewIdempotencyKey } from "~/models/idempotency/rows";

export type IdempotencyStore = {
  /** Deletes the tenant's keys made before `before`. */
  deleteKeysMadeBefore(userId: string, before: Date): Promise<void>;
  /** Claims the tenant's key with a pending row; null when a row for that key exists already. */
  insertPendingKey(key: NewIdempotencyKey): Promise<IdempotencyKey | null>;
  /** The tenant's row for the key, or null. */
  findKey(userId: string, key: string): Promise<IdempotencyKey | null>;
  /** Marks the key's work done; with `resultId`, records the id it made too. */
  markKeyDone(id: string, resultId?: string): Promise<void>;
  /**
   * Takes over a pending key whose request died: true for the one caller whose write still finds
   * the key pending with the `updatedAt` it read (it stamps the key anew).
   */
  takeOverPendingKey(id: string, updatedAt: Date): Promise<boolean>;
  /** Gives a pending key back (its work failed), so the request can be tried again. */
  deletePendingKey(id: string): Promise<void>;
};
