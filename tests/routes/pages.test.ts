// @engines sqlite postgres
// Page loaders and actions of the foundation: guards, local sign-in, sign-out, the profile form,
// the notifications screen's actions, and /healthz.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestUser, useTestDatabase as setUpTestDatabase } from "../helpers/db";
import { ORIGIN, args, cookieFor, formRequest, makeRequest } from "../helpers/requests";

setUpTestDatabase();

const login = await import("~/routes/login");
const authLocal = await import("~/routes/auth-local");
const signout = await import("~/routes/auth-signout");
const profile = await import("~/routes/profile");
const notificationsPage = await import("~/routes/notifications");
const customerDetail = await import("~/routes/customers-detail");
const customersPage = await import("~/routes/customers");
const layout = await import("~/routes/app-layout");
const unknown = await import("~/routes/unknown");
const healthz = await import("~/routes/healthz");
const { verifyToken } = await import("~/services/token.server");
const { sessionUserId } = await import("~/services/session.server");
const { notify, listNotifications } = await import("~/services/notifications.server");
const { createCustomer, getCustomer } = await import("~/services/customers.server");
const { readFlash } = await import("~/services/session.server");
const { db } = await import("~/db/prisma.server");
const { resetEnvCache } = await import("~/env.server");

/** Runs a loader or action and returns what it answered or threw as a Response. */
async function settle(run: () => Promise<unknown> | unknown): Promise<Response> {
  try {
    const result = await run();
    if (result instanceof Response) return result;
    return Response.json(result);
  } catch (thrown) {
    if (thrown instanceof Response) return thrown;
    throw thrown;
  }
}

/** Remix's data() results carry their payload in .data and status in .init. */
type DataResult<T> = { data: T; init: { status?: number } | null };

/** What a form action answers when it does not redirect: Conform's submission.reply(). */
type Reply = {
  status?: "success" | "error";
  error?: Record<string, string[] | null> | null;
  initialValue?: Record<string, unknown> | null;
};

/** Runs a loader that is expected to stop with a thrown data(message, { status }). */
async function thrownBy(run: () => Promise<unknown>): Promise<DataResult<unknown>> {
  try {
    await run();
  } catch (thrown) {
    return thrown as DataResult<unknown>;
  }
  throw new Error("the loader answered instead of throwing");
}

const cookieOf = (res: Response) => (res.headers.get("Set-Cookie") ?? "").split(";")[0];

describe("guards", () => {
  it("the layout sends a visitor without a session to /login", async () => {
    const res = await settle(() => layout.loader(args(makeRequest("/"))));
    expect(res.status).toBe(302);
    expect(res.headers.get("Location")).toBe("/login");
  });

  it("the layout gives the signed-in user, the first 5 notifications and the unread count", async () => {
    const user = await createTestUser("Shell User");
    for (let i = 0; i < 6; i += 1) await notify(user.id, { type: "SYSTEM", title: `N${i}` });
    const data = await layout.loader(args(makeRequest("/", { auth: { cookie: await cookieFor(user.id) } })));
    expect(data.user).toMatchObject({ _id: user.id, displayName: "Shell User" });
    expect(data.notifications.map((n) => n.title)).toEqual(["N5", "N4", "N3", "N2", "N1"]);
    expect(data.unreadCount).toBe(7);
  });

  it("a session for a user that no longer exists is sent to /login, which says the session expired", async () => {
    const user = await createTestUser();
    const cookie = await cookieFor(user.id);
    await db().user.delete({ where: { id: user.id } });
    const res = await settle(() => layout.loader(args(makeRequest("/profile", { auth: { cookie } }))));
    expect(res.headers.get("Location")).toBe("/login?error=session_expired");
  });

  it("/login sends a signed-in visitor to /, and tells others which sign-in modes are on", async () => {
    const user = await createTestUser();
    const cookie = await cookieFor(user.id);
    const res = await settle(() => login.loader(args(makeRequest("/login", { auth: { cookie } }))));
    expect(res.status).toBe(302);
    expect(res.headers.get("Location")).toBe("/");
    const anonymous = await login.loader(args(makeRequest("/login")));
    // An install with accounts already: sign-in only (sign-up is closed by default after the owner).
    expect(anonymous).toEqual({
      googleEnabled: false,
      localAuthEnabled: true,
      firstAccount: false,
      signUpOpen: false,
      useAddress: null,
    });
  });

  it("unknown paths redirect to /", async () => {
    const res = await settle(() => unknown.loader());
    expect(res.headers.get("Location")).toBe("/");
  });
});

