// @engines sqlite postgres
// The auth and profile part of the /api contract, local sign-in with passwords, and sessions that
// end (expiry, logout, a password change), through the route modules with real Requests and a real
// migrated SQLite database.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestUser, useTestDatabase as setUpTestDatabase } from "../helpers/db";
import { SignJWT } from "jose";
import {
  args,
  bearerFor,
  cookieFor,
  expiredTokenFor,
  forgedTokenFor,
  formRequest,
  makeRequest,
  ORIGIN,
} from "../helpers/requests";

setUpTestDatabase();

const currentUser = await import("~/routes/api/auth-current-user");
const profile = await import("~/routes/api/auth-profile");
const usersId = await import("~/routes/api/users-id");
const logout = await import("~/routes/api/auth-logout");
const notFoundRoute = await import("~/routes/api/not-found");
const authLocal = await import("~/routes/auth-local");
const signInMessages = await import("~/services/local-sign-in.server");
const login = await import("~/routes/login");
const signout = await import("~/routes/auth-signout");
const layout = await import("~/routes/app-layout");
const profilePage = await import("~/routes/profile");
const customers = await import("~/routes/api/customers");
const { db } = await import("~/db/prisma.server");
const { getEnv, resetEnvCache } = await import("~/env.server");
const { sessionStorage } = await import("~/services/session.server");
const { hashPassword } = await import("~/services/passwords.server");
const users = await import("~/services/users.server");

type Json = Record<string, unknown>;
const json = async (res: Response) => (await res.json()) as Json;

describe("GET /api/auth/current_user", () => {
  const get = (auth?: { bearer?: string; cookie?: string }) =>
    currentUser.loader(args(makeRequest("/api/auth/current_user", { auth })));

  it("without credentials: not authenticated, no user", async () => {
    const res = await get();
    expect(res.status).toBe(200);
    expect(await json(res)).toEqual({ isAuthenticated: false, user: null });
    expect(res.headers.get("X-User-Id")).toBeNull();
  });

  it("with a valid bearer token: the user, and X-User-Id", async () => {
    const user = await createTestUser("Asha Rao");
    const res = await get({ bearer: await bearerFor(user.id) });
    expect(res.status).toBe(200);
    expect(res.headers.get("X-User-Id")).toBe(user.id);
    expect(res.headers.get("Cache-Control")).toBe("no-store");
    const body = await json(res);
    expect(body.isAuthenticated).toBe(true);
    expect(body.user).toMatchObject({
      _id: user.id,
      id: user.id,
      displayName: "Asha Rao",
      email: user.email,
      profileImage: null,
    });
    expect(Object.keys(body.user as Json).sort()).toEqual(
      [
        "_id",
        "company",
        "createdAt",
        "displayName",
        "email",
        "firstName",
        "id",
        "lastName",
        "phone",
        "position",
        "profileImage",
        "provider",
      ].sort(),
    );
  });

  it("with the session cookie: the user", async () => {
    const user = await createTestUser();
    const res = await get({ cookie: await cookieFor(user.id) });
    expect(res.status).toBe(200);
    expect(res.headers.get("X-User-Id")).toBe(user.id);
    expect((await json(res)).isAuthenticated).toBe(true);
  });

  it.each([
    ["malformed", async () => "not-a-token"],
    ["empty", async () => ""],
    ["forged", async (id: string) => forgedTokenFor(id)],
    ["expired", async (id: string) => expiredTokenFor(id)],
    [
      "unsigned (alg none)",
      async (id: string) =>
        `${Buffer.from('{"alg":"none"}').toString("base64url")}.${Buffer.from(JSON.stringify({ id })).toString("base64url")}.`,
    ],
  ])("with a %s token: 401 JSON 'Session expired'", async (_kind, make) => {
    const user = await createTestUser();
    const res = await get({ bearer: await make(user.id) });
    expect(res.status).toBe(401);
    expect(res.headers.get("Content-Type")).toMatch(/^application\/json/);
    expect(await json(res)).toEqual({ error: { code: "unauthorized", message: "Session expired" } });
    expect(res.headers.get("X-User-Id")).toBeNull();
  });

  it("a bad bearer token is refused even when a valid cookie comes along", async () => {
    const user = await createTestUser();
    const res = await get({ bearer: "a.b.c", cookie: await cookieFor(user.id) });
    expect(res.status).toBe(401);
  });

  it("a valid token of a deleted user is a 401", async () => {
    const user = await createTestUser();
    const token = await bearerFor(user.id);
    await db().user.delete({ where: { id: user.id } });
    expect((await get({ bearer: token })).status).toBe(401);
  });

  it("a tampered cookie counts as no cookie", async () => {
    const user = await createTestUser();
    const cookie = await cookieFor(user.id);
    const res = await get({ cookie: `${cookie.slice(0, -4)}AAAA` });
    expect(await json(res)).toEqual({ isAuthenticated: false, user: null });
  });
});

