// @engines sqlite postgres
// Edges found by testing the product from outside, through the route modules with real Requests
// and a real migrated SQLite database: sign-out only by POST, bearer tokens compared exactly, the
// Referer standing in for a missing Origin, control characters refused in text fields (forms,
// /api and the CSV import), a second delete a 404, and a session ended elsewhere sending the next
// page to /login?error=session_expired. The HTTP-level ones (raw sockets, deep bodies while
// /healthz answers) are in server/hostile-requests.test.ts.
import { Readable } from "node:stream";
import { describe, expect, it } from "vitest";
import { createTestUser, useTestDatabase as setUpTestDatabase } from "../helpers/db";
import { ORIGIN, args, bearerFor, cookieFor, formRequest, makeRequest } from "../helpers/requests";

setUpTestDatabase();

const currentUser = await import("~/routes/api/auth-current-user");
const logout = await import("~/routes/api/auth-logout");
const signout = await import("~/routes/auth-signout");
const layout = await import("~/routes/app-layout");
const customersApi = await import("~/routes/api/customers");
const customerApi = await import("~/routes/api/customers-id");
const ordersApi = await import("~/routes/api/orders");
const orderApi = await import("~/routes/api/orders-id");
const segmentsApi = await import("~/routes/api/segments");
const segmentApi = await import("~/routes/api/segments-id");
const campaignsApi = await import("~/routes/api/campaigns");
const campaignApi = await import("~/routes/api/campaigns-id");
const notificationApi = await import("~/routes/api/notifications-id");
const profileApi = await import("~/routes/api/auth-profile");
const customersPage = await import("~/routes/customers");
const customerForm = await import("~/routes/customers-form");
const ordersPage = await import("~/routes/orders");
const segmentsPage = await import("~/routes/segments");
const campaignsPage = await import("~/routes/campaigns");
const campaignPage = await import("~/routes/campaigns-detail");
const notificationsPage = await import("~/routes/notifications");
const { importCustomers } = await import("~/services/customer-import.server");
const { listCustomers } = await import("~/services/customers.server");
const { listNotifications, notify } = await import("~/services/notifications.server");
const { endSessions } = await import("~/services/users.server");
const { CampaignContentSchema } = await import("~/schemas/campaign");
const { SegmentInputSchema } = await import("~/schemas/segment");
const { OrderSchema } = await import("~/schemas/order");
const { LocalSignInSchema, ProfileSchema } = await import("~/schemas/profile");
const { SignInSchema } = await import("~/schemas/sign-in");
const { crossOriginMessage } = await import("~/lib/own-origin");
const { getEnv } = await import("~/env.server");

type Json = Record<string, unknown>;
type ApiErrorBody = { error: { code: string; message: string; fields?: Record<string, string> } };

/** A loader or action's answer, whether returned or thrown (a redirect, a Response, a data() result). */
async function outcome(run: () => unknown): Promise<{ status: number; location: string | null; body: unknown }> {
  let value: unknown;
  try {
    value = await run();
  } catch (thrown) {
    value = thrown;
  }
  if (value instanceof Response) {
    const text = await value.text();
    let body: unknown = text;
    try {
      body = JSON.parse(text);
    } catch {
      // text
    }
    return { status: value.status, location: value.headers.get("Location"), body };
  }
  const result = value as { data?: unknown; init?: { status?: number } | null };
  if (result && typeof result === "object" && "data" in result)
    return { status: result.init?.status ?? 200, location: null, body: result.data };
  return { status: 200, location: null, body: value };
}

const isSignedIn = async (cookie: string) =>
  ((await (await currentUser.loader(args(makeRequest("/api/auth/current_user", { auth: { cookie } })))).json()) as Json)
    .isAuthenticated === true;

