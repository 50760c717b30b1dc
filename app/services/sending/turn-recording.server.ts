// The channel's final answers of one event-loop turn (several connections answer in the same
// turn), recorded together when the turn's I/O has been handled: one transaction a campaign
// instead of one a message (for the delivery engine, engine.server.ts). Recorded before the next
// turn reads any answer, so before any message handed over after them has gone.
import type { SendOutcome } from "~/models/deliveries/receipts/rows";
import { deliveryReceipts } from "~/models/deliveries/receipts/store.server";
import type { AnyConnection } from "~/models/transaction/store.server";
import type { EngineEvent } from "~/services/sending/engine-settings.server";

type Answer = { outcome: SendOutcome; recorded: () => void; failed: () => void };

export function turnRecorder(options: {
  connection: AnyConnection;
  now: () => number;
  emit: (event: EngineEvent) => void;
}) {
  const { connection, now, emit } = options;
  let answersOfTurn = new Map<string, Answer[]>();
  let turnRecorded: Promise<void> | null = null;
  // Turns whose answers are being written. On PostgreSQL a write is a round trip that outlives the
  // turn that started it: until it commits, those answers are not recorded either.
  const turnsWriting = new Set<Promise<void>>();
  const recordTurn = async (byCampaign: Map<string, Answer[]>) => {
    for (const [campaignId, answers] of byCampaign) {
      try {
        await deliveryReceipts.recordOutcomes(
          connection,
          campaignId,
          answers.map((a) => a.outcome),
          now(),
        );
        for (const a of answers) a.recorded();
      } catch (error) {
        // Left to their batch's last pass, which records them with the rest.
        for (const a of answers) a.failed();
        emit({
          type: "error",
          message: `Recording messages of campaign ${campaignId} failed: ${(error as Error).message}`,
        });
      }
    }
  };
  return {
    /** Queues a final answer for this turn's transaction; resolves once it has been written (or failed). */
    record(campaignId: string, outcome: SendOutcome, recorded: () => void, failed: () => void): Promise<void> {
      let answers = answersOfTurn.get(campaignId);
      if (!answers) answersOfTurn.set(campaignId, (answers = []));
      answers.push({ outcome, recorded, failed });
      turnRecorded ??= new Promise<void>((resolve) =>
        setImmediate(() => {
          const byCampaign = answersOfTurn;
          answersOfTurn = new Map();
          turnRecorded = null;
          // Settles even if reporting a failure throws, so no sender waits for it forever.
          const writing = recordTurn(byCampaign).then(
            () => undefined,
            () => undefined,
          );
          turnsWriting.add(writing);
          void writing.then(() => {
            turnsWriting.delete(writing);
            resolve();
          });
        }),
      );
      return turnRecorded;
    },
    /** Every answer given so far written: the turn still gathering answers and those being written. */
    async allWritten(): Promise<void> {
      await Promise.all([turnRecorded, ...turnsWriting]);
    },
  };
}