describe("POST /api/auth/logout", () => {
  it("ends the cookie session", async () => {
    const user = await createTestUser();
    const res = await logout.action(
      args(
        makeRequest("/api/auth/logout", {
          method: "POST",
          auth: { cookie: await cookieFor(user.id) },
          headers: { Origin: ORIGIN },
        }),
      ),
    );
    expect(res.status).toBe(200);
    expect(await json(res)).toMatchObject({ success: true });
    const setCookie = res.headers.get("Set-Cookie") ?? "";
    expect(setCookie).toMatch(/^__crm_session=;/);
    expect(setCookie).toMatch(/Expires=Thu, 01 Jan 1970/);
  });
});

describe("GET and PUT /api/auth/profile", () => {
  const valid = {
    firstName: "Ravi",
    lastName: "Kumar",
    email: "",
    phone: "+91 98765 43210",
    company: "Acme",
    position: "Lead",
  };

  it("401 JSON without credentials", async () => {
    const res = await profile.loader(args(makeRequest("/api/auth/profile")));
    expect(res.status).toBe(401);
    expect(await json(res)).toEqual({ error: { code: "unauthorized", message: "Not signed in" } });
  });

  it("GET answers the six profile fields", async () => {
    const user = await createTestUser("Meera Nair");
    const res = await profile.loader(
      args(makeRequest("/api/auth/profile", { auth: { bearer: await bearerFor(user.id) } })),
    );
    expect(res.status).toBe(200);
    expect(res.headers.get("X-User-Id")).toBe(user.id);
    expect(await json(res)).toEqual({
      firstName: "Meera",
      lastName: "Nair",
      email: user.email,
      phone: "",
      company: "",
      position: "",
    });
  });

  it("PUT saves and answers the updated user", async () => {
    const user = await createTestUser();
    const email = `Ravi.${Date.now()}@Example.com`;
    const res = await profile.action(
      args(
        makeRequest("/api/auth/profile", {
          method: "PUT",
          auth: { bearer: await bearerFor(user.id) },
          json: { ...valid, email },
        }),
      ),
    );
    expect(res.status).toBe(200);
    expect(res.headers.get("X-User-Id")).toBe(user.id);
    expect(await json(res)).toMatchObject({
      ...valid,
      email: email.toLowerCase(),
      displayName: "Ravi Kumar",
      _id: user.id,
    });
    const again = await profile.loader(
      args(makeRequest("/api/auth/profile", { auth: { bearer: await bearerFor(user.id) } })),
    );
    expect(await json(again)).toMatchObject({ company: "Acme", email: email.toLowerCase() });
  });

  it("PUT with bad fields is a 400 with a message per field, never a 500", async () => {
    const user = await createTestUser();
    const res = await profile.action(
      args(
        makeRequest("/api/auth/profile", {
          method: "PUT",
          auth: { bearer: await bearerFor(user.id) },
          json: { ...valid, email: "not-an-email", firstName: "x".repeat(101), phone: 42 },
        }),
      ),
    );
    expect(res.status).toBe(400);
    expect(res.headers.get("X-User-Id")).toBe(user.id);
    const body = await json(res);
    const error = body.error as { code: string; message: string; fields: Record<string, string> };
    expect(error.code).toBe("bad_request");
    expect(error.fields.email).toBe("Enter a valid e-mail address");
    expect(error.fields.firstName).toBe("At most 100 characters");
    expect(error.fields.phone).toBeTruthy();
  });

  it.each([
    ["a body that is not JSON", "{ nope"],
    ["a JSON array", "[1,2]"],
    ["JSON null", "null"],
    ["an empty body", ""],
  ])("PUT with %s is a 400", async (_kind, body) => {
    const user = await createTestUser();
    const res = await profile.action(
      args(
        makeRequest("/api/auth/profile", {
          method: "PUT",
          auth: { bearer: await bearerFor(user.id) },
          body,
          headers: { "Content-Type": "application/json" },
        }),
      ),
    );
    expect(res.status).toBe(400);
    expect(((await json(res)).error as Json).code).toBe("bad_request");
  });

  it("PUT with another account's e-mail is a 409 naming the field", async () => {
    const taken = await createTestUser();
    const user = await createTestUser();
    const res = await profile.action(
      args(
        makeRequest("/api/auth/profile", {
          method: "PUT",
          auth: { bearer: await bearerFor(user.id) },
          json: { ...valid, email: taken.email },
        }),
      ),
    );
    expect(res.status).toBe(409);
    expect(await json(res)).toEqual({
      error: {
        code: "conflict",
        message: "Another account already uses this e-mail",
        fields: { email: "Another account already uses this e-mail" },
      },
    });
  });

  it("a cookie-carried PUT from another Origin is refused with 403; from our own Origin it passes", async () => {
    const user = await createTestUser();
    const cookie = await cookieFor(user.id);
    const put = (origin: string) =>
      profile.action(
        args(
          makeRequest("/api/auth/profile", {
            method: "PUT",
            auth: { cookie },
            json: { ...valid, email: user.email },
            headers: { Origin: origin },
          }),
        ),
      );
    const foreign = await put("https://evil.example");
    expect(foreign.status).toBe(403);
    expect(await json(foreign)).toEqual({ error: { code: "forbidden", message: "Cross-origin request refused" } });
    expect((await db().user.findUniqueOrThrow({ where: { id: user.id } })).company).toBe("");
    const own = await put("http://localhost:3000");
    expect(own.status).toBe(200);
  });

  it("a bearer-carried PUT is not subject to the Origin check (not a browser credential)", async () => {
    const user = await createTestUser();
    const res = await profile.action(
      args(
        makeRequest("/api/auth/profile", {
          method: "PUT",
          auth: { bearer: await bearerFor(user.id) },
          json: { ...valid, email: user.email },
          headers: { Origin: "https://tool.example" },
        }),
      ),
    );
    expect(res.status).toBe(200);
  });
});