describe("sign-out is a POST, never a GET", () => {
  it("GET /api/auth/logout is a 405 with Allow: POST and the JSON error, and signs nobody out", async () => {
    const user = await createTestUser();
    const cookie = await cookieFor(user.id);
    const res = await logout.loader(args(makeRequest("/api/auth/logout", { auth: { cookie } })));
    expect(res.status).toBe(405);
    expect(res.headers.get("Allow")).toBe("POST");
    expect(res.headers.get("Content-Type")).toMatch(/^application\/json/);
    expect(await res.json()).toEqual({
      error: { code: "method_not_allowed", message: "Use POST for /api/auth/logout" },
    });
    expect(res.headers.get("Set-Cookie")).toBeNull();
    expect(await isSignedIn(cookie)).toBe(true);
  });

  it("PUT and DELETE /api/auth/logout are 405 too", async () => {
    const user = await createTestUser();
    const cookie = await cookieFor(user.id);
    for (const method of ["PUT", "DELETE", "PATCH"]) {
      // The refusal is thrown (allowMethods), as Remix answers a thrown Response.
      const res = await logout
        .action(args(makeRequest("/api/auth/logout", { method, auth: { cookie }, headers: { Origin: ORIGIN } })))
        .catch((thrown: Response) => thrown);
      expect(res.status, method).toBe(405);
      expect(res.headers.get("Allow")).toBe("POST");
    }
    expect(await isSignedIn(cookie)).toBe(true);
  });

  it("POST /api/auth/logout from our pages ends the session", async () => {
    const user = await createTestUser();
    const cookie = await cookieFor(user.id);
    const res = await logout.action(
      args(makeRequest("/api/auth/logout", { method: "POST", auth: { cookie }, headers: { Origin: ORIGIN } })),
    );
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ success: true, message: "Logged out" });
    expect(res.headers.get("Set-Cookie")).toMatch(/^__crm_session=;.*Expires=Thu, 01 Jan 1970/);
    expect(await isSignedIn(cookie)).toBe(false);
  });

  it("POST /api/auth/logout from another site's page (Origin, or Referer without one) is a 403 and signs nobody out", async () => {
    const user = await createTestUser();
    const cookie = await cookieFor(user.id);
    const foreign: Record<string, string>[] = [
      { Origin: "https://evil.example" },
      { Referer: "https://evil.example/page" },
    ];
    for (const headers of foreign) {
      const res = await logout.action(
        args(makeRequest("/api/auth/logout", { method: "POST", auth: { cookie }, headers })),
      );
      expect(res.status).toBe(403);
      expect(((await res.json()) as ApiErrorBody).error.code).toBe("forbidden");
      expect(res.headers.get("Set-Cookie")).toBeNull();
    }
    expect(await isSignedIn(cookie)).toBe(true);
  });

  it("POST /api/auth/logout with a bearer token ends the user's sessions", async () => {
    const user = await createTestUser();
    const cookie = await cookieFor(user.id);
    const res = await logout.action(
      args(makeRequest("/api/auth/logout", { method: "POST", auth: { bearer: await bearerFor(user.id) } })),
    );
    expect(res.status).toBe(200);
    expect(await isSignedIn(cookie)).toBe(false);
  });

  it("GET /auth/signout is a 405 with Allow: POST and leaves the session alone", async () => {
    const user = await createTestUser();
    const cookie = await cookieFor(user.id);
    for (const path of ["/auth/signout", "/auth/signout?error=session_expired"]) {
      const res = await outcome(() => signout.loader());
      expect(res.status, path).toBe(405);
    }
    const res = signout.loader();
    expect(res.headers.get("Allow")).toBe("POST");
    expect(res.headers.get("Set-Cookie")).toBeNull();
    expect(await isSignedIn(cookie)).toBe(true);
  });

  it("POST /auth/signout (a plain form, no JavaScript needed) ends the session; from another site it is a 403", async () => {
    const user = await createTestUser();
    const cookie = await cookieFor(user.id);
    const foreign = await outcome(() =>
      signout.action(args(formRequest("/auth/signout", {}, { cookie }, "https://evil.example"))),
    );
    expect(foreign.status).toBe(403);
    const noOriginForeignReferer = makeRequest("/auth/signout", {
      method: "POST",
      auth: { cookie },
      body: new URLSearchParams({ error: "session_expired" }),
      headers: { "Content-Type": "application/x-www-form-urlencoded", Referer: "https://evil.example/" },
    });
    expect((await outcome(() => signout.action(args(noOriginForeignReferer)))).status).toBe(403);
    expect(await isSignedIn(cookie)).toBe(true);

    const ours = await outcome(() => signout.action(args(formRequest("/auth/signout", {}, { cookie }))));
    expect(ours).toMatchObject({ status: 302, location: "/login" });
    expect(await isSignedIn(cookie)).toBe(false);
  });
});

