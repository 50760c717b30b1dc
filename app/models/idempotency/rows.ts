// Idempotency keys as stored: one row per tenant and key (unique), with the fingerprint of the
// request that claimed it, the id it makes and whether that work is done.
import type { IdempotencyKey } from "~/generated/prisma/client";

export type { IdempotencyKey };

export type NewIdempotencyKey = Pick<IdempotencyKey, "id" | "userId" | "key" | "fingerprint" | "resultId">;
