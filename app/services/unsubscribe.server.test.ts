// @engines sqlite postgres
// The unsubscribe service against a real SQLite database: what a token's holder sees and may do,
// that looking never changes anything, that unsubscribing twice is one suppression with one event,
// that a token acts on its own tenant's list only, and who may resubscribe from a link.
import { describe, expect, it } from "vitest";
import { createTestUser, segmentTree, useTestDatabase as setUpTestDatabase } from "../../tests/helpers/db";

setUpTestDatabase();

const svc = await import("~/services/unsubscribe.server");
const { unsubscribeToken } = await import("~/services/unsubscribe-token.server");
const { suppressions } = await import("~/models/suppressions/store.server");
const { saveDraft } = await import("~/services/campaigns/drafts.server");
const { deleteCampaign } = await import("~/services/campaigns/controls.server");
const { createSegment } = await import("~/services/segments.server");
const { newId } = await import("~/lib/id");

/** A tenant with one draft campaign, and the token of `email` for it. */
async function tenantWithCampaign(name = "Asha Rao", campaignName = "Diwali offers") {
  const user = await createTestUser(name);
  const segment = await createSegment(user.id, {
    name: `Everyone ${newId()}`,
    description: "",
    tree: segmentTree({ visits: { $gte: 0 } }),
  });
  const campaign = await saveDraft(user.id, {
    name: campaignName,
    subject: "Hello",
    message: "Hi {NAME}",
    description: "",
    segmentId: segment.id,
  });
  const tokenFor = (email: string) => unsubscribeToken({ userId: user.id, campaignId: campaign.id, email });
  return { user, campaign, tokenFor };
}

/** Every character of a token changed in turn to another base64url character. */
function alterations(token: string): string[] {
  return Array.from(token, (c, i) => `${token.slice(0, i)}${c === "A" ? "B" : "A"}${token.slice(i + 1)}`);
}

describe("maskEmail", () => {
  it("keeps the first character of the mailbox and the domain", () => {
    expect(svc.maskEmail("asha.rao@example.com")).toBe("a•••@example.com");
    expect(svc.maskEmail("x@example.in")).toBe("x•••@example.in");
    expect(svc.maskEmail("ünal@example.de")).toBe("ü•••@example.de");
    expect(svc.maskEmail("not-an-address")).toBe("•••");
  });
});

describe("the page's view", () => {
  it("names the sender and the masked address, and looking never suppresses", async () => {
    const { user, tokenFor } = await tenantWithCampaign("Meera Iyer");
    const token = tokenFor("ravi@example.com");
    for (let i = 0; i < 3; i++) {
      expect(await svc.unsubscribeView(token)).toEqual({
        senderName: "Meera Iyer",
        maskedEmail: "r•••@example.com",
        state: "subscribed",
        reason: null,
      });
    }
    expect(await suppressions.findSuppression(user.id, "ravi@example.com")).toBeNull();
    expect(await suppressions.suppressionEventsOf(user.id, "ravi@example.com")).toEqual([]);
  });

  it("is null for an altered token, and for the token of a tenant that does not exist", async () => {
    const { tokenFor } = await tenantWithCampaign();
    const token = tokenFor("ravi@example.com");
    for (const altered of alterations(token)) expect(await svc.unsubscribeView(altered)).toBeNull();
    expect(await svc.unsubscribeView("")).toBeNull();
    expect(await svc.unsubscribeView(`${token}A`)).toBeNull();
    const ghost = unsubscribeToken({ userId: newId(), campaignId: newId(), email: "ravi@example.com" });
    expect(await svc.unsubscribeView(ghost)).toBeNull();
    expect(await svc.unsubscribeWithToken(ghost)).toBeNull();
    expect(await svc.resubscribeWithToken(ghost)).toBeNull();
  });
});

describe("unsubscribeWithToken", () => {
  it("suppresses the address as unsubscribed with the campaign's id and name, once however often it is asked", async () => {
    const { user, campaign, tokenFor } = await tenantWithCampaign("Asha Rao", "Monsoon sale");
    const token = tokenFor("Ravi.Kumar@Example.com");
    const first = await svc.unsubscribeWithToken(token);
    expect(first).toMatchObject({ state: "unsubscribed", reason: null, maskedEmail: "r•••@example.com" });
    const entry = await suppressions.findSuppression(user.id, "ravi.kumar@example.com");
    expect(entry).toMatchObject({
      email: "ravi.kumar@example.com",
      reason: "unsubscribed",
      campaignId: campaign.id,
      campaignName: "Monsoon sale",
    });
    expect(await svc.unsubscribeWithToken(token)).toEqual(first);
    expect(await suppressions.findSuppression(user.id, "ravi.kumar@example.com")).toEqual(entry);
    const events = await suppressions.suppressionEventsOf(user.id, "ravi.kumar@example.com");
    expect(events.map((e) => [e.action, e.reason, e.campaignName])).toEqual([
      ["suppressed", "unsubscribed", "Monsoon sale"],
    ]);
    expect(await svc.unsubscribeView(token)).toEqual(first);
  });

  it("keeps going when the campaign was deleted since: its id stays, its name is empty", async () => {
    const { user, campaign, tokenFor } = await tenantWithCampaign();
    await deleteCampaign(user.id, campaign.id);
    expect(await svc.unsubscribeWithToken(tokenFor("gone@example.com"))).toMatchObject({ state: "unsubscribed" });
    expect(await suppressions.findSuppression(user.id, "gone@example.com")).toMatchObject({
      reason: "unsubscribed",
      campaignId: campaign.id,
      campaignName: "",
    });
  });

  it("leaves an address suppressed for another reason as it was", async () => {
    const { user, tokenFor } = await tenantWithCampaign();
    await suppressions.addSuppressions(user.id, [{ email: "bounced@example.com", reason: "hard-bounced" }]);
    expect(await svc.unsubscribeWithToken(tokenFor("bounced@example.com"))).toMatchObject({
      state: "blocked",
      reason: "hard-bounced",
    });
    expect(await suppressions.findSuppression(user.id, "bounced@example.com")).toMatchObject({
      reason: "hard-bounced",
    });
    expect(await suppressions.suppressionEventsOf(user.id, "bounced@example.com")).toHaveLength(1);
  });

  it("changes nothing for an altered token", async () => {
    const { user, tokenFor } = await tenantWithCampaign();
    const token = tokenFor("ravi@example.com");
    for (const altered of alterations(token).slice(0, 40)) expect(await svc.unsubscribeWithToken(altered)).toBeNull();
    expect(await suppressions.countSuppressions(user.id)).toBe(0);
  });
});

