// @engines sqlite postgres
// A campaign's unsubscribes and complaints, and its people as CSV, on a real database (SQLite, and
// PostgreSQL in its project): GET /api/campaigns/{id}, the list and the detail page count who
// unsubscribed through the campaign's link (each once) beside its complaints; GET
// /campaigns/{id}/export?who= streams its recipients (those it was sent to), openers, clickers,
// bouncers or unsubscribers, with a byte order mark when asked for, and only to its owner; the
// completion notification says what each figure is out of.
import { beforeAll, describe, expect, it } from "vitest";
import { launchToEveryone } from "../helpers/campaign-send";
import { createTestUser, useTestConnection, useTestDatabase } from "../helpers/db";
import { args, bearerFor, cookieFor, makeRequest } from "../helpers/requests";
import { sqlRun, sqlValue } from "../helpers/sql";

// eslint-disable-next-line react-hooks/rules-of-hooks -- a test helper named use*, not a React hook
useTestDatabase();
// eslint-disable-next-line react-hooks/rules-of-hooks -- a test helper named use*, not a React hook
const connection = useTestConnection();

const { newId } = await import("~/lib/id");
const { campaigns } = await import("~/models/campaigns/store.server");
const { suppressions } = await import("~/models/suppressions/store.server");
const { createCustomer } = await import("~/services/customers.server");
const { notifyPerformance } = await import("~/services/campaigns/reports.server");
const { unsubscribeToken } = await import("~/services/unsubscribe-token.server");
const { unsubscribeWithToken } = await import("~/services/unsubscribe.server");
const apiDetail = await import("~/routes/api/campaigns-id");
const listPage = await import("~/routes/campaigns");
const detailPage = await import("~/routes/campaigns-detail");
const exportRoute = await import("~/routes/campaigns-export");

let alice: string;
let bob: string;
let campaignId: string;

/** What a page loader threw (a 400 or 404 with its message). */
async function thrown(work: () => Promise<unknown>): Promise<{ status: number; message: unknown }> {
  try {
    await work();
  } catch (error) {
    if (error instanceof Response) return { status: error.status, message: await error.text() };
    const d = error as { data: unknown; init?: { status?: number } };
    return { status: d.init?.status ?? 0, message: d.data };
  }
  throw new Error("it did not stop");
}

async function exported(userId: string, query: string, id = campaignId): Promise<Response> {
  const request = makeRequest(`/campaigns/${id}/export?${query}`, { auth: { cookie: await cookieFor(userId) } });
  return exportRoute.loader(args(request, { id }));
}

const csvLines = async (res: Response) => (await res.text()).trim().split(/\r?\n/);
const emailsOf = (lines: string[]) => lines.slice(1).map((l) => l.split(",")[0]);

beforeAll(async () => {
  alice = (await createTestUser("Alice")).id;
  bob = (await createTestUser("Bob")).id;
  for (const name of ["a", "b", "c", "d", "e", "f"])
    await createCustomer(alice, {
      firstName: name.toUpperCase(),
      lastName: "Rao",
      email: `${name}@example.com`,
      phone: "",
      address: "",
      company: "",
      notes: "",
    });
  campaignId = await launchToEveryone(connection(), alice, { name: "Diwali sale" });
  const at = Date.parse("2026-11-20T10:00:00Z");
  // a opened and clicked, b opened, c got it; d bounced, e complained, f was refused by the channel.
  const rows: [string, string, number | null, number | null, string][] = [
    ["a", "delivered", at, at + 60_000, ""],
    ["b", "delivered", at, null, ""],
    ["c", "delivered", null, null, ""],
    ["d", "bounced", null, null, "550 5.1.1 user unknown"],
    ["e", "complained", null, null, "Reported as spam by the recipient"],
    ["f", "failed", null, null, "554 refused"],
  ];
  for (const [name, status, openedAt, clickedAt, details] of rows)
    await sqlRun(
      connection(),
      `UPDATE "Delivery" SET "status" = ?, "openedAt" = ?, "clickedAt" = ?, "details" = ? WHERE "campaignId" = ? AND "email" = ?`,
      [status, openedAt, clickedAt, details, campaignId, `${name}@example.com`],
    );
  await sqlRun(
    connection(),
    `UPDATE "Campaign" SET "status" = 'Completed', "pendingCount" = 0, "deliveredCount" = 3, "bouncedCount" = 1,
       "complainedCount" = 1, "failedCount" = 1, "openedCount" = 2, "clickedCount" = 1 WHERE "id" = ?`,
    [campaignId],
  );
  // a and c unsubscribe through its link (c twice); a resubscribes later: it still unsubscribed from it.
  // b unsubscribes through another campaign's link: not this one's.
  const unsubscribe = (email: string, id = campaignId) =>
    unsubscribeWithToken(unsubscribeToken({ userId: alice, campaignId: id, email }));
  await unsubscribe("a@example.com");
  await unsubscribe("c@example.com");
  await unsubscribe("c@example.com");
  await suppressions.removeSuppression(alice, "a@example.com");
  await unsubscribe("b@example.com", newId());
});

