// @engines sqlite postgres
// The campaign wizard's loader and action with a real session and database, as a browser without
// JavaScript uses them: the launch key the page is rendered with (any number of repeated submits of
// one launch make one campaign, every answer leading to it), a segment with no customers refused at
// step 1 where it is chosen, the subject starting as the campaign's name, and /campaigns/create
// (a path that is not a campaign id) answering 404.
import { beforeAll, describe, expect, it } from "vitest";
import { createTestUser, useTestDatabase } from "../helpers/db";

// eslint-disable-next-line react-hooks/rules-of-hooks -- a test helper named use*, not a React hook
useTestDatabase();

import { db } from "~/db/prisma.server";
import { parseConditions } from "~/lib/segment-parse";
import * as detail from "~/routes/campaigns-detail";
import * as wizard from "~/routes/campaigns-wizard";
import { saveDraft } from "~/services/campaigns/drafts.server";
import { seedTenant } from "~/services/seed.server";
import { createSegment } from "~/services/segments.server";
import { readFlash, signInAndRedirect } from "~/services/session.server";

const BASE = "http://localhost:3000";
const EMPTY = "This segment has no customers: choose another segment";

let cookie: string;
let userId: string;
let segmentId: string;
let emptySegmentId: string;

const tree = (c: unknown) => {
  const p = parseConditions(c);
  if (!p.ok) throw new Error(p.message);
  return p.tree;
};

