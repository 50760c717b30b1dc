// @engines sqlite postgres
// Scheduled campaigns with a real database: scheduled through /api (POST, PUT to reschedule, the
// unschedule control) and through the wizard without JavaScript (a wall-clock time in the viewer's
// zone); refused times and bodies say why; another tenant's campaign is a 404; the clock launches
// a due draft once however many clocks tick at once, with the segment's audience at that moment,
// and a draft that cannot be launched when its time comes loses its schedule and its owner is told.
import { beforeAll, describe, expect, it } from "vitest";
import { createTestUser, segmentTree, useTestDatabase } from "../helpers/db";
import { customerInput } from "../helpers/customer-input";
import { args, bearerFor, callRoute, cookieFor, flashOf, formRequest } from "../helpers/requests";

// eslint-disable-next-line react-hooks/rules-of-hooks -- a test helper named use*, not a React hook
useTestDatabase();

import { db } from "~/db/prisma.server";
import { wallTimeOf } from "~/lib/dates";
import * as campaignsApi from "~/routes/api/campaigns";
import * as campaignApi from "~/routes/api/campaigns-id";
import * as controlApi from "~/routes/api/campaigns-id-control";
import * as detail from "~/routes/campaigns-detail";
import * as wizard from "~/routes/campaigns-wizard";
import { SCHEDULE_CHANGED } from "~/models/launch/rows";
import { launch } from "~/services/campaigns/launch.server";
import { launchDueCampaigns } from "~/services/campaigns/schedule-clock.server";
import { getCampaign } from "~/services/campaigns/views.server";
import { createCustomer } from "~/services/customers.server";
import { listNotifications } from "~/services/notifications.server";
import { seedTenant } from "~/services/seed.server";
import { createSegment, updateSegment } from "~/services/segments.server";

const HOUR = 3_600_000;
let userId: string;
let otherId: string;
let bearer: string;
let otherBearer: string;
let segmentId: string;

beforeAll(async () => {
  userId = (await createTestUser("Scheduling sender")).id;
  otherId = (await createTestUser("Other tenant")).id;
  bearer = await bearerFor(userId);
  otherBearer = await bearerFor(otherId);
  await seedTenant(userId, { customers: 12, orders: 0, seed: 45 });
  segmentId = (await segmentOf(userId, "Everyone", { visits: { $gte: 0 } })).id;
});

const content = (name: string) => ({
  name,
  segmentId,
  subject: `${name} for {NAME}`,
  message: "Hi {NAME}, it is on.",
});

function api(method: string, token: string, body?: unknown) {
  return {
    method,
    headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  };
}

const postCampaign = (body: unknown, token = bearer) =>
  callRoute(campaignsApi.action, "/api/campaigns", api("POST", token, body));
const put = (id: string, body: unknown) =>
  callRoute(campaignApi.action, `/api/campaigns/${id}`, { ...api("PUT", bearer, body), params: { id } });
const unschedule = (id: string, token = bearer) =>
  callRoute(controlApi.action, `/api/campaigns/${id}/unschedule`, {
    ...api("POST", token),
    params: { id, control: "unschedule" },
  });
/** A segment of `owner`'s on these conditions. */
const segmentOf = (owner: string, name: string, conditions: unknown) =>
  createSegment(owner, { name, description: "", tree: segmentTree(conditions) });
/** An ISO time `ms` from now. */
const fromNow = (ms: number) => new Date(Date.now() + ms).toISOString();
const deliveries = (campaignId: string) => db().delivery.count({ where: { campaignId } });