describe("bearer tokens are compared exactly", () => {
  const get = (bearer: string) => currentUser.loader(args(makeRequest("/api/auth/current_user", { auth: { bearer } })));

  it("the issued token works; the same token with '=' appended, or any other spelling of it, is a 401", async () => {
    const user = await createTestUser();
    const token = await bearerFor(user.id);
    expect((await get(token)).status).toBe(200);
    const [header, payload, signature] = token.split(".") as [string, string, string];
    // The signature's last character carries two bits no decoder reads: flipping them keeps the bytes.
    const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
    const last = alphabet.indexOf(signature.at(-1)!);
    const sameBytes = `${signature.slice(0, -1)}${alphabet[last ^ 1]}`;
    expect(Buffer.from(sameBytes, "base64url").equals(Buffer.from(signature, "base64url"))).toBe(true);
    for (const variant of [
      `${token}=`,
      `${token}==`,
      `${header}=.${payload}.${signature}`,
      `${header}.${payload}=.${signature}`,
      `${header}.${payload}.${sameBytes}`,
      `${header}.${payload}.${signature}.`,
      `${header}.${payload}.${signature.replaceAll("-", "+").replaceAll("_", "/")}${signature.includes("-") || signature.includes("_") ? "" : "+"}`,
      `${token.slice(0, 10)} ${token.slice(10)}`,
    ]) {
      const res = await get(variant);
      expect(res.status, variant).toBe(401);
      expect(await res.json()).toEqual({ error: { code: "unauthorized", message: "Session expired" } });
    }
    // The exact token still works after all that (nothing was remembered for the variants).
    expect((await get(token)).status).toBe(200);
  });
});

describe("a cookie-carried write without Origin is judged by its Referer", () => {
  const customer = (email: string) => ({ firstName: "Ravi", lastName: "Kumar", email });
  const post = (cookie: string, headers: Record<string, string>, email: string) =>
    customersApi.action(
      args(makeRequest("/api/customers", { method: "POST", auth: { cookie }, json: customer(email), headers })),
    );

  it("/api: a Referer of another origin is a 403; ours, or no Origin and no Referer (a program), goes through", async () => {
    const user = await createTestUser();
    const cookie = await cookieFor(user.id);
    for (const referer of [
      "https://evil.example/page",
      "http://localhost:3000.evil.example/",
      "http://localhost:3001/customers",
      "not a url",
    ]) {
      const res = await post(cookie, { Referer: referer }, "refused@example.com");
      expect(res.status, referer).toBe(403);
      expect(await res.json()).toEqual({ error: { code: "forbidden", message: "Cross-origin request refused" } });
    }
    expect((await listCustomers(user.id, { limit: 10 })).customers).toHaveLength(0);

    expect((await post(cookie, { Referer: `${ORIGIN}/customers/new` }, "ours@example.com")).status).toBe(201);
    // No Origin and no Referer: today's behaviour, a program holding the cookie (browsers send one of them).
    expect((await post(cookie, {}, "program@example.com")).status).toBe(201);
    // A bearer token is no cookie: no CSRF check at all.
    const bearer = await bearerFor(user.id);
    const withToken = await customersApi.action(
      args(
        makeRequest("/api/customers", {
          method: "POST",
          auth: { bearer },
          json: customer("token@example.com"),
          headers: { Referer: "https://evil.example/" },
        }),
      ),
    );
    expect(withToken.status).toBe(201);
  });

  it("pages: a form post with a foreign Referer and no Origin is a 403 with the page's message", async () => {
    const user = await createTestUser();
    const cookie = await cookieFor(user.id);
    const request = makeRequest("/customers/new", {
      method: "POST",
      auth: { cookie },
      body: new URLSearchParams(customer("page@example.com")),
      headers: { "Content-Type": "application/x-www-form-urlencoded", Referer: "https://evil.example/" },
    });
    const res = await outcome(() => customerForm.action(args(request)));
    expect(res.status).toBe(403);
    // The message names where it came from and the address to use (crossOriginMessage in app/lib/own-origin.ts).
    expect(res.body).toBe(crossOriginMessage("https://evil.example", getEnv().publicUrl));
    expect((await listCustomers(user.id, { limit: 10 })).customers).toHaveLength(0);
  });
});