describe("PUT /api/users/{id} (the profile fallback)", () => {
  const body = (email: string) => ({ firstName: "Own", lastName: "Id", email, phone: "", company: "", position: "" });

  it("updates the caller's own record", async () => {
    const user = await createTestUser();
    const res = await usersId.action(
      args(
        makeRequest(`/api/users/${user.id}`, {
          method: "PUT",
          auth: { bearer: await bearerFor(user.id) },
          json: body(user.email),
        }),
        {
          id: user.id,
        },
      ),
    );
    expect(res.status).toBe(200);
    expect(await json(res)).toMatchObject({ _id: user.id, displayName: "Own Id" });
  });

  it("another user's id, a made-up id and a malformed id are all 404 and change nothing", async () => {
    const user = await createTestUser();
    const victim = await createTestUser("Victim Name");
    for (const id of [victim.id, "ffffffffffffffffffffffff", "not-an-id"]) {
      const res = await usersId.action(
        args(
          makeRequest(`/api/users/${id}`, {
            method: "PUT",
            auth: { bearer: await bearerFor(user.id) },
            json: body(user.email),
          }),
          { id },
        ),
      );
      expect(res.status).toBe(404);
      expect(await json(res)).toEqual({ error: { code: "not_found", message: "User not found" } });
      expect(res.headers.get("X-User-Id")).toBe(user.id);
    }
    expect((await db().user.findUniqueOrThrow({ where: { id: victim.id } })).displayName).toBe("Victim Name");
  });

  it("GET answers the caller's own record only", async () => {
    const user = await createTestUser();
    const other = await createTestUser();
    const token = await bearerFor(user.id);
    const own = await usersId.loader(
      args(makeRequest(`/api/users/${user.id}`, { auth: { bearer: token } }), { id: user.id }),
    );
    expect(own.status).toBe(200);
    const theirs = await usersId.loader(
      args(makeRequest(`/api/users/${other.id}`, { auth: { bearer: token } }), { id: other.id }),
    );
    expect(theirs.status).toBe(404);
  });

  it("401 without credentials", async () => {
    const res = await usersId.action(
      args(makeRequest("/api/users/x", { method: "PUT", json: body("a@b.co") }), { id: "x" }),
    );
    expect(res.status).toBe(401);
  });
});

