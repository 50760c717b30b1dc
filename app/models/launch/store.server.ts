// The launch domain's door: the engine's statements (./contract.ts, engineDoor in
// app/db/engine.server.ts) and the launch itself, written once against them for both engines.
//
// A launch: the campaign's audience written as its delivery rows (one pending row per customer
// the audience WHERE matches), on a connection of the thread that launches (the server's worker
// thread, the CLI, the seed, the bench), and the recovery of launches a crash cut off. The
// audience WHERE must be in the configured engine's dialect (the segment compiler's, or
// launches.nonOpenersWhere).
import type { AnyConnection } from "~/db/connection.server";
import { engineDoor } from "~/db/engine.server";
import type { NewCampaign } from "~/models/campaigns/rows";
import type { LaunchStore } from "~/models/launch/contract";
import { postgresLaunch } from "~/models/launch/postgres.server";
import { type Launch, LAUNCH_SLICE, type LaunchOptions } from "~/models/launch/rows";
import { sqliteLaunch } from "~/models/launch/sqlite.server";
import type { CompiledWhere } from "~/models/segments/audience/rows";

const engine = engineDoor<LaunchStore>({ sqlite: sqliteLaunch, postgres: postgresLaunch });

/**
 * Launches a campaign: one pending delivery row per customer the audience's WHERE matches whose
 * address is not on the tenant's suppression list (those are counted as suppressedAtLaunch), written
 * by INSERT … SELECT (no customer passes through JavaScript) in slices of `slice` rows in customer
 * order, each its own short transaction, so a million-row audience never holds the write lock for
 * seconds. The server drives it in a worker thread (launchCampaignOffThread in
 * app/services/background-work.server.ts), so no request waits for the event loop meanwhile.
 *
 * While the slices are written the campaign stays a Draft marked LAUNCHING, which the delivery job
 * does not send; finish() makes it Active in one step. Its delivery rows get a range of seq numbers
 * reserved up front (as many as the tenant has customers), so a campaign's rows stay contiguous
 * even when two launches run at once, and its log pages by seq. A launch cut off by a crash leaves
 * a LAUNCHING draft that recoverInterrupted() clears.
 */
async function startLaunch(
  connection: AnyConnection,
  c: NewCampaign,
  where: CompiledWhere,
  options: LaunchOptions = {},
): Promise<Launch> {
  engine.checkWhere(where);
  const now = options.now ?? Date.now();
  const slice = options.slice ?? LAUNCH_SLICE;
  // Read before the write lock is taken: customers on the suppression list get no row, and the
  // campaign says how many the launch left out. (An address suppressed while the slices are
  // written is caught by the send's re-check: see claimBatch.)
  const suppressing = await engine.hasSuppressions(connection, c.userId);
  const leftOut = suppressing ? await engine.suppressedInAudience(c.userId, where, connection) : 0;
  const { base, room, existed } = await engine.reserve(connection, c, now);
  const writeSlice = await engine.sliceWriter(connection, { campaignId: c.id, where, suppressing, now });

  let written = 0;
  let done = false;
  const step = async (): Promise<boolean> => {
    if (done) return false;
    const limit = Math.min(slice, room - written);
    const n = limit <= 0 ? 0 : await writeSlice(base + written, limit);
    written += n;
    if (n === 0) done = true;
    return !done;
  };

  return {
    step,
    async finish() {
      while (await step());
      return engine.finish(connection, { campaignId: c.id, existed, written, leftOut, lastSeq: base + written, now });
    },
  };
}

/** A whole launch at once (the seed, the CLI and tests); the server uses launchCampaignOffThread. */
async function launchCampaign(
  connection: AnyConnection,
  c: NewCampaign,
  where: CompiledWhere,
  now = Date.now(),
): Promise<number> {
  return (await startLaunch(connection, c, where, { now })).finish();
}

export const launches = {
  openConnection: engine.openConnection,
  countAudience: engine.countAudience,
  suppressedInAudience: engine.suppressedInAudience,
  nonOpenersWhere: engine.nonOpenersWhere,
  /** Clears launches a crash cut off (see LaunchStore.recoverInterrupted); staleMs defaults to a minute. */
  recoverInterrupted: (connection: AnyConnection, staleMs = 60_000, now = Date.now()) =>
    engine.recoverInterrupted(connection, staleMs, now),
  start: startLaunch,
  launchCampaign,
};

export type { Launch } from "~/models/launch/rows";