describe("scheduling through /api", () => {
  it("keeps a draft with its time, then reschedules, takes the schedule off, and refuses another tenant", async () => {
    const at = new Date(Date.now() + 2 * HOUR);
    const made = await postCampaign({ ...content("Sunday sale"), scheduledAt: at.toISOString() });
    expect(made.status).toBe(201);
    expect(made.body).toMatchObject({ status: "Draft", scheduledAt: at.toISOString(), launchedAt: null });
    const id = String(made.body.id);
    expect(await deliveries(id)).toBe(0);
    // "Scheduled" with an offset names the same kind of instant.
    const later = "2099-01-01T09:30:00+05:30";
    // Far ahead is refused: at most a year.
    const moved = await put(id, { ...content("Sunday sale"), status: "Scheduled", scheduledAt: later });
    expect(moved.status).toBe(400);
    expect(moved.body.error?.fields).toEqual({ scheduledAt: "A campaign can be scheduled at most 365 days ahead" });
    const soon = new Date(Date.now() + 3 * HOUR);
    const rescheduled = await put(id, {
      ...content("Sunday sale, moved"),
      status: "Scheduled",
      scheduledAt: soon.toISOString(),
    });
    expect(rescheduled.status).toBe(200);
    expect(rescheduled.body.campaign).toMatchObject({ name: "Sunday sale, moved", scheduledAt: soon.toISOString() });

    // Another tenant sees nothing and can change nothing.
    const theirs = await unschedule(id, otherBearer);
    expect(theirs.status).toBe(404);

    const off = await unschedule(id);
    expect(off.status).toBe(200);
    expect(off.body).toMatchObject({
      message: "Schedule cancelled: the campaign is a draft again",
      campaign: { status: "Draft", scheduledAt: null },
    });
    const again = await unschedule(id);
    expect(again.status).toBe(409);
    expect(again.body.error?.message).toBe("This campaign is not scheduled: there is no schedule to cancel.");
  });

  it("refuses a time in the past, a body that asks for a schedule without one, and a segment nobody is in", async () => {
    const before = await db().campaign.count({ where: { userId } });
    const past = await postCampaign({
      ...content("Yesterday"),
      scheduledAt: new Date(Date.now() - HOUR).toISOString(),
    });
    expect(past.status).toBe(400);
    expect(past.body.error?.fields).toEqual({ scheduledAt: "Choose a time in the future to schedule the campaign" });
    const noTime = await postCampaign({ ...content("No time"), status: "Scheduled" });
    expect(noTime.status).toBe(400);
    expect(noTime.body.error?.fields?.scheduledAt).toBe("scheduledAt is required to schedule a campaign");
    const noZone = await postCampaign({ ...content("No zone"), scheduledAt: "2030-01-01T09:00" });
    expect(noZone.status).toBe(400);
    expect(noZone.body.error?.fields?.scheduledAt).toMatch(/^scheduledAt must be an ISO 8601 time with its offset/);
    // A segment that is not the caller's is refused as a launch would be, before anything is kept.
    const otherSegment = await segmentOf(otherId, "Theirs", { visits: { $gte: 0 } });
    const foreign = await postCampaign({
      ...content("Foreign segment"),
      segmentId: otherSegment.id,
      scheduledAt: fromNow(HOUR),
    });
    expect(foreign.status).toBe(404);
    // A segment with nobody in it is refused as a launch to it would be.
    const empty = await segmentOf(userId, "Nobody", { visits: { $gt: 1_000_000 } });
    const nobody = await postCampaign({
      ...content("To nobody"),
      segmentId: empty.id,
      scheduledAt: fromNow(HOUR),
    });
    expect(nobody.status).toBe(422);
    expect(nobody.body.error?.message).toBe("This segment has no customers: there is nobody to send the campaign to.");
    expect(await db().campaign.count({ where: { userId } })).toBe(before);
  });
});

