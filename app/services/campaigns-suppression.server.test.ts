// The suppression list at launch and in the send, on a real SQLite database: a launch leaves
// suppressed customers out and counts them, the wizard's reach says so, the send re-checks each
// claimed row (an address suppressed mid-campaign gets nothing more and its row ends Suppressed), a
// bounce suppresses its address, the counters and the log add up, and one tenant's list never
// touches another's campaigns.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestUser, segmentTree, useTestDatabase } from "../../tests/helpers/db";

// eslint-disable-next-line react-hooks/rules-of-hooks -- a test helper named use*, not a React hook
const { file } = useTestDatabase();

import { openSqlite, type Sqlite } from "~/db/sqlite.server";
import { audienceReachText } from "~/lib/campaigns";
import { newId } from "~/lib/id";
import { type CampaignRow, CAMPAIGN_COLUMNS } from "~/models/campaigns.server";
import { launchCampaign } from "~/models/deliveries/launch.server";
import { addSuppressions } from "~/models/suppressions.server";
import { compileSegmentWhere } from "~/models/segments/compile.server";
import { sqlAudienceCount } from "~/models/segments/audience.server";
import { audienceReach, getCampaign } from "~/services/campaigns.server";
import { createSegment } from "~/services/segments.server";
import { seedTenant } from "~/services/seed.server";

let sqlite: Sqlite;
let tenant: { id: string };
let other: { id: string };
const everyone = segmentTree({ totalSpend: { $gte: 0 } });

function campaign(id: string): CampaignRow & { suppressedCount: number; suppressedAtLaunch: number } {
  const row = sqlite
    .prepare<unknown[], CampaignRow & { suppressedCount: number; suppressedAtLaunch: number }>(
      `SELECT ${CAMPAIGN_COLUMNS}, "suppressedCount", "suppressedAtLaunch" FROM "Campaign" WHERE "id" = ?`,
    )
    .get(id);
  if (!row) throw new Error(`No campaign ${id}`);
  return row;
}

function emailsOf(userId: string, limit: number, offset = 0): string[] {
  return sqlite
    .prepare<unknown[], string>(`SELECT "email" FROM "Customer" WHERE "userId" = ? ORDER BY "rowid" LIMIT ? OFFSET ?`)
    .pluck()
    .all(userId, limit, offset);
}

function rowsOf(campaignId: string) {
  return sqlite
    .prepare<unknown[], { seq: number; email: string; status: string; details: string }>(
      `SELECT "seq", "email", "status", "details" FROM "Delivery" WHERE "campaignId" = ? ORDER BY "seq"`,
    )
    .all(campaignId);
}

/** Every row is counted once, and the counters are the rows by status. */
function expectCountersAddUp(id: string) {
  const c = campaign(id);
  const byStatus = Object.fromEntries(
    sqlite
      .prepare<unknown[], { status: string; n: number }>(
        `SELECT "status", count(*) AS n FROM "Delivery" WHERE "campaignId" = ? GROUP BY "status"`,
      )
      .all(id)
      .map((r) => [r.status, r.n]),
  );
  expect({
    pending: c.pendingCount,
    sent: c.sentCount,
    delivered: c.deliveredCount,
    failed: c.failedCount,
    bounced: c.bouncedCount,
    cancelled: c.cancelledCount,
    suppressed: c.suppressedCount,
  }).toEqual({
    pending: byStatus.pending ?? 0,
    sent: byStatus.sent ?? 0,
    delivered: byStatus.delivered ?? 0,
    failed: byStatus.failed ?? 0,
    bounced: byStatus.bounced ?? 0,
    cancelled: byStatus.cancelled ?? 0,
    suppressed: byStatus.suppressed ?? 0,
  });
  expect(
    c.pendingCount +
      c.sentCount +
      c.deliveredCount +
      c.failedCount +
      c.bouncedCount +
      c.cancelledCount +
      c.suppressedCount,
  ).toBe(c.audienceSize);
}

async function launch(userId: string, tree = everyone, name = "Diwali offer") {
  const id = newId();
  const size = await launchCampaign(
    sqlite,
    {
      id,
      userId,
      segmentId: null,
      segmentName: "Everyone",
      name,
      subject: "Hello {NAME}",
      description: "",
      message: "Hi {NAME}, 10% off",
    },
    compileSegmentWhere(userId, tree),
  );
  return { id, size };
}

