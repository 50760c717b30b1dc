// @engines sqlite postgres
// /api/suppressions against a real database: listing with search and keyset paging, adding (bad
// addresses named, limits), getting and deleting one by its URL-encoded address, the CSV import and
// export, and one tenant never seeing, adding to or deleting another's entries.
import { beforeAll, describe, expect, it } from "vitest";
import { createTestUser, useTestDatabase } from "../helpers/db";
import { args, bearerFor, makeRequest } from "../helpers/requests";

// eslint-disable-next-line react-hooks/rules-of-hooks -- a test helper named use*, not a React hook
useTestDatabase();

import { BODY_LIMITS, bodyLimitOf } from "../../server/app";
import { suppressions } from "~/models/suppressions/store.server";
import { loader as listLoader, action as listAction } from "~/routes/api/suppressions";
import { loader as oneLoader, action as oneAction } from "~/routes/api/suppressions-email";
import { action as importAction } from "~/routes/api/suppressions-import";
import { loader as exportLoader } from "~/routes/api/suppressions-export";
import { suppressionOf } from "~/services/suppressions.server";

type Handler = (a: ReturnType<typeof args>) => Promise<unknown>;

let alice: { id: string; bearer: string };

async function signedUp(name: string) {
  const user = await createTestUser(name);
  return { id: user.id, bearer: await bearerFor(user.id) };
}

beforeAll(async () => {
  alice = await signedUp("Alice");
});

async function call(
  handler: Handler,
  who: { bearer: string } | null,
  path: string,
  init: { method?: string; json?: unknown; body?: string; headers?: Record<string, string> } = {},
  params: Record<string, string> = {},
) {
  const request = makeRequest(path, {
    method: init.method,
    auth: who ? { bearer: who.bearer } : undefined,
    json: init.json,
    body: init.body,
    headers: init.headers,
  });
  let response: Response;
  try {
    response = (await handler(args(request, params))) as Response;
  } catch (thrown) {
    if (!(thrown instanceof Response)) throw thrown;
    response = thrown;
  }
  const text = await response.text();
  const json = (response.headers.get("Content-Type") ?? "").includes("json") && text ? JSON.parse(text) : null;
  return { status: response.status, headers: response.headers, text, json };
}

const add = (who: { bearer: string }, emails: unknown) =>
  call(listAction, who, "/api/suppressions", { method: "POST", json: { emails } });

describe("POST /api/suppressions", () => {
  it("adds addresses, trimmed, lower-cased and once, and counts those already on the list", async () => {
    const first = await add(alice, [" Asha@Example.com", "ravi@example.com", "asha@example.com"]);
    expect(first.status).toBe(200);
    expect(first.json).toEqual({ added: 2, alreadySuppressed: 0 });
    const again = await add(alice, ["RAVI@example.com", "meena@example.com"]);
    expect(again.json).toEqual({ added: 1, alreadySuppressed: 1 });
    expect((await suppressionOf(alice.id, "asha@example.com"))?.reason).toBe("manual");
  });

  it("refuses bad input with the error shape, naming the bad addresses, and adds nothing", async () => {
    const bad = await add(alice, ["ok@example.com", "nope", "x@"]);
    expect(bad.status).toBe(400);
    expect(bad.json.error.code).toBe("bad_request");
    expect(bad.json.error.message).toContain('"nope"');
    expect(bad.json.error.message).toContain('"x@"');
    expect(bad.json.error.fields.emails).toBeDefined();
    expect(await suppressionOf(alice.id, "ok@example.com")).toBeNull();

    expect((await add(alice, [])).json.error.message).toMatch(/at least one email/);
    expect((await add(alice, "a@b.in")).status).toBe(400);
    expect((await add(alice, [5])).status).toBe(400);
    expect((await call(listAction, alice, "/api/suppressions", { method: "POST", json: {} })).status).toBe(400);
    const tooMany = await add(
      alice,
      Array.from({ length: 10_001 }, (_, i) => `n${i}@x.in`),
    );
    expect(tooMany.status).toBe(400);
    expect(tooMany.json.error.message).toMatch(/At most 10,000/);
    const notJson = await call(listAction, alice, "/api/suppressions", {
      method: "POST",
      body: "{oops",
      headers: { "Content-Type": "application/json" },
    });
    expect(notJson.status).toBe(400);
  });

  it("takes exactly 10,000 addresses", async () => {
    const user = await signedUp("Big");
    const answer = await add(
      user,
      Array.from({ length: 10_000 }, (_, i) => `bulk${i}@example.com`),
    );
    expect(answer.json).toEqual({ added: 10_000, alreadySuppressed: 0 });
  });

  it("needs credentials", async () => {
    expect((await call(listAction, null, "/api/suppressions", { method: "POST", json: { emails: [] } })).status).toBe(
      401,
    );
    expect((await call(listLoader, null, "/api/suppressions")).status).toBe(401);
  });
});