describe("control characters in text fields", () => {
  const headerInjection = "Asha\r\nBcc: everyone@example.com";

  it("/api: a CR or LF in a customer's name is a 400 with the field's message; notes keep their line breaks", async () => {
    const user = await createTestUser();
    const bearer = await bearerFor(user.id);
    const post = (json: Json) =>
      customersApi.action(args(makeRequest("/api/customers", { method: "POST", auth: { bearer }, json })));
    const base = { firstName: "Asha", lastName: "Rao", email: "asha@example.com" };
    for (const [field, value, message] of [
      ["firstName", headerInjection, "First name cannot contain line breaks or other control characters"],
      ["lastName", "Rao\nX", "Last name cannot contain line breaks or other control characters"],
      ["company", "Rao\tand Sons", "Company cannot contain line breaks or other control characters"],
      ["phone", "98\u0000765", "Phone cannot contain line breaks or other control characters"],
      ["notes", "call\u001b[31m", "Notes cannot contain control characters"],
      ["address", "12 MG Road\u007f", "Address cannot contain control characters"],
    ] as const) {
      const res = await post({ ...base, [field]: value });
      expect(res.status, field).toBe(400);
      const body = (await res.json()) as ApiErrorBody;
      expect(body.error.fields?.[field], field).toBe(message);
    }
    expect((await listCustomers(user.id, { limit: 10 })).customers).toHaveLength(0);

    const ok = await post({ ...base, notes: "Line one\r\nLine two\n\tindented", address: "12 MG Road\nBengaluru" });
    expect(ok.status).toBe(201);
    expect(await ok.json()).toMatchObject({
      notes: "Line one\r\nLine two\n\tindented",
      address: "12 MG Road\nBengaluru",
    });
    // A line break around a name is only whitespace: trimmed, not refused.
    expect((await post({ ...base, email: "trim@example.com", firstName: "Asha\r\n" })).status).toBe(201);
  });

  it("the customer form answers 400 with the message under the field", async () => {
    const user = await createTestUser();
    const cookie = await cookieFor(user.id);
    const res = await outcome(() =>
      customerForm.action(
        args(
          formRequest(
            "/customers/new",
            { firstName: headerInjection, lastName: "Rao", email: "f@example.com" },
            { cookie },
          ),
        ),
      ),
    );
    expect(res.status).toBe(400);
    expect((res.body as { error: Record<string, string[]> }).error.firstName).toEqual([
      "First name cannot contain line breaks or other control characters",
    ]);
  });

  it("the profile (/api/auth/profile) refuses a name with a line break", async () => {
    const user = await createTestUser();
    const res = await profileApi.action(
      args(
        makeRequest("/api/auth/profile", {
          method: "PUT",
          auth: { bearer: await bearerFor(user.id) },
          json: { firstName: "Asha\nBcc: x@example.com", lastName: "Rao", email: user.email },
        }),
      ),
    );
    expect(res.status).toBe(400);
    expect(((await res.json()) as ApiErrorBody).error.fields).toEqual({
      firstName: "First name cannot contain line breaks or other control characters",
    });
  });

  it("campaign name and subject, segment name, order item name, sign-up name: one line; bodies and descriptions keep line breaks", () => {
    const campaign = { name: "Diwali", segmentId: "0123456789abcdef01234567", subject: "Offer", message: "Hi {NAME}" };
    const issues = (result: { success: boolean; error?: { issues: { path: PropertyKey[]; message: string }[] } }) =>
      result.success ? [] : result.error!.issues.map((i) => `${i.path.join(".")}: ${i.message}`);
    expect(issues(CampaignContentSchema.safeParse({ ...campaign, name: "Diwali\r\nBcc: x" }))).toEqual([
      "name: Campaign name cannot contain line breaks or other control characters",
    ]);
    expect(issues(CampaignContentSchema.safeParse({ ...campaign, subject: "Offer\nBcc: x" }))).toEqual([
      "subject: Subject line cannot contain line breaks or other control characters",
    ]);
    expect(issues(CampaignContentSchema.safeParse({ ...campaign, message: "Hi\u0000" }))).toEqual([
      "message: Message content cannot contain control characters",
    ]);
    expect(
      CampaignContentSchema.safeParse({ ...campaign, message: "Hi {NAME},\r\n\r\nOur sale.", description: "a\nb" })
        .success,
    ).toBe(true);
    const segment = { name: "VIP", conditions: { visits: { $gte: 1 } } };
    expect(issues(SegmentInputSchema.safeParse({ ...segment, name: "VIP\nX" }))).toEqual([
      "name: Name cannot contain line breaks or other control characters",
    ]);
    expect(SegmentInputSchema.safeParse({ ...segment, description: "Two\nlines" }).success).toBe(true);
    const order = { customerId: "0123456789abcdef01234567", items: [{ name: "Mug", quantity: 1, price: 1 }] };
    expect(issues(OrderSchema.safeParse({ ...order, items: [{ name: "Mug\r\nX", quantity: 1, price: 1 }] }))).toEqual([
      "items.0.name: Item name cannot contain line breaks or other control characters",
    ]);
    expect(OrderSchema.safeParse({ ...order, notes: "Leave at\nthe door" }).success).toBe(true);
    expect(issues(ProfileSchema.safeParse({ email: "a@example.com", position: "CTO\u0085" }))).toEqual([
      "position: Position cannot contain line breaks or other control characters",
    ]);
    expect(issues(LocalSignInSchema.safeParse({ name: "A\nB", email: "a@example.com" }))).toEqual([
      "name: Name cannot contain line breaks or other control characters",
    ]);
    expect(issues(SignInSchema.safeParse({ name: "A\rB", email: "a@example.com", password: "x" }))).toEqual([
      "name: Name cannot contain line breaks or other control characters",
    ]);
  });

  it("the CSV import (the CLI's and the page's) refuses the row with the field's message and imports the rest", async () => {
    const user = await createTestUser();
    const csv = [
      "firstName,lastName,email,notes",
      `"Asha\r\nBcc: x@example.com",Rao,asha@example.com,`,
      `Ravi,Kumar,ravi@example.com,"two\nlines"`,
    ].join("\n");
    const result = await importCustomers(user.id, Readable.from([csv]));
    expect(result).toMatchObject({ imported: 1, failed: 1 });
    expect(result.errors).toEqual([
      {
        line: 2,
        email: "asha@example.com",
        reason: "First name cannot contain line breaks or other control characters",
      },
    ]);
    const [ravi] = (await listCustomers(user.id, { limit: 10 })).customers;
    expect(ravi).toMatchObject({ firstName: "Ravi", notes: "two\nlines" });
  });
});

