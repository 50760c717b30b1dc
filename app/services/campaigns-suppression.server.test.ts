// @engines sqlite postgres
// The suppression list at launch, on a real database (SQLite, and PostgreSQL in its project): a
// launch leaves suppressed customers out and counts them, the wizard's reach says so, and a
// segment that is all suppressed is refused. In the send: campaign-send-suppression.server.test.ts.
import { describe, expect, it } from "vitest";
import { segmentTree, useTestConnection, useTestDatabase } from "../../tests/helpers/db";
import { seededTenant, suppressionTenants } from "../../tests/helpers/seeded-tenants";
import { sqlRows, sqlValue } from "../../tests/helpers/sql";

// eslint-disable-next-line react-hooks/rules-of-hooks -- a test helper named use*, not a React hook
useTestDatabase();
// eslint-disable-next-line react-hooks/rules-of-hooks -- a test helper named use*, not a React hook
const connection = useTestConnection();

import { audienceReachText, LAUNCHED, launchedMessage } from "~/lib/campaigns";
import { suppressions } from "~/models/suppressions/store.server";
import { segmentAudience } from "~/models/segments/audience/store.server";
import { launch as launchCampaignFor } from "~/services/campaigns/launch.server";
import { ALL_SUPPRESSED } from "~/services/campaigns/reach.server";
import { audienceReach } from "~/services/campaigns/reach.server";
import { getCampaign } from "~/services/campaigns/views.server";
import { createSegment } from "~/services/segments.server";

const { tenant, other, campaign, emailsOf, rowsOf, expectCountersAddUp, launch } = suppressionTenants(connection);