describe("local sign-in (POST /login)", () => {
  // Sign-up open (SIGN_UP=open), so that a new e-mail makes an account on an install that has some.
  beforeAll(() => {
    process.env.SIGN_UP = "open";
    resetEnvCache();
  });
  afterAll(() => {
    delete process.env.SIGN_UP;
    resetEnvCache();
  });

  it("creates the user, opens a session and goes to /auth/callback with a valid token", async () => {
    const email = `local-${Date.now()}@example.com`;
    const res = await settle(() =>
      authLocal.action(args(formRequest("/login", { name: "Kavya Iyer", email, password: "kavya-long-passphrase" }))),
    );
    expect(res.status).toBe(302);
    const location = new URL(res.headers.get("Location") ?? "", ORIGIN);
    expect(location.pathname).toBe("/auth/callback");
    expect(location.searchParams.get("auth")).toBe("success");
    const userId = await verifyToken(location.searchParams.get("token") ?? "");
    const user = await db().user.findUniqueOrThrow({ where: { email } });
    expect(userId).toBe(user.id);
    expect(user.displayName).toBe("Kavya Iyer");
    const setCookie = res.headers.get("Set-Cookie") ?? "";
    expect(setCookie).toMatch(/HttpOnly/i);
    expect(setCookie).toMatch(/SameSite=Lax/i);
    expect(await sessionUserId(makeRequest("/", { auth: { cookie: cookieOf(res) } }))).toBe(user.id);
  });

  it("answers field messages (400) for a bad e-mail and a missing password", async () => {
    const res = await authLocal.action(args(formRequest("/login", { name: " ", email: "nope" })));
    expect(res.status).toBe(400);
    const body = (await res.json()) as { error: { code: string; fields: Record<string, string> } };
    expect(body.error.code).toBe("bad_request");
    expect(body.error.fields).toEqual({ email: "Enter a valid e-mail address", password: "Enter your password" });
  });

  it("GET /auth/local goes to /login", async () => {
    const res = await settle(() => authLocal.loader());
    expect(res.headers.get("Location")).toBe("/login");
  });
});

describe("sign-out", () => {
  it("POST with a known reason (the session check) ends this browser's session and shows the reason on /login", async () => {
    const user = await createTestUser();
    const cookie = await cookieFor(user.id);
    const res = await settle(() =>
      signout.action(args(formRequest("/auth/signout", { error: "tenant_isolation_error" }, { cookie }))),
    );
    expect(res.headers.get("Location")).toBe("/login?error=tenant_isolation_error");
    expect(res.headers.get("Set-Cookie")).toMatch(/Expires=Thu, 01 Jan 1970/);
  });

  it("POST with an unknown reason goes to plain /login", async () => {
    for (const reason of ["<script>", "constructor", ""]) {
      const res = await settle(() => signout.action(args(formRequest("/auth/signout", { error: reason }))));
      expect(res.headers.get("Location"), reason).toBe("/login");
    }
  });

  it("POST ends the session and leaves the 'Logged out successfully' toast", async () => {
    const user = await createTestUser();
    const cookie = await cookieFor(user.id);
    expect(await sessionUserId(makeRequest("/", { auth: { cookie } }))).toBe(user.id);
    const res = await settle(() => signout.action(args(formRequest("/auth/signout", {}, { cookie }))));
    expect(res.headers.get("Location")).toBe("/login");
    const after = makeRequest("/", { auth: { cookie: cookieOf(res) } });
    expect(await sessionUserId(after)).toBeNull();
    expect((await readFlash(after)).flash).toEqual({
      kind: "toast",
      type: "success",
      message: "Logged out successfully",
    });
  });
});