describe("deleting what is already deleted is a 404", () => {
  async function records() {
    const user = await createTestUser();
    const bearer = await bearerFor(user.id);
    const auth = { bearer };
    const call = async (
      module: { action: (a: never) => Promise<Response> },
      path: string,
      method: string,
      json?: Json,
    ) => (await module.action(args(makeRequest(path, { method, auth, json })) as never)) as Response;
    const idOf = async (res: Response) => {
      expect(res.status).toBe(201);
      const body = (await res.json()) as { _id?: string; campaign?: { _id: string } };
      return body._id ?? body.campaign!._id;
    };
    const customer = await idOf(
      await call(customersApi, "/api/customers", "POST", {
        firstName: "A",
        lastName: "B",
        email: `${user.id}@example.com`,
      }),
    );
    const order = await idOf(
      await call(ordersApi, "/api/orders", "POST", {
        customerId: customer,
        items: [{ name: "Mug", quantity: 1, price: 1 }],
      }),
    );
    const segment = await idOf(
      await call(segmentsApi, "/api/segments", "POST", { name: "All", conditions: { visits: { $gte: 0 } } }),
    );
    const campaign = await idOf(
      await call(campaignsApi, "/api/campaigns", "POST", {
        name: "Sale",
        segmentId: segment,
        subject: "Sale",
        message: "Hi {NAME}",
        status: "Draft",
      }),
    );
    await notify(user.id, { type: "SYSTEM", title: "To delete" });
    const notification = (await listNotifications(user.id)).notifications[0]!.id;
    return { user, auth, customer, order, segment, campaign, notification };
  }

  it("DELETE on /api, one after the other and two at once: one 200, then the usual not-found JSON", async () => {
    const r = await records();
    const routes = [
      ["Order", orderApi, `/api/orders/${r.order}`, r.order],
      ["Customer", customerApi, `/api/customers/${r.customer}`, r.customer],
      ["Campaign", campaignApi, `/api/campaigns/${r.campaign}`, r.campaign],
      ["Segment", segmentApi, `/api/segments/${r.segment}`, r.segment],
      ["Notification", notificationApi, `/api/notifications/${r.notification}`, r.notification],
    ] as const;
    for (const [what, module, path, id] of routes) {
      const remove = () => module.action(args(makeRequest(path, { method: "DELETE", auth: r.auth }), { id }));
      const [a, b] = await Promise.all([remove(), remove()]);
      expect([a.status, b.status].sort(), what).toEqual([200, 404]);
      const again = await remove();
      expect(again.status, what).toBe(404);
      expect(await again.json()).toEqual({ error: { code: "not_found", message: `${what} not found` } });
    }
  });

  it("the no-JavaScript delete forms: the second one is a 404 with its message", async () => {
    const r = await records();
    const cookie = await cookieFor(r.user.id);
    const twice = async (what: string, run: () => unknown, message: string) => {
      const first = await outcome(run);
      expect(first.status, what).toBe(302);
      const second = await outcome(run);
      expect(second.status, what).toBe(404);
      expect(second.body, what).toEqual(message);
    };
    await twice(
      "order",
      () => ordersPage.action(args(formRequest("/orders", { intent: "delete", id: r.order }, { cookie }))),
      "Delete failed: Order not found",
    );
    await twice(
      "customer",
      () => customersPage.action(args(formRequest("/customers", { intent: "delete", id: r.customer }, { cookie }))),
      "Delete failed: Customer not found",
    );
    await twice(
      "segment",
      () => segmentsPage.action(args(formRequest("/segments", { intent: "delete", id: r.segment }, { cookie }))),
      { message: "Delete failed: Segment not found" } as unknown as string,
    );
    await twice(
      "campaign",
      () => campaignsPage.action(args(formRequest("/campaigns", { intent: "delete", id: r.campaign }, { cookie }))),
      "Could not delete campaign: Campaign not found",
    );
    const again = await outcome(() =>
      campaignPage.action(
        args(formRequest(`/campaigns/${r.campaign}`, { intent: "delete" }, { cookie }), { id: r.campaign }),
      ),
    );
    expect(again).toMatchObject({ status: 404, body: "Could not delete campaign: Campaign not found" });
    // The notification form answers in place (no redirect): 200, then 404 with the form's message.
    const remove = () =>
      outcome(() =>
        notificationsPage.action(
          args(formRequest("/notifications", { intent: "delete", id: r.notification }, { cookie })),
        ),
      );
    expect((await remove()).status).toBe(200);
    const second = await remove();
    expect(second.status).toBe(404);
    expect(JSON.stringify(second.body)).toContain("Notification not found");
  });
});