describe("tenants", () => {
  it("a token of tenant A acts on A's list only, whatever B's list holds for the same address", async () => {
    const a = await tenantWithCampaign("Tenant A");
    const b = await tenantWithCampaign("Tenant B");
    const email = "shared@example.com";
    await suppressions.addSuppressions(b.user.id, [{ email, reason: "manual" }]);

    expect(await svc.unsubscribeView(a.tokenFor(email))).toMatchObject({ senderName: "Tenant A", state: "subscribed" });
    await svc.unsubscribeWithToken(a.tokenFor(email));
    expect(await suppressions.findSuppression(a.user.id, email)).toMatchObject({ reason: "unsubscribed" });
    expect(await suppressions.findSuppression(b.user.id, email)).toMatchObject({ reason: "manual" });

    // B's manual entry stays when A's recipient resubscribes, and A's when B's recipient is refused.
    expect((await svc.resubscribeWithToken(b.tokenFor(email)))?.outcome).toBe("refused");
    expect((await svc.resubscribeWithToken(a.tokenFor(email)))?.outcome).toBe("resubscribed");
    expect(await suppressions.findSuppression(a.user.id, email)).toBeNull();
    expect(await suppressions.findSuppression(b.user.id, email)).toMatchObject({ reason: "manual" });
  });

  it("a token acts for the tenant sealed in it: another tenant's campaign id in it gets no name from that tenant", async () => {
    const a = await tenantWithCampaign();
    const b = await tenantWithCampaign();
    const token = a.tokenFor("ravi@example.com");
    // Sealed for B (with A's campaign id): a different token, acting on B's list only.
    const other = unsubscribeToken({ userId: b.user.id, campaignId: a.campaign.id, email: "ravi@example.com" });
    expect(other).not.toBe(token);
    await svc.unsubscribeWithToken(other);
    expect(await suppressions.findSuppression(a.user.id, "ravi@example.com")).toBeNull();
    expect(await suppressions.findSuppression(b.user.id, "ravi@example.com")).toMatchObject({
      campaignId: a.campaign.id,
      // A's campaign is not one of B's: its name is not read across tenants.
      campaignName: "",
    });
  });
});

describe("resubscribeWithToken", () => {
  it("takes an unsubscribed address off the list and records it; a second time there is nothing to do", async () => {
    const { user, tokenFor } = await tenantWithCampaign();
    const token = tokenFor("ravi@example.com");
    await svc.unsubscribeWithToken(token);
    const done = await svc.resubscribeWithToken(token);
    expect(done).toEqual({
      outcome: "resubscribed",
      view: expect.objectContaining({ state: "subscribed", reason: null }),
    });
    expect(await suppressions.findSuppression(user.id, "ravi@example.com")).toBeNull();
    const events = await suppressions.suppressionEventsOf(user.id, "ravi@example.com");
    expect(events.map((e) => e.action).sort()).toEqual(["resubscribed", "suppressed"]);
    expect((await svc.resubscribeWithToken(token))?.outcome).toBe("not-suppressed");
    expect(await suppressions.suppressionEventsOf(user.id, "ravi@example.com")).toHaveLength(2);
    // And the recipient may unsubscribe again: a new entry, a third event.
    await svc.unsubscribeWithToken(token);
    expect(await suppressions.findSuppression(user.id, "ravi@example.com")).toMatchObject({ reason: "unsubscribed" });
    expect(await suppressions.suppressionEventsOf(user.id, "ravi@example.com")).toHaveLength(3);
  });

  it("refuses an address that bounced, complained or was added by hand, and leaves it on the list", async () => {
    const { user, tokenFor } = await tenantWithCampaign();
    for (const reason of ["hard-bounced", "complained", "manual"] as const) {
      const email = `${reason}@example.com`;
      await suppressions.addSuppressions(user.id, [{ email, reason }]);
      const done = await svc.resubscribeWithToken(tokenFor(email));
      expect(done).toEqual({ outcome: "refused", view: expect.objectContaining({ state: "blocked", reason }) });
      expect(await suppressions.findSuppression(user.id, email)).toMatchObject({ reason });
      expect(await suppressions.suppressionEventsOf(user.id, email)).toHaveLength(1);
    }
  });
});