describe("the /profile form", () => {
  const fields = (email: string) => ({
    firstName: "Anil",
    lastName: "Menon",
    email,
    phone: "98765",
    company: "Zen",
    position: "CTO",
  });

  it("saves and redirects to /profile with the success snackbar", async () => {
    const user = await createTestUser();
    const res = await settle(() => profile.action(args(formRequest("/profile", fields(user.email), { cookie: "" }))));
    // Without a session the form post goes to /login.
    expect(res.headers.get("Location")).toBe("/login");

    const cookie = await cookieFor(user.id);
    const saved = await settle(() => profile.action(args(formRequest("/profile", fields(user.email), { cookie }))));
    expect(saved.status).toBe(302);
    expect(saved.headers.get("Location")).toBe("/profile");
    const flash = (await readFlash(makeRequest("/profile", { auth: { cookie: cookieOf(saved) } }))).flash;
    expect(flash).toEqual({ kind: "snackbar", type: "success", message: "Profile updated successfully!" });
    expect(await db().user.findUniqueOrThrow({ where: { id: user.id } })).toMatchObject({
      company: "Zen",
      displayName: "Anil Menon",
    });
  });

  it("answers 400 with field messages and the error snackbar text for bad input, keeping the values", async () => {
    const user = await createTestUser();
    const res = (await profile.action(
      args(
        formRequest("/profile", { ...fields("bad"), firstName: "y".repeat(150) }, { cookie: await cookieFor(user.id) }),
      ),
    )) as unknown as DataResult<Reply>;
    expect(res.init?.status).toBe(400);
    expect(res.data.error).toEqual({
      "": ["Failed to update profile. Please try again."],
      email: ["Enter a valid e-mail address"],
      firstName: ["At most 100 characters"],
    });
    expect(res.data.initialValue).toMatchObject({ email: "bad", company: "Zen" });
  });

  it("an emptied e-mail is not a valid address", async () => {
    const user = await createTestUser();
    const res = (await profile.action(
      args(formRequest("/profile", fields(""), { cookie: await cookieFor(user.id) })),
    )) as unknown as DataResult<Reply>;
    expect(res.init?.status).toBe(400);
    expect(res.data.error?.email).toEqual(["Enter a valid e-mail address"]);
  });

  it("answers 409 when the e-mail belongs to another account", async () => {
    const taken = await createTestUser();
    const user = await createTestUser();
    const res = (await profile.action(
      args(formRequest("/profile", fields(taken.email), { cookie: await cookieFor(user.id) })),
    )) as unknown as DataResult<Reply>;
    expect(res.init?.status).toBe(409);
    expect(res.data.error).toEqual({
      "": ["Failed to update profile. Please try again."],
      email: ["Another account already uses this e-mail"],
    });
  });

  it("refuses a form post from another Origin (403)", async () => {
    const user = await createTestUser();
    const res = await settle(() =>
      profile.action(args(formRequest("/profile", fields(user.email), { cookie: "" }, "https://evil.example"))),
    );
    expect(res.status).toBe(403);
    const withSession = await settle(async () =>
      profile.action(
        args(formRequest("/profile", fields(user.email), { cookie: await cookieFor(user.id) }, "https://evil.example")),
      ),
    );
    expect(withSession.status).toBe(403);
    expect((await db().user.findUniqueOrThrow({ where: { id: user.id } })).company).toBe("");
  });
});