describe("a session ended on another device", () => {
  it("the next page (or form post) goes to /login?error=session_expired and the cookie is dropped", async () => {
    const user = await createTestUser();
    const here = await cookieFor(user.id);
    const elsewhere = await cookieFor(user.id);
    // Logout on the other device moves the user's session version on.
    const out = await logout.action(
      args(
        makeRequest("/api/auth/logout", { method: "POST", auth: { cookie: elsewhere }, headers: { Origin: ORIGIN } }),
      ),
    );
    expect(out.status).toBe(200);
    const page = await outcome(() => layout.loader(args(makeRequest("/customers", { auth: { cookie: here } }))));
    expect(page).toMatchObject({ status: 302, location: "/login?error=session_expired" });
    let thrown: unknown;
    try {
      await layout.loader(args(makeRequest("/customers", { auth: { cookie: here } })));
    } catch (error) {
      thrown = error;
    }
    expect((thrown as Response).headers.get("Set-Cookie")).toMatch(/^__crm_session=;.*Expires=Thu, 01 Jan 1970/);
    const post = await outcome(() =>
      customerForm.action(
        args(
          formRequest("/customers/new", { firstName: "A", lastName: "B", email: "a@example.com" }, { cookie: here }),
        ),
      ),
    );
    expect(post).toMatchObject({ status: 302, location: "/login?error=session_expired" });
  });

  it("a visitor who never signed in goes to plain /login", async () => {
    const page = await outcome(() => layout.loader(args(makeRequest("/customers"))));
    expect(page).toMatchObject({ status: 302, location: "/login" });
  });

  it("ending sessions directly (a password change) does the same", async () => {
    const user = await createTestUser();
    const cookie = await cookieFor(user.id);
    await endSessions(user.id);
    const page = await outcome(() => layout.loader(args(makeRequest("/orders", { auth: { cookie } }))));
    expect(page.location).toBe("/login?error=session_expired");
  });
});