describe("a launch and the suppression list", () => {
  it("writes every customer's row while the tenant has no suppressions, and says nobody was left out", async () => {
    const { id, size } = await launch(other.id);
    expect(size).toBe(60);
    expect(await campaign(id)).toMatchObject({ audienceSize: 60, pendingCount: 60, suppressedAtLaunch: 0 });
    expect((await getCampaign(other.id, id)).suppressedAtLaunch).toBe(0);
  });

  it("leaves suppressed customers out, counts them, and the reach the wizard shows agrees", async () => {
    const rich = segmentTree({ totalSpend: { $gt: 20000 } });
    const inSegment = await segmentAudience.sqlAudienceCount(tenant.id, rich);
    const everyEmail = await emailsOf(tenant.id, 300);
    const richEmails = new Set(
      (
        await sqlRows<{ email: string }>(
          connection(),
          `SELECT "email" FROM "Customer" WHERE "userId" = ? AND "totalSpendPaise" > ?`,
          [tenant.id, 20000 * 100],
        )
      ).map((r) => r.email),
    );
    expect(richEmails.size).toBe(inSegment);
    // Five of the segment and five outside it, one of them written in capitals (the list is lower case).
    const suppressedIn = everyEmail.filter((e) => richEmails.has(e)).slice(0, 5);
    const suppressedOut = everyEmail.filter((e) => !richEmails.has(e)).slice(0, 5);
    expect(suppressedIn).toHaveLength(5);
    await suppressions.addSuppressions(tenant.id, [
      ...suppressedIn.map((email, i) => ({ email: i === 0 ? email.toUpperCase() : email, reason: "manual" as const })),
      ...suppressedOut.map((email) => ({ email, reason: "unsubscribed" as const })),
      { email: "nobody-here@example.com", reason: "manual" },
    ]);
    // Another tenant's list is its own: the same addresses there change nothing here, and back.
    await suppressions.addSuppressions(other.id, [{ email: everyEmail[10], reason: "manual" }]);

    const segment = await createSegment(tenant.id, { name: "Big spenders", description: "", tree: rich });
    const reach = await audienceReach(tenant.id, segment.id);
    expect(reach).toEqual({ audience: inSegment, suppressed: 5, receivers: inSegment - 5 });
    expect(audienceReachText(reach)).toBe(
      `${(inSegment - 5).toLocaleString("en-IN")} of ${inSegment.toLocaleString("en-IN")} will receive it; 5 suppressed`,
    );
    await expect(audienceReach(other.id, segment.id)).rejects.toMatchObject({ status: 404 });

    const { id, size } = await launch(tenant.id, rich);
    expect(size).toBe(inSegment - 5);
    expect(await campaign(id)).toMatchObject({
      audienceSize: inSegment - 5,
      pendingCount: inSegment - 5,
      suppressedAtLaunch: 5,
      suppressedCount: 0,
    });
    const written = (await rowsOf(id)).map((r) => r.email);
    expect(written).toHaveLength(inSegment - 5);
    for (const email of suppressedIn) expect(written).not.toContain(email);
    expect((await getCampaign(tenant.id, id)).suppressedAtLaunch).toBe(5);
    await expectCountersAddUp(id);

    // The other tenant suppressed one of this tenant's addresses: its own launch is not affected
    // by this tenant's ten, and this tenant's launch above was not affected by its one.
    const theirs = await launch(other.id);
    expect(theirs.size).toBe(60 - ((await emailsOf(other.id, 60)).includes(everyEmail[10]) ? 1 : 0));
  });

  it("a launch through the service says who was left out, and one to a segment that is all suppressed is refused", async () => {
    const sender = await seededTenant("Launch messages", 40, 71);
    const some = segmentTree({ visits: { $gte: 0 } });
    const segment = await createSegment(sender.id, { name: "All of them", description: "", tree: some });
    const emails = await emailsOf(sender.id, 40);
    await suppressions.addSuppressions(sender.id, [
      { email: emails[0], reason: "unsubscribed" },
      { email: emails[1], reason: "manual" },
    ]);
    const content = {
      name: "Weekend Flash Sale",
      subject: "Hi {NAME}",
      description: "",
      message: "Hi {NAME}",
      segmentId: segment.id,
    };
    const launched = await launchCampaignFor(sender.id, content);
    expect(launched).toMatchObject({ audienceSize: 38, suppressedAtLaunch: 2, pendingCount: 38 });
    expect(launchedMessage(launched)).toBe("Campaign launched: 38 of 40 will receive it; 2 suppressed");
    const notice = await sqlValue<string>(
      connection(),
      `SELECT "details" FROM "Notification" WHERE "userId" = ? AND "type" = 'NEW_CAMPAIGN'`,
      [sender.id],
    );
    expect(notice).toBe(
      'Campaign "Weekend Flash Sale" is being sent to 38 customers; 2 on the suppression list were left out.',
    );

    await suppressions.addSuppressions(
      sender.id,
      emails.slice(2).map((email) => ({ email, reason: "manual" as const })),
    );
    expect(await audienceReach(sender.id, segment.id)).toEqual({ audience: 40, suppressed: 40, receivers: 0 });
    await expect(launchCampaignFor(sender.id, { ...content, name: "Nobody" })).rejects.toMatchObject({
      status: 422,
      message: `${ALL_SUPPRESSED}: there is nobody to send the campaign to.`,
    });
  }, 30_000);

  it("says the whole audience when nobody is suppressed, with en-IN grouping", () => {
    expect(launchedMessage({ audienceSize: 3271, suppressedAtLaunch: 0 })).toBe(LAUNCHED);
    expect(launchedMessage({ audienceSize: 3120, suppressedAtLaunch: 151 })).toBe(
      "Campaign launched: 3,120 of 3,271 will receive it; 151 suppressed",
    );
    expect(audienceReachText({ audience: 1234567, suppressed: 0, receivers: 1234567 })).toBe(
      "12,34,567 customers will receive it",
    );
    expect(audienceReachText({ audience: 1, suppressed: 0, receivers: 1 })).toBe("1 customer will receive it");
    expect(audienceReachText({ audience: 3271, suppressed: 151, receivers: 3120 })).toBe(
      "3,120 of 3,271 will receive it; 151 suppressed",
    );
  });
});
