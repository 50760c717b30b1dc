// The auth and profile part of the /api contract (spec §7, DESIGN.md §6), through the route
// modules with real Requests and a real migrated SQLite database.
import { describe, expect, it } from "vitest";
import { createTestUser, useTestDatabase as setUpTestDatabase } from "../helpers/db";
import { args, bearerFor, cookieFor, expiredTokenFor, forgedTokenFor, makeRequest } from "../helpers/requests";

setUpTestDatabase();

const currentUser = await import("~/routes/api/auth-current-user");
const profile = await import("~/routes/api/auth-profile");
const usersId = await import("~/routes/api/users-id");
const logout = await import("~/routes/api/auth-logout");
const notFoundRoute = await import("~/routes/api/not-found");
const { db } = await import("~/db.server");

type Json = Record<string, unknown>;
const json = async (res: Response) => (await res.json()) as Json;

describe("GET /api/auth/current_user", () => {
  const get = (auth?: { bearer?: string; cookie?: string }) => currentUser.loader(args(makeRequest("/api/auth/current_user", { auth })));

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
    expect(body.user).toMatchObject({ _id: user.id, id: user.id, displayName: "Asha Rao", email: user.email, profileImage: null });
    expect(Object.keys(body.user as Json).sort()).toEqual(
      ["_id", "company", "createdAt", "displayName", "email", "firstName", "id", "lastName", "phone", "position", "profileImage", "provider"].sort(),
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
    ["unsigned (alg none)", async (id: string) => `${Buffer.from('{"alg":"none"}').toString("base64url")}.${Buffer.from(JSON.stringify({ id })).toString("base64url")}.`],
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

describe("GET /api/auth/logout", () => {
  it("ends the cookie session", async () => {
    const user = await createTestUser();
    const res = await logout.loader(args(makeRequest("/api/auth/logout", { auth: { cookie: await cookieFor(user.id) } })));
    expect(res.status).toBe(200);
    expect(await json(res)).toMatchObject({ success: true });
    const setCookie = res.headers.get("Set-Cookie") ?? "";
    expect(setCookie).toMatch(/^__crm_session=;/);
    expect(setCookie).toMatch(/Expires=Thu, 01 Jan 1970/);
  });
});

describe("GET and PUT /api/auth/profile", () => {
  const valid = { firstName: "Ravi", lastName: "Kumar", email: "", phone: "+91 98765 43210", company: "Acme", position: "Lead" };

  it("401 JSON without credentials", async () => {
    const res = await profile.loader(args(makeRequest("/api/auth/profile")));
    expect(res.status).toBe(401);
    expect(await json(res)).toEqual({ error: { code: "unauthorized", message: "Not signed in" } });
  });

  it("GET answers the six profile fields", async () => {
    const user = await createTestUser("Meera Nair");
    const res = await profile.loader(args(makeRequest("/api/auth/profile", { auth: { bearer: await bearerFor(user.id) } })));
    expect(res.status).toBe(200);
    expect(res.headers.get("X-User-Id")).toBe(user.id);
    expect(await json(res)).toEqual({ firstName: "Meera", lastName: "Nair", email: user.email, phone: "", company: "", position: "" });
  });

  it("PUT saves and answers the updated user", async () => {
    const user = await createTestUser();
    const email = `Ravi.${Date.now()}@Example.com`;
    const res = await profile.action(
      args(makeRequest("/api/auth/profile", { method: "PUT", auth: { bearer: await bearerFor(user.id) }, json: { ...valid, email } })),
    );
    expect(res.status).toBe(200);
    expect(res.headers.get("X-User-Id")).toBe(user.id);
    expect(await json(res)).toMatchObject({ ...valid, email: email.toLowerCase(), displayName: "Ravi Kumar", _id: user.id });
    const again = await profile.loader(args(makeRequest("/api/auth/profile", { auth: { bearer: await bearerFor(user.id) } })));
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
      args(makeRequest("/api/auth/profile", { method: "PUT", auth: { bearer: await bearerFor(user.id) }, json: { ...valid, email: taken.email } })),
    );
    expect(res.status).toBe(409);
    expect(await json(res)).toEqual({
      error: { code: "conflict", message: "Another account already uses this e-mail", fields: { email: "Another account already uses this e-mail" } },
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
      args(makeRequest(`/api/users/${user.id}`, { method: "PUT", auth: { bearer: await bearerFor(user.id) }, json: body(user.email) }), {
        id: user.id,
      }),
    );
    expect(res.status).toBe(200);
    expect(await json(res)).toMatchObject({ _id: user.id, displayName: "Own Id" });
  });

  it("another user's id, a made-up id and a malformed id are all 404 and change nothing", async () => {
    const user = await createTestUser();
    const victim = await createTestUser("Victim Name");
    for (const id of [victim.id, "ffffffffffffffffffffffff", "not-an-id"]) {
      const res = await usersId.action(
        args(makeRequest(`/api/users/${id}`, { method: "PUT", auth: { bearer: await bearerFor(user.id) }, json: body(user.email) }), { id }),
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
    const own = await usersId.loader(args(makeRequest(`/api/users/${user.id}`, { auth: { bearer: token } }), { id: user.id }));
    expect(own.status).toBe(200);
    const theirs = await usersId.loader(args(makeRequest(`/api/users/${other.id}`, { auth: { bearer: token } }), { id: other.id }));
    expect(theirs.status).toBe(404);
  });

  it("401 without credentials", async () => {
    const res = await usersId.action(args(makeRequest("/api/users/x", { method: "PUT", json: body("a@b.co") }), { id: "x" }));
    expect(res.status).toBe(401);
  });
});

describe("unknown /api paths", () => {
  it("answer 404 JSON, never the HTML app", async () => {
    const res = notFoundRoute.loader({ request: makeRequest("/api/nothing/here") });
    expect(res.status).toBe(404);
    expect(res.headers.get("Content-Type")).toMatch(/^application\/json/);
    expect(await json(res)).toEqual({ error: { code: "not_found", message: "No API route for GET /api/nothing/here" } });
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