describe("GET /api/suppressions", () => {
  it("pages newest first with a cursor, counts, searches, and gives email, reason and createdAt", async () => {
    const user = await signedUp("Lister");
    const now = Date.now();
    // Five entries, two of them at the same moment (the cursor tells them apart by address).
    await suppressions.addSuppressions(
      user.id,
      [{ email: "e1@shop.in", reason: "unsubscribed", campaignName: "Sale" }],
      {
        now: now - 4000,
      },
    );
    await suppressions.addSuppressions(user.id, [{ email: "e2@mail.in", reason: "hard-bounced" }], { now: now - 3000 });
    await suppressions.addSuppressions(
      user.id,
      [
        { email: "e3@shop.in", reason: "manual" },
        { email: "e4@shop.in", reason: "manual" },
      ],
      { now: now - 2000 },
    );
    await suppressions.addSuppressions(user.id, [{ email: "e5@mail.in", reason: "complained" }], { now: now - 1000 });

    const seen: string[] = [];
    let cursor: string | null = null;
    for (let pages = 0; pages < 5; pages++) {
      const query: string = cursor ? `?limit=2&cursor=${encodeURIComponent(cursor)}` : "?limit=2";
      const page = await call(listLoader, user, `/api/suppressions${query}`);
      expect(page.status).toBe(200);
      expect(page.headers.get("X-Total-Count")).toBe("5");
      seen.push(...page.json.map((s: { email: string }) => s.email));
      cursor = page.headers.get("X-Next-Cursor");
      if (!cursor) break;
    }
    expect(seen).toEqual(["e5@mail.in", "e3@shop.in", "e4@shop.in", "e2@mail.in", "e1@shop.in"]);

    const all = await call(listLoader, user, "/api/suppressions");
    const first = all.json[4];
    expect(first).toMatchObject({
      email: "e1@shop.in",
      reason: "unsubscribed",
      campaignName: "Sale",
      campaignId: null,
    });
    expect(new Date(first.createdAt).getTime()).toBe(now - 4000);
    expect(all.headers.get("X-Next-Cursor")).toBeNull();

    const search = await call(listLoader, user, "/api/suppressions?q=MAIL.IN");
    expect(search.json.map((s: { email: string }) => s.email)).toEqual(["e5@mail.in", "e2@mail.in"]);
    expect(search.headers.get("X-Total-Count")).toBe("2");
  });

  it("refuses a bad limit, cursor or search with a 400", async () => {
    for (const query of ["limit=0", "limit=1001", "limit=x", "cursor=nope", "q=a%01"]) {
      const answer = await call(listLoader, alice, `/api/suppressions?${query}`);
      expect(answer.status, query).toBe(400);
      expect(answer.json.error.code).toBe("bad_request");
    }
  });
});

describe("GET and DELETE /api/suppressions/{email}", () => {
  it("reads and removes one address given URL-encoded, in any case; a second delete is a 404", async () => {
    const user = await signedUp("Remover");
    await add(user, ["priya+news@example.com"]);
    const encoded = encodeURIComponent("Priya+News@Example.com");
    const path = `/api/suppressions/${encoded}`;
    const params = { email: decodeURIComponent(encoded) };
    const one = await call(oneLoader, user, path, {}, params);
    expect(one.status).toBe(200);
    expect(one.json).toMatchObject({ email: "priya+news@example.com", reason: "manual" });

    const removed = await call(oneAction, user, path, { method: "DELETE" }, params);
    expect(removed.status).toBe(200);
    expect(removed.json).toEqual({ success: true, message: "Address removed from the suppression list" });
    const again = await call(oneAction, user, path, { method: "DELETE" }, params);
    expect(again.status).toBe(404);
    expect(again.json.error).toMatchObject({ code: "not_found" });
    expect(again.json.error.message).toMatch(/is not on the suppression list/);
    expect((await call(oneLoader, user, path, {}, params)).status).toBe(404);
    expect((await call(oneAction, user, "/api/suppressions/x", { method: "DELETE" }, { email: "x" })).status).toBe(404);
    expect((await call(oneAction, user, path, { method: "PUT" }, params)).status).toBe(405);
  });
});

