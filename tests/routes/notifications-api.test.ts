// @engines sqlite postgres
// The notification routes under /api/notifications and the SSE stream, against a real database.
import { describe, expect, it } from "vitest";
import { createTestUser, useTestDatabase as setUpTestDatabase } from "../helpers/db";
import { args, bearerFor, cookieFor, makeRequest } from "../helpers/requests";

setUpTestDatabase();

const list = await import("~/routes/api/notifications");
const readOne = await import("~/routes/api/notifications-id-read");
const readAll = await import("~/routes/api/notifications-read-all");
const byId = await import("~/routes/api/notifications-id");
const stream = await import("~/routes/api/notifications-stream");
const { notify, listNotifications } = await import("~/services/notifications.server");

type ListBody = {
  notifications: { id: string; type: string; title: string; read: boolean; date: string; details: string }[];
  unreadCount: number;
};

async function userWithToken() {
  const user = await createTestUser();
  return { user, auth: { bearer: await bearerFor(user.id) } };
}

describe("GET /api/notifications", () => {
  it("lists the caller's notifications newest first with the unread count, and only theirs", async () => {
    const { user, auth } = await userWithToken();
    const other = await createTestUser();
    await notify(user.id, { type: "NEW_SEGMENT", title: "Segment created", details: "VIPs" });
    await notify(other.id, { type: "SYSTEM", title: "Not yours" });
    const res = await list.loader(args(makeRequest("/api/notifications", { auth })));
    expect(res.status).toBe(200);
    expect(res.headers.get("X-User-Id")).toBe(user.id);
    const body = (await res.json()) as ListBody;
    expect(body.unreadCount).toBe(2);
    expect(body.notifications.map((n) => n.title)).toEqual(["Segment created", "Welcome to the CRM"]);
    expect(body.notifications[0]).toEqual({
      id: expect.stringMatching(/^[0-9a-f]{24}$/),
      type: "NEW_SEGMENT",
      title: "Segment created",
      details: "VIPs",
      date: expect.stringMatching(/Z$/),
      read: false,
    });
  });

  it("filters by stored type or by the filter view's key, and limits", async () => {
    const { user, auth } = await userWithToken();
    await notify(user.id, { type: "NEW_CAMPAIGN", title: "C" });
    for (const type of ["NEW_CAMPAIGN", "campaign"]) {
      const res = await list.loader(args(makeRequest(`/api/notifications?type=${type}`, { auth })));
      expect(((await res.json()) as ListBody).notifications.map((n) => n.title)).toEqual(["C"]);
    }
    const limited = await list.loader(args(makeRequest("/api/notifications?limit=1", { auth })));
    expect(((await limited.json()) as ListBody).notifications).toHaveLength(1);
  });

  it("bad query values are a 400 naming the field", async () => {
    const { auth } = await userWithToken();
    for (const [query, field] of [
      ["type=bogus", "type"],
      ["limit=0", "limit"],
      ["limit=abc", "limit"],
      ["limit=51", "limit"],
    ]) {
      const res = await list.loader(args(makeRequest(`/api/notifications?${query}`, { auth })));
      expect(res.status, query).toBe(400);
      const error = ((await res.json()) as { error: { code: string; fields: Record<string, string> } }).error;
      expect(error.code).toBe("bad_request");
      expect(Object.keys(error.fields)).toEqual([field]);
    }
  });

  it("401 JSON without credentials or with a bad token", async () => {
    expect((await list.loader(args(makeRequest("/api/notifications")))).status).toBe(401);
    expect((await list.loader(args(makeRequest("/api/notifications", { auth: { bearer: "x.y.z" } })))).status).toBe(
      401,
    );
  });
});

describe("marking read", () => {
  it("PUT /api/notifications/{id}/read marks one; another user's id is a 404 and stays unread", async () => {
    const { user, auth } = await userWithToken();
    const stranger = await userWithToken();
    const n = await notify(user.id, { type: "SYSTEM", title: "Mine" });

    const theirs = await readOne.action(
      args(makeRequest(`/api/notifications/${n.id}/read`, { method: "PUT", auth: stranger.auth }), { id: n.id }),
    );
    expect(theirs.status).toBe(404);
    expect(await theirs.json()).toEqual({ error: { code: "not_found", message: "Notification not found" } });
    expect((await listNotifications(user.id)).notifications.find((x) => x.id === n.id)?.read).toBe(false);

    const mine = await readOne.action(
      args(makeRequest(`/api/notifications/${n.id}/read`, { method: "PUT", auth }), { id: n.id }),
    );
    expect(mine.status).toBe(200);
    expect(await mine.json()).toEqual({ success: true });
    expect((await listNotifications(user.id)).notifications.find((x) => x.id === n.id)?.read).toBe(true);
  });

  it("a malformed id is a 404, not a 500", async () => {
    const { auth } = await userWithToken();
    const res = await readOne.action(
      args(makeRequest("/api/notifications/%27%20or%201=1/read", { method: "PUT", auth }), { id: "' or 1=1" }),
    );
    expect(res.status).toBe(404);
  });

  it("PUT /api/notifications/read-all marks all of the caller's and says how many", async () => {
    const { user, auth } = await userWithToken();
    const other = await createTestUser();
    await notify(user.id, { type: "SYSTEM", title: "Two" });
    const res = await readAll.action(args(makeRequest("/api/notifications/read-all", { method: "PUT", auth })));
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ success: true, updated: 2 });
    expect((await listNotifications(user.id)).unreadCount).toBe(0);
    expect((await listNotifications(other.id)).unreadCount).toBe(1);
  });

  it("a cookie-carried mark-all from another Origin is refused", async () => {
    const user = await createTestUser();
    const res = await readAll.action(
      args(
        makeRequest("/api/notifications/read-all", {
          method: "PUT",
          auth: { cookie: await cookieFor(user.id) },
          headers: { Origin: "https://evil.example" },
        }),
      ),
    );
    expect(res.status).toBe(403);
    expect((await listNotifications(user.id)).unreadCount).toBe(1);
  });
});