function post(path: string, fields: Record<string, string>) {
  return new Request(`${BASE}${path}`, {
    method: "POST",
    headers: { Cookie: cookie, Origin: BASE, "Content-Type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams(fields),
  });
}
const args = (request: Request, params: Record<string, string> = {}) => ({ request, params, context: {} });

type Answer = {
  status: number;
  location: string | null;
  body: {
    step?: number;
    failure?: { title: string; reason: string } | null;
    result?: { error?: Record<string, string[] | null>; initialValue?: Record<string, unknown> | null };
  } | null;
  response: Response | null;
};
/** An action's answer: a redirect Response, or data(...) for the form. */
async function answer(res: unknown): Promise<Answer> {
  if (res instanceof Response)
    return { status: res.status, location: res.headers.get("Location"), body: null, response: res };
  const d = res as { data: Answer["body"]; init?: { status?: number } | null };
  return { status: d.init?.status ?? 200, location: null, body: d.data, response: null };
}

async function flashOf(res: Response) {
  const set = (res.headers.get("Set-Cookie") ?? "").split(";")[0];
  return (await readFlash(new Request(BASE, { headers: { Cookie: set } }))).flash;
}

const filled = (name: string, extra: Record<string, string> = {}) => ({
  name,
  segmentId,
  subject: `${name}, for {NAME}`,
  message: "Hi {NAME}, a treat for you.",
  description: "",
  step: "3",
  intent: "launch",
  ...extra,
});

async function loaderData(path = "/campaigns/new", params: Record<string, string> = {}) {
  const request = new Request(`${BASE}${path}`, { headers: { Cookie: cookie } });
  return (await wizard.loader(args(request, params))) as Awaited<ReturnType<typeof wizard.loader>>;
}

beforeAll(async () => {
  const user = await createTestUser("Wizard user");
  userId = user.id;
  const res = await signInAndRedirect(new Request(`${BASE}/login`), user.id, "/");
  cookie = (res.headers.get("Set-Cookie") ?? "").split(";")[0];
  await seedTenant(user.id, { customers: 15, orders: 0, seed: 4 });
  segmentId = (await createSegment(userId, { name: "All", description: "", tree: tree({ visits: { $gte: 0 } }) })).id;
  emptySegmentId = (
    await createSegment(userId, { name: "Nobody", description: "", tree: tree({ visits: { $gt: 1_000_000 } }) })
  ).id;
});

describe("the wizard's launch key", () => {
  it("is made each time the wizard renders", async () => {
    const a = await loaderData();
    const b = await loaderData();
    expect(a.launchKey).toMatch(/^[0-9a-f-]{36}$/);
    expect(b.launchKey).not.toBe(a.launchKey);
    expect(a.segments.find((s) => s.id === emptySegmentId)?.customerCount).toBe(0);
  });

  it("makes one campaign however often one launch is submitted, at once or later; each answer leads to it", async () => {
    const { launchKey } = await loaderData();
    const fields = filled("Pressed five times", { launchKey });
    const at = await Promise.all(Array.from({ length: 5 }, () => wizard.action(args(post("/campaigns/new", fields)))));
    const later = await wizard.action(args(post("/campaigns/new", fields)));
    const made = await db().campaign.findMany({ where: { userId, name: "Pressed five times" } });
    expect(made).toHaveLength(1);
    // Each lands on the launched campaign's detail page, not on the list.
    for (const res of [...at, later]) {
      const a = await answer(res);
      expect(a.status).toBe(302);
      expect(a.location).toBe(`/campaigns/${made[0].id}`);
      expect(await flashOf(a.response as Response)).toMatchObject({ message: "Campaign launched successfully!" });
    }
    expect(made[0].status).toBe("Active");
    expect(await db().delivery.count({ where: { campaignId: made[0].id } })).toBe(15);

    // The same page's key with other content (a page kept by the browser's Back) makes nothing.
    const changed = await answer(
      await wizard.action(args(post("/campaigns/new", filled("Pressed five times, changed", { launchKey })))),
    );
    expect(changed.status).toBe(422);
    expect(changed.body?.failure).toEqual({
      title: "Failed to launch campaign",
      reason:
        "This page has already launched a campaign with other content. Open the wizard again to launch another one.",
    });
    expect(await db().campaign.count({ where: { userId, name: "Pressed five times, changed" } })).toBe(0);
  });

  it("launches a draft once from its edit page, however often it is submitted", async () => {
    const draft = await saveDraft(userId, {
      name: "Draft pressed twice",
      segmentId,
      subject: "s",
      message: "m {NAME}",
      description: "",
    });
    const { launchKey } = await loaderData(`/campaigns/edit/${draft.id}`, { id: draft.id });
    const path = `/campaigns/edit/${draft.id}`;
    const fields = filled("Draft pressed twice", { launchKey });
    const answers = await Promise.all(
      Array.from({ length: 3 }, () => wizard.action(args(post(path, fields), { id: draft.id }))),
    );
    for (const res of answers) expect((await answer(res)).location).toBe(`/campaigns/${draft.id}`);
    const again = await answer(await wizard.action(args(post(path, fields), { id: draft.id })));
    expect(again.location).toBe(`/campaigns/${draft.id}`);
    const made = await db().campaign.findMany({ where: { userId, name: "Draft pressed twice" } });
    expect(made.map((c) => [c.id, c.status])).toEqual([[draft.id, "Active"]]);
  });
});

describe("a segment with no customers", () => {
  it("is refused at step 1, where it is chosen, by Continue and by a launch", async () => {
    const cont = await answer(
      await wizard.action(
        args(
          post("/campaigns/new", { name: "Into the void", segmentId: emptySegmentId, step: "1", intent: "continue" }),
        ),
      ),
    );
    expect(cont.status).toBe(400);
    expect(cont.body?.step).toBe(1);
    expect(cont.body?.result?.error?.segmentId).toEqual([EMPTY]);

    const { launchKey } = await loaderData();
    const launch = await answer(
      await wizard.action(
        args(post("/campaigns/new", filled("Into the void", { segmentId: emptySegmentId, launchKey }))),
      ),
    );
    expect(launch.status).toBe(400);
    expect(launch.body?.step).toBe(1);
    expect(launch.body?.failure).toBeNull();
    expect(launch.body?.result?.error?.segmentId).toEqual([EMPTY]);
    expect(await db().campaign.count({ where: { userId, name: "Into the void" } })).toBe(0);

    // A draft may still be saved for it.
    const draft = await answer(
      await wizard.action(
        args(post("/campaigns/new", { ...filled("Into the void"), segmentId: emptySegmentId, intent: "draft" })),
      ),
    );
    expect(draft.location).toBe("/campaigns");
  });
});

describe("the subject", () => {
  it("starts as the campaign's name when step 1 moves on and it is empty; a typed one is kept", async () => {
    const empty = await answer(
      await wizard.action(
        args(post("/campaigns/new", { name: "Monsoon sale", segmentId, subject: "", step: "1", intent: "continue" })),
      ),
    );
    expect(empty.body?.step).toBe(2);
    expect(empty.body?.result?.initialValue).toMatchObject({ name: "Monsoon sale", subject: "Monsoon sale" });
    const typed = await answer(
      await wizard.action(
        args(
          post("/campaigns/new", {
            name: "Monsoon sale",
            segmentId,
            subject: "Rain deals",
            step: "1",
            intent: "continue",
          }),
        ),
      ),
    );
    expect(typed.body?.result?.initialValue).toMatchObject({ subject: "Rain deals" });
  });
});

describe("a message started from a template", () => {
  it("lists the starters, moves on without a message, and launches with the template's design and subject", async () => {
    const data = await loaderData("/campaigns/new?templateId=starter-welcome");
    expect(data.values.templateId).toBe("starter-welcome");
    expect(data.templates.filter((t) => t.starter).map((t) => t.id)).toContain("starter-offer");

    // Without JavaScript, step 2 moves on with no message and no subject: the template gives them.
    const step2 = await answer(
      await wizard.action(
        args(
          post("/campaigns/new", {
            ...filled("Welcome aboard"),
            subject: "",
            message: "",
            templateId: "starter-welcome",
            step: "2",
            intent: "continue",
          }),
        ),
      ),
    );
    expect(step2.body?.step).toBe(3);
    // Plain text still needs both.
    const plain = await answer(
      await wizard.action(
        args(
          post("/campaigns/new", { ...filled("Plain"), message: "", templateId: "", step: "2", intent: "continue" }),
        ),
      ),
    );
    expect(plain.body?.result?.error).toMatchObject({ message: ["Message content is required"] });

    const launched = await answer(
      await wizard.action(
        args(
          post("/campaigns/new", {
            ...filled("Welcome aboard"),
            subject: "",
            message: "",
            templateId: "starter-welcome",
            fromName: "Welcome desk",
            replyTo: "",
            preheader: "",
          }),
        ),
      ),
    );
    expect(launched.status).toBe(302);
    const [made] = await db().campaign.findMany({ where: { userId, name: "Welcome aboard" } });
    expect(made).toMatchObject({ status: "Active", templateId: "starter-welcome" });
    expect(made.subject).toMatch(/^Welcome to /);
    expect(JSON.parse(made.design)).toMatchObject({ format: "blocks", fromName: "Welcome desk", replyTo: "" });
  });
});

describe("a path under /campaigns that is not a campaign id", () => {
  it("is a 404, not a redirect with a toast", async () => {
    for (const id of ["create", "edit", "not-an-id"]) {
      const request = new Request(`${BASE}/campaigns/${id}`, { headers: { Cookie: cookie } });
      const thrown = await detail.loader(args(request, { id })).then(
        () => null,
        (e: unknown) => e,
      );
      expect(thrown, id).toMatchObject({ init: { status: 404 } });
    }
  });
});