describe("unknown /api paths", () => {
  it("answer 404 JSON, never the HTML app", async () => {
    const res = notFoundRoute.loader({ request: makeRequest("/api/nothing/here") });
    expect(res.status).toBe(404);
    expect(res.headers.get("Content-Type")).toMatch(/^application\/json/);
    expect(await json(res)).toEqual({
      error: { code: "not_found", message: "No API route for GET /api/nothing/here" },
    });
    const post = notFoundRoute.action({ request: makeRequest("/api/nothing", { method: "POST" }) });
    expect(post.status).toBe(404);
  });
});

describe("POST /api/auth/current_user", () => {
  it("is a 405 JSON", async () => {
    const res = currentUser.action({ request: makeRequest("/api/auth/current_user", { method: "POST" }) });
    expect(res.status).toBe(405);
    expect(((await res.json()) as { error: { code: string } }).error.code).toBe("method_not_allowed");
  });
});

// ---------------------------------------------------------------------------------------------
// Sessions that end

const secret = () => new TextEncoder().encode(getEnv().sessionSecret);
const currentUserOf = (auth: { bearer?: string; cookie?: string }) =>
  currentUser.loader(args(makeRequest("/api/auth/current_user", { auth })));

/** A session cookie with the given contents, signed with the server's secret. */
async function craftedCookie(data: Record<string, unknown>) {
  const session = await sessionStorage().getSession();
  for (const [key, value] of Object.entries(data)) session.set(key as "userId", value as string);
  return (await sessionStorage().commitSession(session)).split(";")[0];
}

/** Runs a page loader and answers what it returned or threw as a Response. */
async function pageAnswer(run: () => Promise<unknown>): Promise<Response> {
  try {
    const result = await run();
    return result instanceof Response ? result : Response.json(result);
  } catch (thrown) {
    if (thrown instanceof Response) return thrown;
    throw thrown;
  }
}

