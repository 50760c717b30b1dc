// @engines sqlite postgres
// Notifications against a real SQLite database: newest 50 kept, per-user scoping of every change,
// and the events open pages receive.
import { describe, expect, it } from "vitest";
import { createTestUser, useTestDatabase as setUpTestDatabase } from "../../tests/helpers/db";
import { rejection } from "../../tests/helpers/promises";

setUpTestDatabase();

const svc = await import("~/services/notifications.server");
const { db } = await import("~/db/prisma.server");
const { ApiError } = await import("~/lib/api.server");

/** A fresh user without the welcome notification. */
async function freshUser() {
  const user = await createTestUser();
  await db().notification.deleteMany({ where: { userId: user.id } });
  return user;
}

describe("notify", () => {
  it("stores an unread notification and returns it as the client sees it", async () => {
    const user = await freshUser();
    const dto = await svc.notify(user.id, { type: "NEW_SEGMENT", title: "Segment created", details: "High spenders" });
    expect(dto).toMatchObject({ type: "NEW_SEGMENT", title: "Segment created", details: "High spenders", read: false });
    expect(Date.now() - new Date(dto.date).getTime()).toBeLessThan(10_000);
    const { notifications, unreadCount } = await svc.listNotifications(user.id);
    expect(notifications).toEqual([dto]);
    expect(unreadCount).toBe(1);
  });

  it("keeps only the newest 50, newest first", async () => {
    const user = await freshUser();
    for (let i = 1; i <= 55; i += 1) await svc.notify(user.id, { type: "SYSTEM", title: `N${i}` });
    const { notifications, unreadCount } = await svc.listNotifications(user.id);
    expect(notifications).toHaveLength(50);
    expect(notifications[0].title).toBe("N55");
    expect(notifications[49].title).toBe("N6");
    expect(unreadCount).toBe(50);
    expect(await db().notification.count({ where: { userId: user.id } })).toBe(50);
  });

  it("keeps exactly the newest 50 when many arrive at once (each insert and its trim see the others')", async () => {
    const user = await freshUser();
    await Promise.all(Array.from({ length: 70 }, (_, i) => svc.notify(user.id, { type: "SYSTEM", title: `C${i}` })));
    expect(await db().notification.count({ where: { userId: user.id } })).toBe(50);
    expect((await svc.listNotifications(user.id)).notifications).toHaveLength(50);
  });

  it("trimming one user's list leaves other users' notifications alone", async () => {
    const busy = await freshUser();
    const quiet = await freshUser();
    await svc.notify(quiet.id, { type: "SYSTEM", title: "Only one" });
    for (let i = 0; i < 52; i += 1) await svc.notify(busy.id, { type: "SYSTEM", title: `B${i}` });
    expect((await svc.listNotifications(quiet.id)).notifications.map((n) => n.title)).toEqual(["Only one"]);
  });

  it("publishes the new notification on the user's channel only", async () => {
    const user = await freshUser();
    const other = await freshUser();
    const seen: unknown[] = [];
    const seenByOther: unknown[] = [];
    const listener = (e: unknown) => seen.push(e);
    const otherListener = (e: unknown) => seenByOther.push(e);
    const stop = svc.subscribeNotifications(user.id, listener);
    const stopOther = svc.subscribeNotifications(other.id, otherListener);
    try {
      const dto = await svc.notify(user.id, { type: "NEW_CAMPAIGN", title: "Launched" });
      await svc.markRead(user.id, dto.id);
      expect(seen).toEqual([{ kind: "created", notification: dto }, { kind: "changed" }]);
      expect(seenByOther).toEqual([]);
    } finally {
      stop();
      stopOther();
    }
  });
});

describe("listNotifications", () => {
  it("filters by type and limits, while the unread count covers everything", async () => {
    const user = await freshUser();
    await svc.notify(user.id, { type: "NEW_SEGMENT", title: "S1" });
    await svc.notify(user.id, { type: "NEW_CAMPAIGN", title: "C1" });
    await svc.notify(user.id, { type: "NEW_SEGMENT", title: "S2" });
    const segments = await svc.listNotifications(user.id, { type: "NEW_SEGMENT" });
    expect(segments.notifications.map((n) => n.title)).toEqual(["S2", "S1"]);
    expect(segments.unreadCount).toBe(3);
    const first = await svc.listNotifications(user.id, { take: 1 });
    expect(first.notifications.map((n) => n.title)).toEqual(["S2"]);
  });
});

describe("changes are scoped to their owner", () => {
  it("markRead marks one of the caller's; another user's id is not found and stays unread", async () => {
    const owner = await freshUser();
    const stranger = await freshUser();
    const a = await svc.notify(owner.id, { type: "SYSTEM", title: "A" });
    const b = await svc.notify(owner.id, { type: "SYSTEM", title: "B" });

    const err = await rejection(svc.markRead(stranger.id, a.id));
    expect(err).toBeInstanceOf(ApiError);
    expect(err).toMatchObject({ status: 404, message: "Notification not found" });

    await svc.markRead(owner.id, a.id);
    const { notifications, unreadCount } = await svc.listNotifications(owner.id);
    expect(notifications.find((n) => n.id === a.id)?.read).toBe(true);
    expect(notifications.find((n) => n.id === b.id)?.read).toBe(false);
    expect(unreadCount).toBe(1);
  });

  it("markRead of a made-up or malformed id is not found", async () => {
    const owner = await freshUser();
    expect(await rejection(svc.markRead(owner.id, "ffffffffffffffffffffffff"))).toMatchObject({ status: 404 });
    expect(await rejection(svc.markRead(owner.id, "'; DROP TABLE x; --"))).toMatchObject({ status: 404 });
  });

  it("markAllRead touches only the caller's and says how many changed", async () => {
    const owner = await freshUser();
    const other = await freshUser();
    await svc.notify(owner.id, { type: "SYSTEM", title: "1" });
    await svc.notify(owner.id, { type: "SYSTEM", title: "2" });
    await svc.notify(other.id, { type: "SYSTEM", title: "theirs" });
    expect(await svc.markAllRead(owner.id)).toBe(2);
    expect(await svc.markAllRead(owner.id)).toBe(0);
    expect((await svc.listNotifications(owner.id)).unreadCount).toBe(0);
    expect((await svc.listNotifications(other.id)).unreadCount).toBe(1);
  });

  it("deleteNotification removes one of the caller's; another user's is not found and stays", async () => {
    const owner = await freshUser();
    const stranger = await freshUser();
    const n = await svc.notify(owner.id, { type: "SYSTEM", title: "Delete me" });
    expect(await rejection(svc.deleteNotification(stranger.id, n.id))).toMatchObject({ status: 404 });
    expect((await svc.listNotifications(owner.id)).notifications).toHaveLength(1);
    await svc.deleteNotification(owner.id, n.id);
    expect((await svc.listNotifications(owner.id)).notifications).toHaveLength(0);
    expect(await rejection(svc.deleteNotification(owner.id, n.id))).toMatchObject({ status: 404 });
  });
});
