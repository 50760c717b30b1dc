// The delivery engine's checks at the moment a message's text goes after its envelope went ahead
// (SMTP PIPELINING: the envelope with the text of the message before). On SQLite the checks are
// synchronous reads, current when asked; on PostgreSQL they come from memory kept fresh from the
// database (./send-checks.postgres.server.ts).
import { type AnyConnection, isPostgres } from "~/db/connection.server";
import { claimStillHeld } from "~/models/deliveries/claims.server";
import { freshenChecksPg, latestHeldReader } from "~/models/deliveries/send-checks.postgres.server";

/**
 * Settles once the checks the engine acts on have been read again if they are getting old: called
 * before the text of a message whose envelope went ahead, so the check it gets is a current one.
 */
export async function freshenSendChecks(connection: AnyConnection): Promise<void> {
  if (isPostgres(connection)) await freshenChecksPg(connection);
}

/**
 * Whether a claimed row is still this claim's when its text goes: pending with its attempt number,
 * its lease running past `until`, its address not suppressed. On PostgreSQL from the latest check
 * whatever its age (a relay waiting for the text is not dropped because a check is old).
 */
export async function claimHeldForText(
  connection: AnyConnection,
): Promise<(seq: number, attempts: number, until: number) => boolean> {
  if (isPostgres(connection)) return latestHeldReader(connection);
  return claimStillHeld(connection);
}