describe("a campaign's unsubscribes and complaints", () => {
  it("are in GET /api/campaigns/{id}, on the list and on the detail page", async () => {
    const request = makeRequest(`/api/campaigns/${campaignId}`, { auth: { bearer: await bearerFor(alice) } });
    const res = (await apiDetail.loader(args(request, { id: campaignId }))) as Response;
    expect(res.status).toBe(200);
    const body = (await res.json()) as { campaign: { unsubscribedCount: number; complainedCount: number } };
    expect(body.campaign).toMatchObject({ unsubscribedCount: 2, complainedCount: 1 });

    const cookie = await cookieFor(alice);
    const list = await listPage.loader(args(makeRequest("/campaigns", { auth: { cookie } })));
    expect(list.unsubscribed).toEqual({ [campaignId]: 2 });
    expect(list.page.campaigns[0].deliveryStats.complained).toBe(1);

    const detail = await detailPage.loader(
      args(makeRequest(`/campaigns/${campaignId}`, { auth: { cookie } }), { id: campaignId }),
    );
    expect(detail.unsubscribed).toBe(2);
  });
});

describe("a campaign's people as CSV", () => {
  it("exports its recipients, openers, clickers, bouncers and unsubscribers, the rows its figures count", async () => {
    const recipients = await exported(alice, "who=recipients");
    expect(recipients.headers.get("Content-Type")).toBe("text/csv; charset=utf-8");
    expect(recipients.headers.get("Content-Disposition")).toMatch(
      new RegExp(`^attachment; filename="campaign-${campaignId.slice(-6)}-recipients-\\d{4}-\\d{2}-\\d{2}\\.csv"$`),
    );
    const lines = await csvLines(recipients);
    expect(lines[0]).toBe("email,name,phone,customer_id,status,opened_at,clicked_at,details");
    // Those it was sent to: not f, whom the channel refused.
    expect(emailsOf(lines).sort()).toEqual([
      "a@example.com",
      "b@example.com",
      "c@example.com",
      "d@example.com",
      "e@example.com",
    ]);

    const openers = await csvLines(await exported(alice, "who=openers"));
    expect(emailsOf(openers).sort()).toEqual(["a@example.com", "b@example.com"]);
    // Dates in the viewer's zone (India for a tenant without one).
    expect(openers.find((l) => l.startsWith("a@example.com"))).toContain(
      ",delivered,2026-11-20T15:30:00.000+05:30,2026-11-20T15:31:00.000+05:30,",
    );
    expect(emailsOf(await csvLines(await exported(alice, "who=clickers")))).toEqual(["a@example.com"]);
    const bouncers = await csvLines(await exported(alice, "who=Bouncers"));
    expect(bouncers.slice(1)).toEqual([
      expect.stringMatching(/^d@example\.com,D Rao,,[0-9a-f]{24},bounced,,,550 5\.1\.1 user unknown$/),
    ]);

    const unsubscribers = await csvLines(await exported(alice, "who=unsubscribers"));
    expect(unsubscribers[0]).toBe("email,name,phone,customer_id,status,opened_at,clicked_at,details,unsubscribed_at");
    expect(emailsOf(unsubscribers).sort()).toEqual(["a@example.com", "c@example.com"]);
    for (const line of unsubscribers.slice(1)) expect(line).toMatch(/,\d{4}-\d{2}-\d{2}T[\d:.]+\+05:30$/);
  });

  it("starts with a UTF-8 byte order mark when asked (for Excel on Windows)", async () => {
    const plain = new Uint8Array(await (await exported(alice, "who=openers")).arrayBuffer());
    const forExcel = new Uint8Array(await (await exported(alice, "who=openers&bom=1")).arrayBuffer());
    expect(plain[0]).not.toBe(0xef);
    expect([...forExcel.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    expect([...forExcel.subarray(3)]).toEqual([...plain]);
  });

  it("is refused for another user's campaign (404) and for a who it does not know (400)", async () => {
    expect(await thrown(() => exported(bob, "who=recipients"))).toEqual({ status: 404, message: "Campaign not found" });
    expect(await thrown(() => exported(bob, "who=recipients", "not-an-id"))).toEqual({
      status: 404,
      message: "Campaign not found",
    });
    const refused = { status: 400, message: "who must be recipients, openers, clickers, bouncers or unsubscribers" };
    expect(await thrown(() => exported(alice, "who=everyone"))).toEqual(refused);
    expect(await thrown(() => exported(alice, ""))).toEqual(refused);
  });
});

describe("the completion notification", () => {
  it("says what each figure is out of, so it agrees with the detail page", async () => {
    const id = await launchToEveryone(connection(), alice, { name: "Monsoon" });
    await sqlRun(
      connection(),
      `UPDATE "Campaign" SET "status" = 'Completed', "audienceSize" = 320, "pendingCount" = 0, "deliveredCount" = 319,
         "bouncedCount" = 1, "openedCount" = 40 WHERE "id" = ?`,
      [id],
    );
    const row = await campaigns.findCampaignRowById(id);
    if (!row) throw new Error("no campaign");
    await notifyPerformance(row);
    const details = await sqlValue<string>(
      connection(),
      `SELECT "details" FROM "Notification" WHERE "userId" = ? AND "type" = 'CAMPAIGN_PERFORMANCE'`,
      [alice],
    );
    expect(details).toBe(
      'Campaign "Monsoon" finished: sent 320 of 320 (100.0% of the audience); success rate 99.7% of attempted (1 bounced); opened by 12.5% of sent so far.',
    );
  });
});