describe("sessions carry an issue time and the user's session version", () => {
  it("a cookie issued longer ago than TOKEN_TTL_HOURS is refused by the server (401 on /api, /login?error=session_expired on pages)", async () => {
    const user = await createTestUser();
    const ttlMs = getEnv().TOKEN_TTL_HOURS * 3_600_000;
    const old = await craftedCookie({ userId: user.id, issuedAt: Date.now() - ttlMs - 60_000, version: 0 });
    const res = await currentUserOf({ cookie: old });
    expect(res.status).toBe(401);
    expect(await json(res)).toEqual({ error: { code: "unauthorized", message: "Session expired" } });
    const page = await pageAnswer(() => layout.loader(args(makeRequest("/", { auth: { cookie: old } }))));
    expect(page.status).toBe(302);
    expect(page.headers.get("Location")).toBe("/login?error=session_expired");
    // Just inside the window it still works.
    const fresh = await craftedCookie({ userId: user.id, issuedAt: Date.now() - ttlMs + 60_000, version: 0 });
    expect((await currentUserOf({ cookie: fresh })).status).toBe(200);
  });

  it("a cookie that names only the user (as before sessions carried more) is refused", async () => {
    const user = await createTestUser();
    const legacy = await craftedCookie({ userId: user.id });
    expect((await currentUserOf({ cookie: legacy })).status).toBe(401);
    const put = await profile.action(
      args(
        makeRequest("/api/auth/profile", {
          method: "PUT",
          auth: { cookie: legacy },
          json: { email: user.email, company: "Taken Over" },
        }),
      ),
    );
    expect(put.status).toBe(401);
    expect((await db().user.findUniqueOrThrow({ where: { id: user.id } })).company).toBe("");
  });

  it("POST /api/auth/logout ends that cookie, copies of it and earlier bearer tokens; a new sign-in works", async () => {
    const user = await createTestUser();
    const cookie = await cookieFor(user.id);
    const token = await bearerFor(user.id);
    expect((await currentUserOf({ cookie })).status).toBe(200);
    expect((await currentUserOf({ bearer: token })).status).toBe(200);
    const out = await logout.action(
      args(makeRequest("/api/auth/logout", { method: "POST", auth: { cookie }, headers: { Origin: ORIGIN } })),
    );
    expect(out.status).toBe(200);
    // The browser forgot the cookie; someone who copied it replays it: refused, reads and writes.
    expect((await currentUserOf({ cookie })).status).toBe(401);
    expect((await currentUserOf({ bearer: token })).status).toBe(401);
    const write = await profile.action(
      args(
        makeRequest("/api/auth/profile", {
          method: "PUT",
          auth: { cookie },
          json: { email: user.email, company: "After Logout" },
        }),
      ),
    );
    expect(write.status).toBe(401);
    expect(await json(write)).toEqual({ error: { code: "unauthorized", message: "Session expired" } });
    expect((await db().user.findUniqueOrThrow({ where: { id: user.id } })).company).toBe("");
    const page = await pageAnswer(() => layout.loader(args(makeRequest("/", { auth: { cookie } }))));
    expect(page.headers.get("Location")).toBe("/login?error=session_expired");
    // Signing in again gives a session and a token that work.
    expect((await currentUserOf({ cookie: await cookieFor(user.id) })).status).toBe(200);
    expect((await currentUserOf({ bearer: await bearerFor(user.id) })).status).toBe(200);
  });

  it("the avatar menu's POST /auth/signout ends the old cookie too", async () => {
    const user = await createTestUser();
    const cookie = await cookieFor(user.id);
    const res = await pageAnswer(() => signout.action(args(formRequest("/auth/signout", {}, { cookie }))));
    expect(res.headers.get("Location")).toBe("/login");
    expect((await currentUserOf({ cookie })).status).toBe(401);
  });

  it("a password change ends earlier sessions and tokens", async () => {
    const user = await createTestUser();
    const cookie = await cookieFor(user.id);
    const token = await bearerFor(user.id);
    await users.setPasswordHash(user.id, await hashPassword("a-brand-new-passphrase"));
    expect((await currentUserOf({ cookie })).status).toBe(401);
    expect((await currentUserOf({ bearer: token })).status).toBe(401);
  });

  it("bearer tokens carry exp; a token without exp, or without the session version, is refused", async () => {
    const user = await createTestUser();
    const token = await bearerFor(user.id);
    const payload = JSON.parse(Buffer.from(token.split(".")[1], "base64url").toString("utf8")) as Record<
      string,
      unknown
    >;
    expect(payload).toMatchObject({ id: user.id, sv: 0 });
    expect(typeof payload.exp).toBe("number");
    const noExp = await new SignJWT({ id: user.id, sv: 0 })
      .setProtectedHeader({ alg: "HS256", typ: "JWT" })
      .setIssuedAt()
      .sign(secret());
    const noVersion = await new SignJWT({ id: user.id })
      .setProtectedHeader({ alg: "HS256", typ: "JWT" })
      .setIssuedAt()
      .setExpirationTime("1h")
      .sign(secret());
    for (const bad of [noExp, noVersion]) {
      const res = await currentUserOf({ bearer: bad });
      expect(res.status).toBe(401);
      expect(await json(res)).toEqual({ error: { code: "unauthorized", message: "Session expired" } });
    }
  });
});