describe("the clock", () => {
  it("launches a due draft once, however many clocks tick at once, with the segment's audience then", async () => {
    const made = await postCampaign({ ...content("Due soon"), scheduledAt: fromNow(60_000) });
    const id = String(made.body.id);
    // Not due yet: nothing happens.
    expect(await launchDueCampaigns(Date.now())).not.toContain(id);
    // A customer who joins before the time is in the audience: it is taken when the campaign launches.
    await createCustomer(userId, customerInput({ firstName: "Late" }));
    const due = Date.now() + 120_000;
    const ticks = await Promise.all([launchDueCampaigns(due), launchDueCampaigns(due), launchDueCampaigns(due)]);
    expect(ticks.flat().filter((launched) => launched === id)).toHaveLength(1);
    const launched = await getCampaign(userId, id);
    expect(launched).toMatchObject({ status: "Active", audienceSize: 13, statusDetail: "" });
    expect(launched.scheduledAt).toBe(made.body.scheduledAt);
    expect(await deliveries(id)).toBe(13);
    // A later tick finds nothing to launch.
    expect(await launchDueCampaigns(due + HOUR)).not.toContain(id);
    expect(await deliveries(id)).toBe(13);
    const { notifications } = await listNotifications(userId);
    expect(notifications.map((n) => n.details)).toContain('Campaign "Due soon" is being sent to 13 customers.');
  });

  it("leaves a draft that was changed after the clock read it to a later tick, as it is then", async () => {
    const made = await postCampaign({
      ...content("Changed meanwhile"),
      scheduledAt: fromNow(60_000),
    });
    const id = String(made.body.id);
    const read = await db().campaign.findUniqueOrThrow({ where: { id } });
    // Saved again (and so unscheduled) between the clock's read and its launch.
    await put(id, { ...content("Changed meanwhile, kept"), status: "Draft" });
    const refused = await launch(
      userId,
      { ...content("Changed meanwhile"), description: "" },
      {
        draftId: id,
        unchangedSince: read.updatedAt.getTime(),
      },
    ).catch((error: unknown) => error);
    expect(refused).toMatchObject({ status: 409, message: SCHEDULE_CHANGED });
    expect(await getCampaign(userId, id)).toMatchObject({
      name: "Changed meanwhile, kept",
      status: "Draft",
      scheduledAt: null,
    });
    expect(await deliveries(id)).toBe(0);
  });

  it("takes the schedule off a draft whose segment has nobody left when its time comes, and tells its owner", async () => {
    const shrinking = await segmentOf(userId, "Big spenders", { visits: { $gte: 0 } });
    const made = await postCampaign({
      ...content("Nobody left"),
      segmentId: shrinking.id,
      scheduledAt: fromNow(60_000),
    });
    const id = String(made.body.id);
    await updateSegment(userId, shrinking.id, {
      name: "Big spenders",
      description: "",
      tree: segmentTree({ visits: { $gt: 1_000_000 } }),
    });
    expect(await launchDueCampaigns(Date.now() + 120_000)).not.toContain(id);
    const missed = await getCampaign(userId, id);
    expect(missed).toMatchObject({ status: "Draft", scheduledAt: null });
    expect(missed.statusDetail).toBe(
      "Not sent at its scheduled time: This segment has no customers: there is nobody to send the campaign to.",
    );
    expect(await deliveries(id)).toBe(0);
    const { notifications } = await listNotifications(userId);
    expect(notifications[0]).toMatchObject({
      title: "Scheduled campaign not sent",
      details:
        'Campaign "Nobody left" was not sent at its scheduled time: This segment has no customers: there is nobody to send the campaign to. It is a draft again.',
    });
    // A later tick leaves it alone.
    expect(await launchDueCampaigns(Date.now() + HOUR)).not.toContain(id);
  });
});

