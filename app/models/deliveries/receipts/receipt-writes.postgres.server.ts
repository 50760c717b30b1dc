// Writing an applied batch of receipts, and the addresses it suppresses, back on PostgreSQL (for
// ./postgres.server.ts): the changed rows, the events kept, the customers' engagement and the
// campaigns' counters, each one statement over arrays, whatever the batch's size.
import type pg from "pg";
import { query } from "~/db/postgres.server";
import { suppressInPostgresTransaction } from "~/models/suppressions/store.server";
import {
  type AddressToSuppress,
  EventStoredMeanwhile,
  latestEngagement,
  type ReceiptPlan,
  type ReceiptRow,
  suppressionsByTenant,
} from "./rows";

/**
 * A batch changed a row it read without a lock after another transaction changed it: applied
 * again with its rows locked.
 */
export class StaleRows extends Error {
  constructor() {
    super("A delivery row changed while its receipts were applied");
  }
}

/** A Delivery row as a batch read it, with the version (xmin) its write checks. */
export type VersionedRow = ReceiptRow & { version: string };

/**
 * Puts addresses on their tenant's suppression list with the campaign they came from, inside the
 * caller's transaction. An address on the list already keeps its entry.
 */
export async function suppressAddresses(
  client: pg.PoolClient,
  entries: readonly AddressToSuppress[],
  now: number,
): Promise<void> {
  const withAddress = entries.filter((e) => e.email);
  if (withAddress.length === 0) return;
  const names = new Map(
    (
      await query<{ id: string; name: string }>(
        client,
        `SELECT "id", "name" FROM "Campaign" WHERE "id" = ANY($1::text[])`,
        [[...new Set(withAddress.map((e) => e.campaignId))]],
      )
    ).map((r) => [r.id, r.name]),
  );
  const byTenant = suppressionsByTenant(withAddress, (campaignId) => names.get(campaignId) ?? "");
  for (const [userId, list] of byTenant) await suppressInPostgresTransaction(client, userId, list, now);
}

