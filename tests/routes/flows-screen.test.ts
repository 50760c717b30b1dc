// @engines sqlite postgres
// Flows on the screens, through the routes' loaders and actions with a real session and database: a
// starter made a draft, set live, a step changed and added and removed by the page's forms; a change
// that would break a live flow refused with the reason as the toast and the flow as it was; another
// user's flow a 404 to read and to change.
import { describe, expect, it } from "vitest";
import { useTestDatabase as setUpTestDatabase } from "../helpers/db";
import { args, flashOf, formRequest, makeRequest } from "../helpers/requests";
import { thrown } from "../helpers/route-answers";
import { signedIn } from "../helpers/signed-in";

setUpTestDatabase();

const listRoute = await import("~/routes/flows");
const detailRoute = await import("~/routes/flows-detail");
const { getFlow } = await import("~/services/flows/flows.server");

const get = (cookie: string, path: string) => makeRequest(path, { auth: { cookie } });
const post = (cookie: string, path: string, fields: Record<string, string>) => formRequest(path, fields, { cookie });
const flowIdOf = (res: unknown) => ((res as Response).headers.get("Location") ?? "").split("/").pop() ?? "";

describe("the Flows screens", () => {
  it("makes a draft from a starter, sets it live, and changes, adds and removes its steps by forms", async () => {
    const { user, cookie } = await signedIn();
    expect((await listRoute.loader(args(get(cookie, "/flows")))).flows).toEqual([]);
    const made = await listRoute.action(args(post(cookie, "/flows", { starter: "welcome" })));
    const id = flowIdOf(made);
    expect((await flashOf(made as Response))?.message).toBe(
      '"Welcome series" made as a draft: choose its messages, then set it live',
    );
    const page = await detailRoute.loader(args(get(cookie, `/flows/${id}`), { id }));
    expect(page.flow).toMatchObject({ name: "Welcome series", status: "draft", problems: [] });
    expect(page.flow.steps.map((s) => s.id)).toEqual(["welcome", "two-days", "ordered", "offer", "end"]);
    expect(page.templates.map((t) => t.value)).toContain("starter-offer");

    const live = await detailRoute.action(
      args(post(cookie, `/flows/${id}`, { intent: "status", status: "live" }), { id }),
    );
    expect((await flashOf(live as Response))?.message).toBe('"Welcome series" is live');

    const wait = await detailRoute.action(
      args(
        post(cookie, `/flows/${id}`, { intent: "step", stepId: "two-days", type: "wait", amount: "3", unit: "hours" }),
        { id },
      ),
    );
    expect((await flashOf(wait as Response))?.message).toBe("Flow saved");
    await detailRoute.action(
      args(post(cookie, `/flows/${id}`, { intent: "add", type: "tag", after: "welcome" }), { id }),
    );
    const flow = await getFlow(user.id, id);
    expect(flow.steps.map((s) => [s.id, s.type])).toEqual([
      ["welcome", "send"],
      ["tag-1", "tag"],
      ["two-days", "wait"],
      ["ordered", "condition"],
      ["offer", "send"],
      ["end", "exit"],
    ]);
    expect(flow.steps.find((s) => s.id === "two-days")).toMatchObject({ seconds: 10_800 });
    await detailRoute.action(args(post(cookie, `/flows/${id}`, { intent: "remove", stepId: "tag-1" }), { id }));
    expect((await getFlow(user.id, id)).steps).toHaveLength(5);
  });

  it("refuses a change that would stop a live flow, says why, and keeps the flow as it was", async () => {
    const { user, cookie } = await signedIn();
    const id = flowIdOf(await listRoute.action(args(post(cookie, "/flows", { starter: "abandoned-cart" }))));
    await detailRoute.action(args(post(cookie, `/flows/${id}`, { intent: "status", status: "live" }), { id }));
    const removed = await detailRoute.action(
      args(post(cookie, `/flows/${id}`, { intent: "remove", stepId: "remind" }), { id }),
    );
    expect((await flashOf(removed as Response))?.message).toBe(
      'This flow cannot go live: Step "ordered": else names the step "remind", which is not in the flow',
    );
    const negative = await detailRoute.action(
      args(
        post(cookie, `/flows/${id}`, { intent: "step", stepId: "an-hour", type: "wait", amount: "-1", unit: "days" }),
        {
          id,
        },
      ),
    );
    expect((await flashOf(negative as Response))?.message).toBe("A wait must be at least 1 second");
    const flow = await getFlow(user.id, id);
    expect(flow.steps.map((s) => s.id)).toEqual(["an-hour", "ordered", "remind", "end"]);
    expect(flow.steps[0]).toMatchObject({ seconds: 3_600 });
    expect(flow.status).toBe("live");
  });

  it("is another user's 404", async () => {
    const alice = await signedIn();
    const bob = await signedIn();
    const id = flowIdOf(await listRoute.action(args(post(alice.cookie, "/flows", { starter: "win-back" }))));
    expect((await thrown(detailRoute.loader(args(get(bob.cookie, `/flows/${id}`), { id })))).status).toBe(404);
    const paused = detailRoute.action(
      args(post(bob.cookie, `/flows/${id}`, { intent: "status", status: "paused" }), { id }),
    );
    expect(await thrown(paused)).toEqual({ status: 404, message: "Flow not found" });
    expect(
      (await thrown(detailRoute.action(args(post(bob.cookie, `/flows/${id}`, { intent: "delete" }), { id })))).status,
    ).toBe(404);
    expect((await getFlow(alice.user.id, id)).status).toBe("draft");
    expect((await listRoute.loader(args(get(bob.cookie, "/flows")))).flows).toEqual([]);
  });
});
