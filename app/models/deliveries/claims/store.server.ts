// The claims domain's door (app/models/deliveries/claims/): claiming work from the delivery queue,
// the checks before each message goes and the send rate, on the engine DATABASE_URL names.
import type { AnyConnection } from "~/db/connection.server";
import { engineDoor } from "~/db/engine.server";
import type { ClaimsStore } from "./contract";
import { postgresClaims } from "./postgres.server";
import type { ClaimedDelivery } from "./rows";
import { sqliteClaims } from "./sqlite.server";

export type { ClaimCheck, ClaimedDelivery, ClaimOptions, SendRate, SendRateBucket } from "./rows";

export const deliveryClaims = engineDoor<ClaimsStore>({ sqlite: sqliteClaims, postgres: postgresClaims });

/**
 * Keeps a claimed row this claim's until the returned function is called: its lease is renewed to
 * a whole `leaseMs` ahead every quarter of it (a message goes with at least half its lease left,
 * so it never runs out in between).
 */
export function keepClaimed(
  connection: AnyConnection,
  row: Pick<ClaimedDelivery, "seq" | "attempts">,
  leaseMs: number,
  now: () => number = Date.now,
): () => void {
  const timer = setInterval(
    () => {
      deliveryClaims.renewLease(connection, row.seq, row.attempts, now() + leaseMs).catch(() => undefined);
    },
    Math.max(10, Math.floor(leaseMs / 4)),
  );
  timer.unref();
  return () => clearInterval(timer);
}