/** Writes a batch's plan back: each changed row only if it is still the version the rules read. */
export async function writePlan(
  client: pg.PoolClient,
  plan: ReceiptPlan,
  read: Map<number, VersionedRow>,
): Promise<void> {
  if (plan.rows.length > 0) {
    // Each row only if it is still the version the rules read (under a lock it is). As one JSON
    // value, with the details only where they changed; in seq order, the order rows are locked in.
    const r = [...plan.rows].sort((a, b) => a.seq - b.seq);
    const { rowCount } = await client.query(
      `UPDATE "Delivery" "d" SET "status" = "u"."status", "details" = coalesce("u"."details", "d"."details"),
         "updatedAt" = "u"."updatedAt", "openedAt" = "u"."openedAt", "clickedAt" = "u"."clickedAt",
         "pixelOpenedAt" = "u"."pixelOpenedAt"
       FROM json_to_recordset($2::json) AS "u"("seq" int, "version" xid, "status" text, "details" text, "updatedAt" bigint,
         "openedAt" bigint, "clickedAt" bigint, "pixelOpenedAt" bigint)
       WHERE "d"."seq" = ANY($1::int[]) AND "d"."seq" = "u"."seq" AND "d"."xmin" = "u"."version"`,
      [
        r.map((x) => x.seq),
        JSON.stringify(
          r.map((x) => {
            const before = read.get(x.seq);
            return {
              seq: x.seq,
              version: before?.version ?? "0",
              status: x.status,
              details: before?.details === x.details ? null : x.details,
              updatedAt: x.updatedAt,
              openedAt: x.openedAt,
              clickedAt: x.clickedAt,
              pixelOpenedAt: x.pixelOpenedAt,
            };
          }),
        ),
      ],
    );
    if (rowCount !== r.length) throw new StaleRows();
    // Each customer's last open and click (~/models/customer-activity), in customer id order; a
    // customer deleted since the send has none to keep.
    const e = latestEngagement(plan.rows);
    if (e.length > 0) {
      await client.query(
        `INSERT INTO "CustomerActivity" ("customerId", "userId", "lastOpenAt", "lastClickAt")
         SELECT "x"."c", "x"."u", "x"."o", "x"."k" FROM unnest($1::text[], $2::text[], $3::bigint[], $4::bigint[]) AS "x"("c", "u", "o", "k")
         WHERE EXISTS (SELECT 1 FROM "Customer" WHERE "id" = "x"."c")
         ON CONFLICT ("customerId") DO UPDATE SET
           "lastOpenAt" = GREATEST("CustomerActivity"."lastOpenAt", excluded."lastOpenAt"),
           "lastClickAt" = GREATEST("CustomerActivity"."lastClickAt", excluded."lastClickAt")`,
        [e.map((x) => x.customerId), e.map((x) => x.userId), e.map((x) => x.lastOpenAt), e.map((x) => x.lastClickAt)],
      );
    }
  }
  if (plan.events.length > 0) {
    // An event is counted only by the transaction that stored it: (source, eventId) is unique, and
    // an insert that meets a copy another transaction stored (or is storing: it waits for its
    // commit) stores nothing, so the batch is rolled back and applied again, where it is seen.
    const e = plan.events;
    const { rowCount } = await client.query(
      `INSERT INTO "DeliveryEvent" ("userId", "campaignId", "seq", "customerId", "email", "kind", "machine", "link", "source", "eventId", "details", "at")
       SELECT * FROM unnest($1::text[], $2::text[], $3::int[], $4::text[], $5::text[], $6::text[], $7::boolean[], $8::int[],
         $9::text[], $10::text[], $11::text[], $12::bigint[])
       ON CONFLICT ("source", "eventId") DO NOTHING`,
      [
        e.map((x) => x.userId),
        e.map((x) => x.campaignId),
        e.map((x) => x.seq),
        e.map((x) => x.customerId),
        e.map((x) => x.email),
        e.map((x) => x.kind),
        e.map((x) => x.machine),
        e.map((x) => x.link),
        e.map((x) => x.source),
        e.map((x) => x.eventId),
        e.map((x) => x.details),
        e.map((x) => x.at),
      ],
    );
    if (rowCount !== e.length) throw new EventStoredMeanwhile();
  }
  if (plan.deltas.size > 0) {
    // In id order: two instances updating the same campaigns take their locks in one order.
    const d = [...plan.deltas].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    const column = (pick: (delta: (typeof d)[number][1]) => number) => d.map(([, delta]) => pick(delta));
    await client.query(
      `UPDATE "Campaign" "c" SET "pendingCount" = "c"."pendingCount" + "x"."pending", "sentCount" = "c"."sentCount" + "x"."sent",
         "deliveredCount" = "c"."deliveredCount" + "x"."delivered", "failedCount" = "c"."failedCount" + "x"."failed",
         "bouncedCount" = "c"."bouncedCount" + "x"."bounced", "complainedCount" = "c"."complainedCount" + "x"."complained",
         "openedCount" = "c"."openedCount" + "x"."opened", "clickedCount" = "c"."clickedCount" + "x"."clicked",
         "opensTotal" = "c"."opensTotal" + "x"."opensTotal", "clicksTotal" = "c"."clicksTotal" + "x"."clicksTotal",
         "machineOpenCount" = "c"."machineOpenCount" + "x"."machineOpens",
         "machineClickCount" = "c"."machineClickCount" + "x"."machineClicks",
         "softBounceCount" = "c"."softBounceCount" + "x"."softBounces", "updatedAt" = GREATEST("c"."updatedAt", $15)
       FROM unnest($1::text[], $2::int[], $3::int[], $4::int[], $5::int[], $6::int[], $7::int[], $8::int[], $9::int[],
         $10::int[], $11::int[], $12::int[], $13::int[], $14::int[])
         AS "x"("id", "pending", "sent", "delivered", "failed", "bounced", "complained", "opened", "clicked", "opensTotal",
           "clicksTotal", "machineOpens", "machineClicks", "softBounces")
       WHERE "c"."id" = "x"."id"`,
      [
        d.map(([id]) => id),
        column((x) => x.pending),
        column((x) => x.sent),
        column((x) => x.delivered),
        column((x) => x.failed),
        column((x) => x.bounced),
        column((x) => x.complained),
        column((x) => x.opened),
        column((x) => x.clicked),
        column((x) => x.opensTotal),
        column((x) => x.clicksTotal),
        column((x) => x.machineOpens),
        column((x) => x.machineClicks),
        column((x) => x.softBounces),
        new Date(plan.latest),
      ],
    );
  }
  // A bounce or complaint puts its address on the tenant's suppression list, with the row that says so.
  await suppressAddresses(client, plan.suppress, Date.now());
}