describe("a deleted user", () => {
  const newCustomer = (token: string) =>
    customers.action(
      args(
        makeRequest("/api/customers", {
          method: "POST",
          auth: { bearer: token },
          json: { firstName: "A", lastName: "B", email: `c-${Date.now()}@example.com` },
        }),
      ),
    );

  it("deleted by another program while cached: a write is a 401, never a 500", async () => {
    const user = await createTestUser();
    const token = await bearerFor(user.id);
    expect((await currentUserOf({ bearer: token })).status).toBe(200); // now cached by this worker
    await db().user.delete({ where: { id: user.id } });
    const res = await newCustomer(token);
    expect(res.status).toBe(401);
    expect(await json(res)).toEqual({ error: { code: "unauthorized", message: "Session expired" } });
    expect((await currentUserOf({ bearer: token })).status).toBe(401);
  });

  it("deleted by another program while cached: a page's form post goes to /login (session expired), never a 500", async () => {
    const user = await createTestUser();
    const cookie = await cookieFor(user.id);
    await layout.loader(args(makeRequest("/", { auth: { cookie } }))); // now cached by this worker
    await db().user.delete({ where: { id: user.id } });
    const res = await pageAnswer(() =>
      profilePage.action(
        args(
          formRequest(
            "/profile",
            { firstName: "A", lastName: "B", email: user.email, phone: "", company: "", position: "" },
            { cookie },
          ),
        ),
      ),
    );
    expect(res.status).toBe(302);
    expect(res.headers.get("Location")).toBe("/login?error=session_expired");
  });

  it("deleted through the server: every request is a 401 at once", async () => {
    const user = await createTestUser();
    const token = await bearerFor(user.id);
    expect((await currentUserOf({ bearer: token })).status).toBe(200);
    await users.deleteUser(user.id);
    expect((await currentUserOf({ bearer: token })).status).toBe(401);
    expect((await newCustomer(token)).status).toBe(401);
  });
});

// ---------------------------------------------------------------------------------------------
// Local sign-in with passwords

let address = 0;
const newEmail = (prefix = "local") => `${prefix}-${++address}-${Date.now()}@example.com`;
const PASSWORD = "correct horse battery staple";
/** Each test signs in from its own address, so the per-address limit of one does not touch another's. */
const from = (ip: string, request: Request) => ({ request, params: {}, context: { clientIp: ip } });

type Reply = { status?: string; error?: Record<string, string[] | null>; initialValue?: Record<string, unknown> };
type DataResult = { data: Reply; init: { status?: number } | null };
const postLogin = async (ip: string, fields: Record<string, string>) =>
  (await login.action(from(ip, formRequest("/login", fields)))) as unknown as DataResult | Response;
const postLocal = (ip: string, fields: Record<string, string>, asJson = false) =>
  authLocal.action(
    from(
      ip,
      asJson ? makeRequest("/auth/local", { method: "POST", json: fields }) : formRequest("/auth/local", fields),
    ),
  ) as Promise<Response>;

