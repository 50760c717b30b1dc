// @engines sqlite postgres
// Users against a real SQLite database: sign-in upserts (Google and local), the welcome
// notification at the first sign-in only, profile updates, passwords, session versions and deletion.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { useTestDatabase as setUpTestDatabase } from "../../tests/helpers/db";

setUpTestDatabase();

const users = await import("~/services/users.server");
const { listNotifications } = await import("~/services/notifications.server");
const { ApiError } = await import("~/lib/api.server");
const { isId } = await import("~/lib/id");
const { resetEnvCache } = await import("~/env.server");

let n = 0;
const email = (prefix: string) => `${prefix}-${++n}-${Date.now()}@example.com`;

describe("upsertGoogleUser", () => {
  // Sign-up open (SIGN_UP=open), so a new Google account may be made after the first; Google
  // refused while it is closed is tests/routes/first-run.test.ts.
  beforeAll(() => {
    process.env.SIGN_UP = "open";
    resetEnvCache();
  });
  afterAll(() => {
    delete process.env.SIGN_UP;
    resetEnvCache();
  });

  it("creates the user from Google's profile and welcomes them once", async () => {
    const address = email("Google.User");
    const created = await users.upsertGoogleUser({
      googleId: `g-${n}`,
      email: address,
      emailVerified: true,
      displayName: "Grace Hopper",
      firstName: "Grace",
      lastName: "Hopper",
      profileImage: "https://example.com/grace.png",
    });
    expect(isId(created.id)).toBe(true);
    expect(created).toMatchObject({
      email: address.toLowerCase(),
      provider: "google",
      emailVerified: true,
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

  it("makes Google's names one line: a line break never reaches a mail header", async () => {
    const created = await users.upsertGoogleUser({
      googleId: `g-crlf-${n}`,
      email: email("crlf"),
      emailVerified: true,
      displayName: "Eve\r\nBcc: victim@example.com",
      firstName: "Eve\n",
      lastName: "\tAdams\u0000",
    });
    expect(created).toMatchObject({
      displayName: "Eve Bcc: victim@example.com",
      firstName: "Eve",
      lastName: "Adams",
    });
  });

  it("updates the same account at the next sign-in (by Google id), keeping names the user edited", async () => {
    const address = email("again");
    const first = await users.upsertGoogleUser({
      googleId: `g-again-${n}`,
      email: address,
      emailVerified: true,
      displayName: "Old Name",
      firstName: "Old",
    });
    await users.updateProfile(first.id, {
      firstName: "Edited",
      lastName: "",
      email: address,
      phone: "",
      company: "",
      position: "",
    });
    const second = await users.upsertGoogleUser({
      googleId: `g-again-${n}`,
      email: address,
      emailVerified: true,
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

  it("refuses a Google sign-in whose e-mail belongs to a local account with a password (its address was never verified)", async () => {
    const address = email("claimed");
    const local = await users.upsertLocalUser({ email: address, name: "Local Person", passwordHash: "h" });
    const failure = await users
      .upsertGoogleUser({
        googleId: `g-claimed-${n}`,
        email: address.toUpperCase(),
        emailVerified: true,
        displayName: "Real Owner",
      })
      .catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(users.GoogleLinkRefused);
    const after = await users.findUserByEmail(address);
    expect(after).toMatchObject({ id: local.id, googleId: null, provider: "local", displayName: "Local Person" });
  });

  it("links an account the owner added (no password, never signed in to) to Google's verified address", async () => {
    const address = email("invited");
    const invited = await users.upsertLocalUser({ email: address, name: "Invited Person", passwordHash: null });
    const unverified = await users
      .upsertGoogleUser({ googleId: `g-invited-x-${n}`, email: address, emailVerified: false, displayName: "X" })
      .catch((e: unknown) => e);
    expect(unverified).toBeInstanceOf(users.GoogleLinkRefused);
    const google = await users.upsertGoogleUser({
      googleId: `g-invited-${n}`,
      email: address,
      emailVerified: true,
      displayName: "Invited Person",
    });
    expect(google).toMatchObject({ id: invited.id, googleId: `g-invited-${n}`, provider: "google" });
  });

  it("links by e-mail to an account whose address is verified and has no Google id yet", async () => {
    const address = email("verified");
    const local = await users.upsertLocalUser({ email: address, name: "Verified Person" });
    const { db } = await import("~/db/prisma.server");
    await db().user.update({ where: { id: local.id }, data: { emailVerified: true } });
    const google = await users.upsertGoogleUser({
      googleId: `g-verified-${n}`,
      email: address,
      emailVerified: true,
      displayName: "Verified Person",
    });
    expect(google.id).toBe(local.id);
    expect(google.googleId).toBe(`g-verified-${n}`);
    expect((await listNotifications(local.id)).notifications).toHaveLength(1);
    // A second Google account with the same address does not take it over.
    await expect(
      users.upsertGoogleUser({
        googleId: `g-other-${n}`,
        email: address,
        emailVerified: true,
        displayName: "Someone Else",
      }),
    ).rejects.toBeInstanceOf(users.GoogleLinkRefused);
  });

  it("matches by Google id even after a profile e-mail change, which un-verifies the address", async () => {
    const address = email("moved");
    const googleId = `g-moved-${n}`;
    const first = await users.upsertGoogleUser({ googleId, email: address, emailVerified: true, displayName: "Mover" });
    const moved = await users.updateProfile(first.id, {
      firstName: "",
      lastName: "",
      email: email("typed"),
      phone: "",
      company: "",
      position: "",
    });
    expect(moved.emailVerified).toBe(false);
    const again = await users.upsertGoogleUser({ googleId, email: address, emailVerified: true, displayName: "Mover" });
    expect(again.id).toBe(first.id);
    expect(again.email).toBe(moved.email);
    expect(again.emailVerified).toBe(false);
  });
});

describe("passwords, session versions and deletion", () => {
  it("a new password bumps the session version; endSessions bumps it again", async () => {
    const user = await users.upsertLocalUser({ email: email("pw"), name: "Pass Word", passwordHash: "h1" });
    expect(user.passwordHash).toBe("h1");
    expect(user.sessionVersion).toBe(0);
    const changed = await users.setPasswordHash(user.id, "h2");
    expect(changed).toMatchObject({ passwordHash: "h2", sessionVersion: 1 });
    expect((await users.getUser(user.id))?.sessionVersion).toBe(1);
    await users.endSessions(user.id);
    expect(await users.currentSessionVersion(user.id)).toBe(2);
    expect((await users.getUser(user.id))?.sessionVersion).toBe(2);
  });

  it("deleting a user makes getUser answer null at once, though it was cached", async () => {
    const user = await users.upsertLocalUser({ email: email("gone"), name: "Gone Soon" });
    expect(await users.getUser(user.id)).not.toBeNull();
    expect(await users.deleteUser(user.id)).toBe(true);
    expect(await users.getUser(user.id)).toBeNull();
    expect(await users.userStillExists(user.id)).toBe(false);
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
    const { db } = await import("~/db/prisma.server");
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