describe("the wizard without JavaScript", () => {
  const BASE = "http://localhost:3000";
  const fields = (name: string, scheduledAt: string) => ({
    ...content(name),
    description: "",
    step: "3",
    intent: "schedule",
    scheduledAt,
  });

  it("schedules at the wall-clock time typed, in the viewer's zone, and shows it on the way back", async () => {
    const cookie = await cookieFor(userId);
    // The viewer's zone: their browser's (the crm_tz cookie), here New York's.
    const auth = { cookie: `${cookie}; crm_tz=America%2FNew_York` };
    const at = Date.now() + 26 * HOUR;
    const local = wallTimeOf(at, "America/New_York");
    const res = (await wizard.action(
      args(formRequest("/campaigns/new", fields("Wizard scheduled", local), auth)),
    )) as Response;
    expect(res.status).toBe(302);
    const [made] = await db().campaign.findMany({ where: { userId, name: "Wizard scheduled" } });
    expect(res.headers.get("Location")).toBe(`/campaigns/${made.id}`);
    // To the minute the page offered.
    expect(Math.abs(Number(made.scheduledAt?.getTime()) - at)).toBeLessThan(60_000);
    expect(made.status).toBe("Draft");
    expect((await flashOf(res))?.message).toMatch(/^Campaign scheduled for .+ \(Eastern (Standard|Daylight) Time\)$/);

    // Its edit page shows the same wall-clock time, ready to reschedule.
    const page = (await wizard.loader(
      args(new Request(`${BASE}/campaigns/edit/${made.id}`, { headers: { Cookie: auth.cookie } }), { id: made.id }),
    )) as Awaited<ReturnType<typeof wizard.loader>>;
    expect(page.values.scheduledAt).toBe(local);

    // Cancel schedule on its page: a draft again.
    const off = (await detail.action(
      args(formRequest(`/campaigns/${made.id}`, { intent: "unschedule" }, auth), { id: made.id }),
    )) as Response;
    expect(off.status).toBe(302);
    expect((await flashOf(off))?.message).toBe("Schedule cancelled: the campaign is a draft again");
    expect((await getCampaign(userId, made.id)).scheduledAt).toBeNull();
  });

  it("schedules a draft again from the same page after a refused time (the page's key is not spent)", async () => {
    const cookie = await cookieFor(userId);
    const draft = await postCampaign({ ...content("Edited draft"), status: "Draft" });
    const id = String(draft.body.id);
    const page = (await wizard.loader(
      args(new Request(`${BASE}/campaigns/edit/${id}`, { headers: { Cookie: cookie } }), { id }),
    )) as Awaited<ReturnType<typeof wizard.loader>>;
    const post = (scheduledAt: string) =>
      wizard.action(
        args(
          formRequest(
            `/campaigns/edit/${id}`,
            { ...fields("Edited draft", scheduledAt), launchKey: page.launchKey },
            { cookie },
          ),
          { id },
        ),
      );
    const refused = (await post(wallTimeOf(Date.now() - HOUR, "Asia/Kolkata"))) as unknown as {
      init: { status: number };
    };
    expect(refused.init.status).toBe(400);
    const res = (await post(wallTimeOf(Date.now() + 5 * HOUR, "Asia/Kolkata"))) as Response;
    expect(res.status).toBe(302);
    expect((await getCampaign(userId, id)).scheduledAt).not.toBeNull();
  });

  it("shows a time in the past under its field, and a missing one, keeping the Review step", async () => {
    const cookie = await cookieFor(userId);
    const past = wallTimeOf(Date.now() - 2 * HOUR, "Asia/Kolkata");
    const refused = (await wizard.action(
      args(formRequest("/campaigns/new", fields("Too late", past), { cookie })),
    )) as unknown as { data: { step: number; result: { error: Record<string, string[]> } }; init: { status: number } };
    expect(refused.init.status).toBe(400);
    expect(refused.data.step).toBe(3);
    expect(refused.data.result.error.scheduledAt).toEqual(["Choose a time in the future to schedule the campaign"]);
    const missing = (await wizard.action(
      args(formRequest("/campaigns/new", fields("No time", ""), { cookie })),
    )) as unknown as { data: { result: { error: Record<string, string[]> } }; init: { status: number } };
    expect(missing.init.status).toBe(400);
    expect(missing.data.result.error.scheduledAt).toEqual(["Choose the date and time to send it"]);
    expect(await db().campaign.count({ where: { userId, name: { in: ["Too late", "No time"] } } })).toBe(0);
  });
});