describe("tenants", () => {
  it("never see, read, delete or count another tenant's entries", async () => {
    const a = await signedUp("Tenant A");
    const b = await signedUp("Tenant B");
    await add(a, ["shared@example.com", "only-a@example.com"]);
    await add(b, ["shared@example.com"]);

    const listB = await call(listLoader, b, "/api/suppressions");
    expect(listB.json.map((s: { email: string }) => s.email)).toEqual(["shared@example.com"]);
    expect(listB.headers.get("X-Total-Count")).toBe("1");
    expect((await call(listLoader, b, "/api/suppressions?q=only-a")).json).toEqual([]);

    const params = { email: "only-a@example.com" };
    expect((await call(oneLoader, b, "/api/suppressions/only-a%40example.com", {}, params)).status).toBe(404);
    const deleteOther = await call(
      oneAction,
      b,
      "/api/suppressions/only-a%40example.com",
      { method: "DELETE" },
      params,
    );
    expect(deleteOther.status).toBe(404);
    expect(await suppressionOf(a.id, "only-a@example.com")).not.toBeNull();

    // B removing its own copy of a shared address leaves A's.
    const shared = { email: "shared@example.com" };
    expect(
      (await call(oneAction, b, "/api/suppressions/shared%40example.com", { method: "DELETE" }, shared)).status,
    ).toBe(200);
    expect(await suppressionOf(a.id, "shared@example.com")).not.toBeNull();

    const exportB = await call(exportLoader, b, "/api/suppressions/export");
    expect(exportB.text.trim()).toBe("email,reason,campaign,created_at");
  });
});

describe("CSV import and export", () => {
  it("imports a Mailchimp-style file and reports bad rows with their lines", async () => {
    const user = await signedUp("Importer");
    await add(user, ["known@example.com"]);
    const csv =
      "Email Address,First Name,Reason\nnew@example.com,New,unsubscribed\nbroken,Bad,\nknown@example.com,Known,\n";
    const answer = await call(importAction, user, "/api/suppressions/import", {
      method: "POST",
      body: csv,
      headers: { "Content-Type": "text/csv" },
    });
    expect(answer.status).toBe(200);
    expect(answer.json).toMatchObject({
      rows: 3,
      added: 1,
      alreadySuppressed: 1,
      duplicates: 0,
      invalid: 1,
      errors: [{ line: 3, email: "broken", reason: "Enter a valid email address" }],
      errorsTruncated: false,
    });
    expect(await suppressionOf(user.id, "new@example.com")).toMatchObject({
      reason: "unsubscribed",
      details: "Imported from CSV",
    });
  });

  it("refuses a file without an email column (422), a JSON body (400) and an empty body (422)", async () => {
    const user = await signedUp("Refused");
    const noColumn = await call(importAction, user, "/api/suppressions/import", {
      method: "POST",
      body: "name,phone\nAsha,1\n",
      headers: { "Content-Type": "text/csv" },
    });
    expect(noColumn.status).toBe(422);
    expect(noColumn.json.error).toMatchObject({ code: "unprocessable" });
    expect(noColumn.json.error.message).toMatch(/no email column/);
    const json = await call(importAction, user, "/api/suppressions/import", {
      method: "POST",
      body: "{}",
      headers: { "Content-Type": "application/json" },
    });
    expect(json.status).toBe(400);
    const empty = await call(importAction, user, "/api/suppressions/import", {
      method: "POST",
      headers: { "Content-Type": "text/csv" },
    });
    expect(empty.status).toBe(422);
    expect((await call(listLoader, user, "/api/suppressions")).json).toEqual([]);
  });

  it("exports the caller's list as a CSV download", async () => {
    const user = await signedUp("Exporter");
    await suppressions.addSuppressions(user.id, [
      { email: "z@example.com", reason: "hard-bounced", campaignName: "Diwali" },
    ]);
    await add(user, ["a@example.com"]);
    const answer = await call(exportLoader, user, "/api/suppressions/export");
    expect(answer.status).toBe(200);
    expect(answer.headers.get("Content-Type")).toMatch(/^text\/csv/);
    expect(answer.headers.get("Content-Disposition")).toMatch(
      /attachment; filename="suppressions-\d{4}-\d\d-\d\d\.csv"/,
    );
    const lines = answer.text.trim().split("\n");
    expect(lines[0]).toBe("email,reason,campaign,created_at");
    expect(lines.slice(1).map((l) => l.split(",").slice(0, 3).join(","))).toEqual([
      "a@example.com,manual,",
      "z@example.com,hard-bounced,Diwali",
    ]);
  });

  it("the server lets an import's body be as large as a customer import's", () => {
    expect(bodyLimitOf("/api/suppressions/import")).toBe(BODY_LIMITS.import);
    expect(bodyLimitOf("/api/suppressions")).toBe(BODY_LIMITS.json);
  });
});