beforeAll(async () => {
  tenant = await createTestUser("Suppressing sender");
  other = await createTestUser("Other tenant");
  await seedTenant(tenant.id, { customers: 300, orders: 0, seed: 21, file });
  await seedTenant(other.id, { customers: 60, orders: 0, seed: 22, file });
  sqlite = openSqlite(file);
});
afterAll(() => sqlite.close());

describe("a launch and the suppression list", () => {
  it("writes every customer's row while the tenant has no suppressions, and says nobody was left out", async () => {
    const { id, size } = await launch(other.id);
    expect(size).toBe(60);
    expect(campaign(id)).toMatchObject({ audienceSize: 60, pendingCount: 60, suppressedAtLaunch: 0 });
    expect((await getCampaign(other.id, id)).suppressedAtLaunch).toBe(0);
  });

  it("leaves suppressed customers out, counts them, and the reach the wizard shows agrees", async () => {
    const rich = segmentTree({ totalSpend: { $gt: 20000 } });
    const inSegment = await sqlAudienceCount(tenant.id, rich);
    const everyEmail = emailsOf(tenant.id, 300);
    const richEmails = new Set(
      sqlite
        .prepare<unknown[], string>(`SELECT "email" FROM "Customer" WHERE "userId" = ? AND "totalSpendPaise" > ?`)
        .pluck()
        .all(tenant.id, 20000 * 100),
    );
    expect(richEmails.size).toBe(inSegment);
    // Five of the segment and five outside it, one of them written in capitals (the list is lower case).
    const suppressedIn = everyEmail.filter((e) => richEmails.has(e)).slice(0, 5);
    const suppressedOut = everyEmail.filter((e) => !richEmails.has(e)).slice(0, 5);
    expect(suppressedIn).toHaveLength(5);
    await addSuppressions(tenant.id, [
      ...suppressedIn.map((email, i) => ({ email: i === 0 ? email.toUpperCase() : email, reason: "manual" as const })),
      ...suppressedOut.map((email) => ({ email, reason: "unsubscribed" as const })),
      { email: "nobody-here@example.com", reason: "manual" },
    ]);
    // Another tenant's list is its own: the same addresses there change nothing here, and back.
    await addSuppressions(other.id, [{ email: everyEmail[10], reason: "manual" }]);

    const segment = await createSegment(tenant.id, { name: "Big spenders", description: "", tree: rich });
    const reach = await audienceReach(tenant.id, segment.id);
    expect(reach).toEqual({ audience: inSegment, suppressed: 5, receivers: inSegment - 5 });
    expect(audienceReachText(reach)).toBe(
      `${(inSegment - 5).toLocaleString("en-IN")} of ${inSegment.toLocaleString("en-IN")} will receive it; 5 suppressed`,
    );
    await expect(audienceReach(other.id, segment.id)).rejects.toMatchObject({ status: 404 });

    const { id, size } = await launch(tenant.id, rich);
    expect(size).toBe(inSegment - 5);
    expect(campaign(id)).toMatchObject({
      audienceSize: inSegment - 5,
      pendingCount: inSegment - 5,
      suppressedAtLaunch: 5,
      suppressedCount: 0,
    });
    const written = rowsOf(id).map((r) => r.email);
    expect(written).toHaveLength(inSegment - 5);
    for (const email of suppressedIn) expect(written).not.toContain(email);
    expect((await getCampaign(tenant.id, id)).suppressedAtLaunch).toBe(5);
    expectCountersAddUp(id);

    // The other tenant suppressed one of this tenant's addresses: its own launch is not affected
    // by this tenant's ten, and this tenant's launch above was not affected by its one.
    const theirs = await launch(other.id);
    expect(theirs.size).toBe(60 - (emailsOf(other.id, 60).includes(everyEmail[10]) ? 1 : 0));
  });

  it("says the whole audience when nobody is suppressed, with en-IN grouping", () => {
    expect(audienceReachText({ audience: 1234567, suppressed: 0, receivers: 1234567 })).toBe(
      "12,34,567 customers will receive it",
    );
    expect(audienceReachText({ audience: 1, suppressed: 0, receivers: 1 })).toBe("1 customer will receive it");
    expect(audienceReachText({ audience: 3271, suppressed: 151, receivers: 3120 })).toBe(
      "3,120 of 3,271 will receive it; 151 suppressed",
    );
  });
});