describe("the /notifications screen's actions", () => {
  it("read, read-all and delete act on the caller's notifications only", async () => {
    const user = await createTestUser();
    const stranger = await createTestUser();
    const cookie = await cookieFor(user.id);
    const strangerCookie = await cookieFor(stranger.id);
    const n = await notify(user.id, { type: "NEW_SEGMENT", title: "Mine" });

    const theirs = (await notificationsPage.action(
      args(formRequest("/notifications", { intent: "read", id: n.id }, { cookie: strangerCookie })),
    )) as unknown as DataResult<Reply>;
    expect(theirs.init?.status).toBe(404);
    expect(theirs.data.error?.[""]).toEqual(["Notification not found"]);

    const mine = (await notificationsPage.action(
      args(formRequest("/notifications", { intent: "read", id: n.id }, { cookie })),
    )) as unknown as Reply;
    expect(mine.status).toBe("success");
    expect((await listNotifications(user.id)).unreadCount).toBe(1);
    await notificationsPage.action(args(formRequest("/notifications", { intent: "read-all" }, { cookie })));
    expect((await listNotifications(user.id)).unreadCount).toBe(0);

    const delTheirs = (await notificationsPage.action(
      args(formRequest("/notifications", { intent: "delete", id: n.id }, { cookie: strangerCookie })),
    )) as unknown as DataResult<Reply>;
    expect(delTheirs.init?.status).toBe(404);
    await notificationsPage.action(args(formRequest("/notifications", { intent: "delete", id: n.id }, { cookie })));
    expect((await listNotifications(user.id)).notifications.map((x) => x.title)).toEqual(["Welcome to the CRM"]);
  });

  it("an unknown intent is a 400", async () => {
    const user = await createTestUser();
    const res = (await notificationsPage.action(
      args(formRequest("/notifications", { intent: "explode" }, { cookie: await cookieFor(user.id) })),
    )) as unknown as DataResult<Reply>;
    expect(res.init?.status).toBe(400);
    expect(res.data.error?.[""]).toEqual(["Unknown notification action"]);
  });

  it("the loader filters by the filter key and still counts all unread", async () => {
    const user = await createTestUser();
    await notify(user.id, { type: "NEW_CUSTOMERS", title: "New customers added" });
    const cookie = await cookieFor(user.id);
    const data = await notificationsPage.loader(
      args(makeRequest("/notifications?type=customers", { auth: { cookie } })),
    );
    expect(data.filter).toBe("customers");
    expect(data.notifications.map((n) => n.title)).toEqual(["New customers added"]);
    expect(data.unreadCount).toBe(2);
    const bogus = await notificationsPage.loader(args(makeRequest("/notifications?type=bogus", { auth: { cookie } })));
    expect(bogus.filter).toBeNull();
    expect(bogus.notifications).toHaveLength(2);
  });
});

describe("a customer that cannot be loaded", () => {
  const LOAD_FAILED = "Failed to load customer data. Please try again.";
  const someone = { firstName: "Asha", lastName: "Rao", phone: "", address: "", company: "", notes: "" };

  it("/customers/{id} stops with 404 and the load message for an unknown id, a malformed id and another user's customer", async () => {
    const user = await createTestUser();
    const stranger = await createTestUser();
    const theirs = await createCustomer(stranger.id, { ...someone, email: `asha-${Date.now()}@example.com` });
    const cookie = await cookieFor(user.id);
    for (const id of ["0123456789abcdef01234567", "not-an-id", theirs.id]) {
      const thrown = await thrownBy(() =>
        customerDetail.loader(args(makeRequest(`/customers/${id}`, { auth: { cookie } }), { id })),
      );
      expect(thrown.init?.status).toBe(404);
      expect(thrown.data).toBe(LOAD_FAILED);
    }
    // The owner sees it.
    const own = await customerDetail.loader(
      args(makeRequest(`/customers/${theirs.id}`, { auth: { cookie: await cookieFor(stranger.id) } }), {
        id: theirs.id,
      }),
    );
    expect(own.customer).toMatchObject({ id: theirs.id, firstName: "Asha" });
  });

  it("deleting another user's customer from the list is a 404 with its message, and deletes nothing", async () => {
    const user = await createTestUser();
    const stranger = await createTestUser();
    const theirs = await createCustomer(stranger.id, { ...someone, email: `asha-${Date.now()}@example.com` });
    const cookie = await cookieFor(user.id);
    const refused = await thrownBy(() =>
      customersPage.action(
        args(formRequest("/customers", { intent: "delete", id: theirs.id, back: "/customers?q=asha" }, { cookie })),
      ),
    );
    expect(refused).toMatchObject({ data: "Delete failed: Customer not found", init: { status: 404 } });
    expect(await getCustomer(stranger.id, theirs.id)).toMatchObject({ id: theirs.id });

    const bad = await settle(() =>
      customersPage.action(args(formRequest("/customers", { intent: "explode", back: "//evil.example" }, { cookie }))),
    );
    expect(bad.headers.get("Location")).toBe("/customers");
    expect((await readFlash(makeRequest("/customers", { auth: { cookie: cookieOf(bad) } }))).flash).toEqual({
      kind: "toast",
      type: "error",
      message: "Failed to delete customer. Please try again.",
    });
  });
});

describe("/healthz", () => {
  it("answers 200 ok when the database answers", async () => {
    const res = await healthz.loader();
    expect(res.status).toBe(200);
    const body = (await res.json()) as { status: string; eventLoopDelayP99Ms: number };
    expect(body.status).toBe("ok");
    expect(body.eventLoopDelayP99Ms).toBeGreaterThanOrEqual(0);
    expect(res.headers.get("Cache-Control")).toBe("no-store");
  });
});
