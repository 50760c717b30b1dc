// Users against a real SQLite database: sign-in upserts (Google and local), the welcome
// notification at the first sign-in only, and profile updates.
import { describe, expect, it } from "vitest";
import { useTestDatabase as setUpTestDatabase } from "../../tests/helpers/db";

setUpTestDatabase();

const users = await import("~/services/users.server");
const { listNotifications } = await import("~/services/notifications.server");
const { ApiError } = await import("~/lib/api.server");
const { isId } = await import("~/lib/id");

let n = 0;
const email = (prefix: string) => `${prefix}-${++n}-${Date.now()}@example.com`;

describe("upsertGoogleUser", () => {
  it("creates the user from Google's profile and welcomes them once", async () => {
    const address = email("Google.User");
    const created = await users.upsertGoogleUser({
      googleId: `g-${n}`,
      email: address,
      displayName: "Grace Hopper",
      firstName: "Grace",
      lastName: "Hopper",
      profileImage: "https://example.com/grace.png",
    });
    expect(isId(created.id)).toBe(true);
    expect(created).toMatchObject({
      email: address.toLowerCase(),
      provider: "google",
      displayName: "Grace Hopper",
      firstName: "Grace",
      lastName: "Hopper",
      profileImage: "https://example.com/grace.png",
    });
    const { notifications, unreadCount } = await listNotifications(created.id);
    expect(unreadCount).toBe(1);
    expect(notifications[0]).toMatchObject({ type: "SYSTEM", title: "Welcome to the CRM", read: false });
    expect(notifications[0].details).toContain("Grace Hopper");
  });

  it("updates the same account at the next sign-in (by Google id), keeping names the user edited", async () => {
    const address = email("again");
    const first = await users.upsertGoogleUser({ googleId: `g-again-${n}`, email: address, displayName: "Old Name", firstName: "Old" });
    await users.updateProfile(first.id, { firstName: "Edited", lastName: "", email: address, phone: "", company: "", position: "" });
    const second = await users.upsertGoogleUser({
      googleId: `g-again-${n}`,
      email: address,
      displayName: "New Name",
      firstName: "New",
      profileImage: "https://example.com/new.png",
    });
    expect(second.id).toBe(first.id);
    expect(second.displayName).toBe("New Name");
    expect(second.firstName).toBe("Edited");
    expect(second.profileImage).toBe("https://example.com/new.png");
    expect((await listNotifications(first.id)).notifications).toHaveLength(1);
  });

  it("links a Google sign-in to an existing local account with the same e-mail", async () => {
    const address = email("linked");
    const local = await users.upsertLocalUser({ email: address, name: "Local Person" });
    const google = await users.upsertGoogleUser({ googleId: `g-linked-${n}`, email: address.toUpperCase(), displayName: "Local Person" });
    expect(google.id).toBe(local.id);
    expect(google.provider).toBe("google");
    expect(google.googleId).toBe(`g-linked-${n}`);
    expect((await listNotifications(local.id)).notifications).toHaveLength(1);
  });
});

describe("upsertLocalUser", () => {
  it("creates a local user with names split from the display name, e-mail lower-cased", async () => {
    const address = email("Mixed.Case");
    const user = await users.upsertLocalUser({ email: address, name: "  Asha  Devi Rao " });
    expect(user).toMatchObject({
      email: address.toLowerCase(),
      provider: "local",
      displayName: "Asha  Devi Rao",
      firstName: "Asha",
      lastName: "Devi Rao",
      profileImage: null,
    });
  });

  it("reuses the account for the same e-mail, whatever the name", async () => {
    const address = email("reuse");
    const a = await users.upsertLocalUser({ email: address, name: "First" });
    const b = await users.upsertLocalUser({ email: address.toUpperCase(), name: "Second" });
    expect(b.id).toBe(a.id);
    expect(b.displayName).toBe("First");
    expect((await listNotifications(a.id)).unreadCount).toBe(1);
  });

  it("finds users by e-mail case-insensitively and lists them oldest first", async () => {
    const address = email("find");
    const u = await users.upsertLocalUser({ email: address, name: "Find Me" });
    expect((await users.findUserByEmail(address.toUpperCase()))?.id).toBe(u.id);
    const all = await users.listUsers();
    expect(all.at(-1)?.id).toBe(u.id);
  });
});

describe("updateProfile", () => {
  const profile = (overrides: Partial<Record<string, string>> = {}) => ({
    firstName: "Ravi",
    lastName: "Kumar",
    email: "x@example.com",
    phone: "+91 98765 43210",
    company: "Acme",
    position: "Manager",
    ...overrides,
  });

  it("saves the six fields and derives the display name", async () => {
    const user = await users.upsertLocalUser({ email: email("p"), name: "Someone" });
    const address = email("new");
    const updated = await users.updateProfile(user.id, profile({ email: address }));
    expect(updated).toMatchObject({ ...profile({ email: address.toLowerCase() }), displayName: "Ravi Kumar" });
    const pub = users.toPublicUser(updated);
    expect(pub._id).toBe(user.id);
    expect(pub.createdAt).toMatch(/^\d{4}-\d\d-\d\dT/);
  });

  it("getUser answers the change at once, though it keeps callers for a moment", async () => {
    const user = await users.upsertLocalUser({ email: email("c"), name: "Before Change" });
    expect((await users.getUser(user.id))?.displayName).toBe("Before Change");
    await users.updateProfile(user.id, profile({ email: email("c2"), firstName: "After", lastName: "Change" }));
    expect((await users.getUser(user.id))?.displayName).toBe("After Change");
    // Other workers hear of it on the process bus; a message for this user is what they get.
    const { publish } = await import("~/services/process-bus.server");
    const { db } = await import("~/db.server");
    await db().user.update({ where: { id: user.id }, data: { displayName: "Changed Elsewhere" } });
    expect((await users.getUser(user.id))?.displayName).toBe("After Change");
    publish(users.USER_CHANGED, user.id);
    expect((await users.getUser(user.id))?.displayName).toBe("Changed Elsewhere");
    expect(await users.getUser("0123456789abcdef01234567")).toBeNull();
  });

  it("keeps the display name when both names are empty", async () => {
    const user = await users.upsertLocalUser({ email: email("keep"), name: "Kept Name" });
    const updated = await users.updateProfile(user.id, profile({ firstName: "", lastName: "", email: user.email }));
    expect(updated.displayName).toBe("Kept Name");
  });

  it("refuses another account's e-mail with a 409 naming the field", async () => {
    const a = await users.upsertLocalUser({ email: email("a"), name: "A" });
    const b = await users.upsertLocalUser({ email: email("b"), name: "B" });
    const failure = await users.updateProfile(b.id, profile({ email: a.email.toUpperCase() })).catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(ApiError);
    expect(failure).toMatchObject({ status: 409, fields: { email: "Another account already uses this e-mail" } });
    expect((await users.getUser(b.id))?.email).toBe(b.email);
  });
});