describe("DELETE /api/notifications/{id}", () => {
  it("deletes the caller's; another user's is a 404 and stays", async () => {
    const { user, auth } = await userWithToken();
    const stranger = await userWithToken();
    const n = await notify(user.id, { type: "SYSTEM", title: "Delete me" });
    const theirs = await byId.action(
      args(makeRequest(`/api/notifications/${n.id}`, { method: "DELETE", auth: stranger.auth }), { id: n.id }),
    );
    expect(theirs.status).toBe(404);
    expect((await listNotifications(user.id)).notifications.some((x) => x.id === n.id)).toBe(true);

    const mine = await byId.action(
      args(makeRequest(`/api/notifications/${n.id}`, { method: "DELETE", auth }), { id: n.id }),
    );
    expect(mine.status).toBe(200);
    expect((await listNotifications(user.id)).notifications.some((x) => x.id === n.id)).toBe(false);
    const again = await byId.action(
      args(makeRequest(`/api/notifications/${n.id}`, { method: "DELETE", auth }), { id: n.id }),
    );
    expect(again.status).toBe(404);
  });

  it("another method is a 405 JSON naming DELETE", async () => {
    const { user, auth } = await userWithToken();
    const n = await notify(user.id, { type: "SYSTEM", title: "x" });
    const res = await byId
      .action(args(makeRequest(`/api/notifications/${n.id}`, { method: "POST", auth }), { id: n.id }))
      .catch((thrown: Response) => thrown);
    expect(res.status).toBe(405);
    expect(res.headers.get("Allow")).toBe("DELETE");
    expect(((await res.json()) as { error: { code: string } }).error.code).toBe("method_not_allowed");
  });
});

describe("GET /api/notifications/stream", () => {
  it("401 JSON without credentials", async () => {
    const res = await stream.loader(args(makeRequest("/api/notifications/stream")));
    expect(res.status).toBe(401);
  });

  it("streams the caller's new notifications as Server-Sent Events, and stops on abort", async () => {
    const user = await createTestUser();
    const other = await createTestUser();
    const controller = new AbortController();
    const request = new Request("http://localhost:3000/api/notifications/stream", {
      headers: { Cookie: await cookieFor(user.id) },
      signal: controller.signal,
    });
    const res = await stream.loader(args(request));
    expect(res.status).toBe(200);
    expect(res.headers.get("Content-Type")).toMatch(/^text\/event-stream/);
    expect(res.headers.get("X-User-Id")).toBe(user.id);
    const reader = res.body!.getReader();
    const decoder = new TextDecoder();
    let received = "";
    const readUntil = async (needle: string) => {
      while (!received.includes(needle)) {
        const { value, done } = await reader.read();
        if (done) throw new Error(`stream ended before ${needle}`);
        received += decoder.decode(value);
      }
    };
    await readUntil("retry: 5000");
    await notify(other.id, { type: "SYSTEM", title: "For someone else" });
    const n = await notify(user.id, { type: "NEW_SEGMENT", title: "Pushed" });
    await readUntil("\n\n").then(() => readUntil(n.id));
    expect(received).toContain("event: notification\n");
    expect(received).toContain(`"title":"Pushed"`);
    expect(received).not.toContain("For someone else");
    controller.abort();
    const end = await reader.read();
    expect(end.done).toBe(true);
  });
});

describe("a method a route does not serve", () => {
  it("is a 405 in the /api error shape, naming the allowed method", async () => {
    // Marking read takes PUT or POST (the bell menu posts), so Allow names both.
    const cases: [Response, string, string][] = [
      [readAll.loader({ request: makeRequest("/api/notifications/read-all") }), "PUT, POST", "PUT or POST"],
      [byId.loader({ request: makeRequest("/api/notifications/abc") }), "DELETE", "DELETE"],
      [readOne.loader({ request: makeRequest("/api/notifications/abc/read") }), "PUT, POST", "PUT or POST"],
      [list.action({ request: makeRequest("/api/notifications", { method: "DELETE" }) }), "GET", "GET"],
      [stream.action({ request: makeRequest("/api/notifications/stream", { method: "POST" }) }), "GET", "GET"],
    ];
    for (const [res, allowed, named] of cases) {
      expect(res.status).toBe(405);
      expect(res.headers.get("Allow")).toBe(allowed);
      const body = (await res.json()) as { error: { code: string; message: string } };
      expect(body.error.code).toBe("method_not_allowed");
      expect(body.error.message).toMatch(new RegExp(`^Use ${named} for /api/notifications`));
    }
  });
});
