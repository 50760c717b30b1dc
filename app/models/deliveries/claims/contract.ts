// What the claims domain offers (app/models/deliveries/claims/): claiming work from the delivery
// queue, the checks the delivery engine makes before each message goes, and the send rate.
import type { AnyConnection } from "~/db/connection.server";
import type { ClaimCheck, ClaimedDelivery, ClaimOptions, SendRate, SendRateBucket } from "./rows";

export type ClaimsStore = {
  /**
   * Claims up to `limit` due rows of one campaign, oldest due first, sorted by seq. Rows whose
   * address is on the tenant's suppression list are ended as "suppressed" in the same transaction
   * and left out, so fewer rows may come back than were due.
   */
  claimBatch(connection: AnyConnection, options: ClaimOptions): Promise<ClaimedDelivery[]>;

  /** The earliest time a pending row of an active campaign becomes claimable (null: none left). */
  nextDueAt(connection: AnyConnection, campaignId: string): Promise<number | null>;

  /**
   * Whether a claimed row is still this claim's: pending, with its attempt number, its lease
   * running past `until`, and its address not suppressed since the claim (an unsubscribe while the
   * batch waited for a connection: the row goes back to the queue, and its next claim ends it as
   * suppressed). Asked before each message is handed to a channel, so the check it returns is
   * synchronous, as the channel asks it (SendControl.proceed): on SQLite one read; on PostgreSQL
   * the claim's lease as known in memory and the row's last check, at most SEND_CHECK_MAX_AGE_MS
   * old (app/models/deliveries/send-checks.postgres.server.ts).
   */
  claimStillHeld(connection: AnyConnection): Promise<ClaimCheck>;

  /**
   * Whether a claimed row is still this claim's when its text goes (SMTP PIPELINING: the envelope
   * went ahead): pending with its attempt number, its lease running past `until`, its address not
   * suppressed. On PostgreSQL from the latest check whatever its age (a relay waiting for the text
   * is not dropped because a check is old).
   */
  claimHeldForText(connection: AnyConnection): Promise<ClaimCheck>;

  /**
   * Settles once the checks the engine acts on have been read again if they are getting old:
   * called before the text of a message whose envelope went ahead, so the check it gets is a
   * current one. On SQLite the checks are reads made when asked: nothing to do.
   */
  freshenSendChecks(connection: AnyConnection): Promise<void>;

  /**
   * Moves a claimed row's lease on to `until` while it is still this claim's (pending, with its
   * attempt number): the row whose final answer a relay is still working on is not claimed by
   * anyone else meanwhile. True when the lease was moved.
   */
  renewLease(connection: AnyConnection, seq: number, attempts: number, until: number): Promise<boolean>;

  /**
   * The send rate's bucket (DELIVERY_RATE_PER_SECOND) a delivery engine takes from before it
   * claims a batch: on PostgreSQL the channel's row of SendRate, shared with every other instance;
   * on SQLite one of the engine's own, full at first.
   */
  sendRateBucket(connection: AnyConnection, rate: SendRate): SendRateBucket;
};
