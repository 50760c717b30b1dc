// Campaigns launched straight through the launch door for the delivery and suppression tests
// (app/services/sending/delivery-rows.server.test.ts, engine.server.test.ts, and
// app/services/campaign*-suppression.server.test.ts): a segment's conditions as a tree, the launch
// of a campaign to them, the tenant's addresses and the campaign's delivery rows.
import type { AnyConnection } from "~/db/connection.server";
import { db } from "~/db/prisma.server";
import { newId } from "~/lib/id";
import { type SegmentNode } from "~/lib/segments";
import { parseConditions } from "~/lib/segment-parse";
import { launches } from "~/models/launch/store.server";
import { segmentAudience } from "~/models/segments/audience/store.server";
import { sqlRows } from "./sql";

/** A segment's conditions as the tree the audience is compiled from. */
export function conditionsTree(conditions: unknown): SegmentNode {
  const parsed = parseConditions(conditions);
  if (!parsed.ok) throw new Error(parsed.message);
  return parsed.tree;
}

/** Every customer of the tenant. */
export const everyone = conditionsTree({ totalSpend: { $gte: 0 } });

/** The campaign's delivery rows, by seq. */
export function deliveryRows(connection: AnyConnection, campaignId: string) {
  return sqlRows<{
    seq: number;
    customerId: string;
    userId: string;
    status: string;
    attempts: number;
    retries: number;
    details: string;
    openedAt: number | null;
    clickedAt: number | null;
  }>(connection, `SELECT * FROM "Delivery" WHERE "campaignId" = ? ORDER BY "seq"`, [campaignId]);
}

/** Launches a campaign to the tenant's customers that meet `conditions`, from a stored segment: its id and audience size. */
export async function launchTo(
  connection: AnyConnection,
  userId: string,
  conditions = everyone,
  name = "Diwali offer",
): Promise<{ id: string; size: number }> {
  const segmentId = newId();
  await db().segment.create({ data: { id: segmentId, userId, name: "Everyone", conditions: "{}" } });
  return launchFor(connection, userId, conditions, name, segmentId);
}

/** Launches a campaign to the customers that meet `conditions` with no stored segment behind it (one deleted since). */
export function launchWithoutSegment(
  connection: AnyConnection,
  userId: string,
  conditions = everyone,
  name = "Diwali offer",
): Promise<{ id: string; size: number }> {
  return launchFor(connection, userId, conditions, name, null);
}

async function launchFor(
  connection: AnyConnection,
  userId: string,
  conditions: SegmentNode,
  name: string,
  segmentId: string | null,
): Promise<{ id: string; size: number }> {
  const id = newId();
  const size = await launches.launchCampaign(
    connection,
    {
      id,
      userId,
      segmentId,
      segmentName: "Everyone",
      name,
      subject: "Hello {NAME}",
      description: "",
      message: "Hi {NAME}, 10% off",
    },
    segmentAudience.audienceWhere(userId, conditions),
  );
  return { id, size };
}

/** The tenant's customers' addresses in creation order. */
export async function customerEmails(
  connection: AnyConnection,
  userId: string,
  limit: number,
  offset = 0,
): Promise<string[]> {
  const rows = await sqlRows<{ email: string }>(
    connection,
    `SELECT "email" FROM "Customer" WHERE "userId" = ? ORDER BY "id" LIMIT ? OFFSET ?`,
    [userId, limit, offset],
  );
  return rows.map((r) => r.email);
}

/** The campaign's rows with the address each went to, by seq. */
export function deliveryAddresses(connection: AnyConnection, campaignId: string) {
  return sqlRows<{ seq: number; email: string; status: string; details: string }>(
    connection,
    `SELECT "seq", "email", "status", "details" FROM "Delivery" WHERE "campaignId" = ? ORDER BY "seq"`,
    [campaignId],
  );
}