describe("local sign-up and sign-in", () => {
  // Sign-up open to anyone (SIGN_UP=open): what a new e-mail does then. The default, closed after
  // the owner's account, is tests/routes/first-run.test.ts.
  beforeAll(() => {
    process.env.SIGN_UP = "open";
    resetEnvCache();
  });
  afterAll(() => {
    delete process.env.SIGN_UP;
    resetEnvCache();
  });

  it("a new e-mail signs up: the account gets an argon2id hash of the password, a session and a token", async () => {
    const email = newEmail();
    const res = await postLogin("10.1.0.1", { name: "Kavya Iyer", email, password: PASSWORD });
    expect(res).toBeInstanceOf(Response);
    const redirect = res as Response;
    expect(redirect.status).toBe(302);
    // The browser's form: the token travels in a one-time cookie, never in the address.
    expect(redirect.headers.get("Location")).toBe("/auth/callback?auth=success");
    const user = await db().user.findUniqueOrThrow({ where: { email } });
    expect(user.passwordHash).toMatch(/^\$argon2id\$/);
    expect(user.passwordHash).not.toContain(PASSWORD);
    expect(user).toMatchObject({ provider: "local", emailVerified: false, displayName: "Kavya Iyer" });
    const cookie = (redirect.headers.get("Set-Cookie") ?? "").split(";")[0];
    expect((await currentUserOf({ cookie })).status).toBe(200);
  });

  it("later sign-ins need the password: right is a 302, wrong is a 401 under the password field", async () => {
    const email = newEmail();
    await postLogin("10.1.0.2", { name: "Asha Rao", email, password: PASSWORD });
    const ok = await postLogin("10.1.0.2", { email: email.toUpperCase(), password: PASSWORD });
    expect((ok as Response).status).toBe(302);
    const wrong = (await postLogin("10.1.0.2", {
      name: "Someone Else",
      email,
      password: "not the password at all",
    })) as DataResult;
    expect(wrong.init?.status).toBe(401);
    expect(wrong.data.error?.password).toEqual([signInMessages.WRONG_PASSWORD]);
    // What was typed stays, except the password.
    expect(wrong.data.initialValue).toMatchObject({ email, name: "Someone Else" });
    expect(wrong.data.initialValue?.password).toBeUndefined();
    const json401 = await postLocal("10.1.0.2", { email, password: "not the password at all" }, true);
    expect(json401.status).toBe(401);
    expect(await json(json401)).toEqual({
      error: {
        code: "unauthorized",
        message: signInMessages.WRONG_PASSWORD,
        fields: { password: signInMessages.WRONG_PASSWORD },
      },
    });
    expect((await db().user.findMany({ where: { email } })).length).toBe(1);
  });

  it("a sign-up needs a name and a password of 10+ characters that is not a common one (400)", async () => {
    for (const [fields, expected] of [
      [{ email: newEmail(), password: PASSWORD }, { name: ["Enter your name to create an account"] }],
      [{ name: "N", email: newEmail(), password: "short1" }, { password: ["Use at least 10 characters"] }],
      [
        { name: "N", email: newEmail(), password: "1234567890" },
        {
          password: [
            "This password is easy to guess. Use three or four unrelated words, or a password from a password manager",
          ],
        },
      ],
      [
        { name: "N", email: newEmail(), password: "Sunshine2024!" },
        {
          password: [
            "This password is easy to guess. Use three or four unrelated words, or a password from a password manager",
          ],
        },
      ],
      [{ name: "N", email: newEmail(), password: "" }, { password: ["Enter your password"] }],
      [{ name: "N", email: "not-an-email", password: PASSWORD }, { email: ["Enter a valid e-mail address"] }],
    ] as const) {
      const res = (await postLogin("10.1.0.3", fields)) as DataResult;
      expect(res.init?.status, JSON.stringify(fields)).toBe(400);
      expect(res.data.error).toMatchObject(expected);
      if ("email" in fields && fields.email.includes("@")) expect(await users.findUserByEmail(fields.email)).toBeNull();
    }
    const json400 = await postLocal("10.1.0.3", { name: "N", email: newEmail(), password: "password" }, true);
    expect(json400.status).toBe(400);
    expect(((await json(json400)).error as Json).code).toBe("bad_request");
    const notJson = await authLocal.action(
      from(
        "10.1.0.3",
        makeRequest("/auth/local", { method: "POST", body: "{ nope", headers: { "Content-Type": "application/json" } }),
      ),
    );
    expect(notJson.status).toBe(400);
    const notAForm = await authLocal.action(
      from(
        "10.1.0.3",
        makeRequest("/auth/local", { method: "POST", body: "x", headers: { "Content-Type": "text/plain" } }),
      ),
    );
    expect(notAForm.status).toBe(400);
  });

  it("too many attempts from one address: a real 429, on the form and on the JSON path", async () => {
    const email = newEmail();
    const limit = getEnv().SIGN_IN_RATE_LIMIT;
    for (let i = 0; i < limit; i += 1) await postLocal("10.1.0.4", { email: "x", password: "y" });
    const form = (await postLogin("10.1.0.4", { name: "N", email, password: PASSWORD })) as DataResult;
    expect(form.init?.status).toBe(429);
    expect(form.data.error?.[""]).toEqual(["Too many sign-in attempts. Wait a minute and try again."]);
    const api = await postLocal("10.1.0.4", { name: "N", email, password: PASSWORD }, true);
    expect(api.status).toBe(429);
    expect(await json(api)).toEqual({
      error: { code: "rate_limited", message: "Too many sign-in attempts. Wait a minute and try again." },
    });
    expect(await users.findUserByEmail(email)).toBeNull();
  });

  it("signs in with the account's current e-mail: after a profile change the new one works, the old one does not reach it", async () => {
    const oldEmail = newEmail("old");
    const created = (await postLogin("10.1.0.5", { name: "Mover", email: oldEmail, password: PASSWORD })) as Response;
    expect(created.status).toBe(302);
    const user = (await users.findUserByEmail(oldEmail))!;
    const newAddress = newEmail("new");
    await users.updateProfile(user.id, {
      firstName: "Mover",
      lastName: "",
      email: newAddress,
      phone: "",
      company: "",
      position: "",
    });
    const viaNew = (await postLogin("10.1.0.5", { email: newAddress, password: PASSWORD })) as Response;
    expect(viaNew.status).toBe(302);
    const cookie = (viaNew.headers.get("Set-Cookie") ?? "").split(";")[0];
    expect(((await json(await currentUserOf({ cookie }))).user as Json).id).toBe(user.id);
    // The old address is free: without a name it is an incomplete sign-up, never the moved account.
    const viaOld = (await postLogin("10.1.0.5", { email: oldEmail, password: PASSWORD })) as DataResult;
    expect(viaOld.init?.status).toBe(400);
    expect(viaOld.data.error?.name).toEqual(["Enter your name to create an account"]);
  });

  it("an account without a password (made before passwords, or a Google one) is refused with a 401 that says why", async () => {
    const legacy = await createTestUser("Legacy Local");
    const res = (await postLogin("10.1.0.6", { email: legacy.email, password: PASSWORD })) as DataResult;
    expect(res.init?.status).toBe(401);
    expect(res.data.error?.[""]).toEqual([signInMessages.NO_PASSWORD_YET]);
    expect((await db().user.findUniqueOrThrow({ where: { id: legacy.id } })).passwordHash).toBeNull();
    const google = await users.upsertGoogleUser({
      googleId: `g-${Date.now()}`,
      email: newEmail("g"),
      emailVerified: true,
      displayName: "G User",
    });
    const viaGoogle = (await postLogin("10.1.0.6", { email: google.email, password: PASSWORD })) as DataResult;
    expect(viaGoogle.init?.status).toBe(401);
    expect(viaGoogle.data.error?.[""]).toEqual([signInMessages.GOOGLE_ACCOUNT]);
  });
});
