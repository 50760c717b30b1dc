// @engines sqlite postgres
// The Suppressions page and the customer page's suppression parts, through their loaders and
// actions with a real session and database: adding by hand (the bad address named), search and
// paging, removing with its confirmation, the CSV import and export, resubscribing from the
// customer page, and each user seeing only their own list.
import { describe, expect, it } from "vitest";
import { BODY_LIMITS, bodyLimitOf } from "../../server/app";
import { createTestUser, useTestDatabase as setUpTestDatabase } from "../../tests/helpers/db";

setUpTestDatabase();

const { signInAndRedirect } = await import("~/services/session.server");
const { flashOf } = await import("../../tests/helpers/requests");
const { createCustomer } = await import("~/services/customers.server");
const { suppressions } = await import("~/models/suppressions/store.server");
const { suppressionOf } = await import("~/services/suppressions.server");
const listRoute = await import("~/routes/suppressions");
const importRoute = await import("~/routes/suppressions-import");
const exportRoute = await import("~/routes/suppressions-export");
const detailRoute = await import("~/routes/customers-detail");

const BASE = "http://localhost";
/** The optional fields of a customer, left empty. */
const BLANK = { phone: "", address: "", company: "", notes: "" };

async function signedIn() {
  const user = await createTestUser();
  const res = await signInAndRedirect(new Request(`${BASE}/login`), user.id, "/");
  const cookie = (res.headers.get("Set-Cookie") ?? "").split(";")[0];
  return { user, cookie };
}

function get(cookie: string, path: string) {
  return new Request(`${BASE}${path}`, { headers: { Cookie: cookie } });
}

/** A form post as a browser sends it: urlencoded, or multipart when it carries a file. */
function post(cookie: string, path: string, fields: Record<string, string | File>) {
  if (Object.values(fields).every((v) => typeof v === "string")) {
    const body = new URLSearchParams(fields as Record<string, string>);
    return new Request(`${BASE}${path}`, { method: "POST", headers: { Cookie: cookie }, body });
  }
  const body = new FormData();
  for (const [k, v] of Object.entries(fields)) body.set(k, v);
  return new Request(`${BASE}${path}`, { method: "POST", headers: { Cookie: cookie }, body });
}

/** An action's data(...) answer: its body and status. */
function dataOf<T>(res: unknown): { status: number; body: T } {
  const d = res as { data: T; init?: { status?: number } };
  return { status: d.init?.status ?? 200, body: d.data };
}

/** What a thrown data(...) or Response says. */
async function thrown(work: Promise<unknown>): Promise<{ status: number; message: unknown }> {
  try {
    await work;
  } catch (error) {
    if (error instanceof Response) return { status: error.status, message: await error.text() };
    const d = error as { data: unknown; init?: { status?: number } };
    return { status: d.init?.status ?? 0, message: d.data };
  }
  throw new Error("it did not stop");
}

const args = (request: Request, params: Record<string, string> = {}) => ({ request, params, context: {} });
const list = async (cookie: string, path = "/suppressions") => listRoute.loader(args(get(cookie, path)));

describe("the Suppressions page", () => {
  it("adds addresses by hand, one a line or comma separated, and says so in a toast", async () => {
    const { cookie } = await signedIn();
    expect((await list(cookie)).page.total).toBe(0);
    const res = await listRoute.action(
      args(
        post(cookie, "/suppressions", { intent: "add", emails: "Asha@Example.in\nravi@example.in, asha@example.in" }),
      ),
    );
    expect(res).toBeInstanceOf(Response);
    expect((res as Response).headers.get("Location")).toBe("/suppressions");
    expect(await flashOf(res as Response)).toEqual({
      kind: "toast",
      type: "success",
      message: "2 addresses added to the suppression list",
    });
    const { page } = await list(cookie);
    expect(page.items.map((i) => [i.email, i.reason, i.campaignName])).toEqual(
      expect.arrayContaining([
        ["asha@example.in", "manual", ""],
        ["ravi@example.in", "manual", ""],
      ]),
    );

    const again = await listRoute.action(
      args(post(cookie, "/suppressions", { intent: "add", emails: "ravi@example.in,meera@example.in" })),
    );
    expect((await flashOf(again as Response))?.message).toBe(
      "1 address added to the suppression list; 1 was on it already",
    );
  });

  it("names a bad address under the field and adds nothing", async () => {
    const { cookie } = await signedIn();
    const res = await listRoute.action(
      args(post(cookie, "/suppressions", { intent: "add", emails: "good@example.in\nkavya@" })),
    );
    const { status, body } = dataOf<{ error?: Record<string, string[]> }>(res);
    expect(status).toBe(400);
    expect(body.error?.emails).toEqual([
      '"kavya@" is not a valid email address. Correct it or leave it out and try again.',
    ]);
    const empty = dataOf<{ error?: Record<string, string[]> }>(
      await listRoute.action(args(post(cookie, "/suppressions", { intent: "add", emails: " " }))),
    );
    expect(empty.body.error?.emails).toEqual(["Give at least one email address to suppress."]);
    expect((await list(cookie)).page.total).toBe(0);
  });

  it("searches on the address and pages 50 at a time, a page past the end showing the last", async () => {
    const { user, cookie } = await signedIn();
    await suppressions.addSuppressions(
      user.id,
      Array.from({ length: 55 }, (_, i) => ({ email: `guest${i}@example.in`, reason: "unsubscribed" as const })),
    );
    await suppressions.addSuppressions(user.id, [
      { email: "kavya@menon.in", reason: "hard-bounced", campaignName: "Diwali Dhamaka" },
    ]);
    const first = await list(cookie);
    expect(first.page.total).toBe(56);
    expect(first.page.items).toHaveLength(50);
    const second = await list(cookie, "/suppressions?page=2");
    expect(second.page.page).toBe(2);
    expect(second.page.items).toHaveLength(6);
    expect((await list(cookie, "/suppressions?page=9")).page.page).toBe(2);
    const found = await list(cookie, "/suppressions?q=MENON");
    expect(found.q).toBe("MENON");
    expect(found.page.items.map((i) => [i.email, i.reason, i.campaignName])).toEqual([
      ["kavya@menon.in", "hard-bounced", "Diwali Dhamaka"],
    ]);
    for (const bad of ["page=0", "page=abc", "page=1.5"])
      expect(await thrown(list(cookie, `/suppressions?${bad}`))).toEqual({
        status: 400,
        message: "page must be a whole number, 1 or more",
      });
  });

  it("removes an address after the confirmation, and a second remove is a 404 that says why", async () => {
    const { user, cookie } = await signedIn();
    await suppressions.addSuppressions(user.id, [{ email: "asha@example.in", reason: "unsubscribed" }]);
    expect((await list(cookie, "/suppressions?remove=asha%40example.in")).removing).toEqual({
      email: "asha@example.in",
    });
    expect((await list(cookie, "/suppressions?remove=nobody%40example.in")).removing).toBeNull();
    const res = await listRoute.action(
      args(post(cookie, "/suppressions", { intent: "remove", email: "asha@example.in", back: "/suppressions?q=asha" })),
    );
    expect((res as Response).headers.get("Location")).toBe("/suppressions?q=asha");
    expect(await flashOf(res as Response)).toEqual({
      kind: "toast",
      type: "success",
      message: "asha@example.in removed from the suppression list",
    });
    expect(await suppressionOf(user.id, "asha@example.in")).toBeNull();
    expect(
      await thrown(
        listRoute.action(args(post(cookie, "/suppressions", { intent: "remove", email: "asha@example.in" }))),
      ),
    ).toEqual({ status: 404, message: "Remove failed: asha@example.in is not on the suppression list" });
    // Where to go back to stays on this page.
    await suppressions.addSuppressions(user.id, [{ email: "asha@example.in", reason: "manual" }]);
    const away = await listRoute.action(
      args(post(cookie, "/suppressions", { intent: "remove", email: "asha@example.in", back: "https://evil.example" })),
    );
    expect((away as Response).headers.get("Location")).toBe("/suppressions");
  });

  it("shows and changes only the signed-in user's list", async () => {
    const mine = await signedIn();
    const theirs = await signedIn();
    await suppressions.addSuppressions(theirs.user.id, [{ email: "their@example.in", reason: "complained" }]);
    expect((await list(mine.cookie)).page.total).toBe(0);
    expect((await list(mine.cookie, "/suppressions?remove=their%40example.in")).removing).toBeNull();
    expect(
      (
        await thrown(
          listRoute.action(args(post(mine.cookie, "/suppressions", { intent: "remove", email: "their@example.in" }))),
        )
      ).status,
    ).toBe(404);
    expect(await suppressionOf(theirs.user.id, "their@example.in")).not.toBeNull();
  });

  it("imports a CSV file on its own page, listing the bad rows, and refuses a file without an email column", async () => {
    const { cookie } = await signedIn();
    const csv =
      "Email Address,Reason,Campaign\nasha@example.in,unsubscribed,Diwali Dhamaka\nnot-an-email,,\nravi@example.in,,\n";
    const res = await importRoute.action(
      args(post(cookie, "/suppressions/import", { file: new File([csv], "list.csv", { type: "text/csv" }) })),
    );
    const { status, body } = dataOf<{
      ok: boolean;
      result: { rows: number; added: number; invalid: number; errors: { line: number; email: string }[] };
      report: string | null;
    }>(res);
    expect(status).toBe(200);
    expect(body.ok).toBe(true);
    expect(body.result).toMatchObject({ rows: 3, added: 2, invalid: 1 });
    expect(body.result.errors).toEqual([expect.objectContaining({ line: 3, email: "not-an-email" })]);
    expect(decodeURIComponent(body.report ?? "")).toContain("3,not-an-email,");
    const { page } = await list(cookie);
    expect(page.items.find((i) => i.email === "asha@example.in")).toMatchObject({
      reason: "unsubscribed",
      campaignName: "Diwali Dhamaka",
    });

    const refused = dataOf<{ ok: boolean; message: string }>(
      await importRoute.action(
        args(post(cookie, "/suppressions/import", { file: new File(["name\nAsha\n"], "x.csv", { type: "text/csv" }) })),
      ),
    );
    expect(refused.status).toBe(422);
    expect(refused.body).toEqual({ ok: false, message: expect.stringContaining("The file has no email column") });
    const none = dataOf<{ ok: boolean; message: string }>(
      await importRoute.action(
        args(post(cookie, "/suppressions/import", { file: new File([], "", { type: "application/octet-stream" }) })),
      ),
    );
    expect(none).toEqual({ status: 422, body: { ok: false, message: "Choose a CSV file to import." } });
    // The server takes an upload's body there (the list's own forms stay small).
    expect(bodyLimitOf("/suppressions/import")).toBe(BODY_LIMITS.import);
    expect(bodyLimitOf("/suppressions")).toBe(BODY_LIMITS.form);
  });

  it("exports the list as CSV, and takes GET and POST only", async () => {
    const { user, cookie } = await signedIn();
    await suppressions.addSuppressions(user.id, [
      { email: "asha@example.in", reason: "unsubscribed", campaignName: "Diwali" },
    ]);
    const res = await exportRoute.loader(args(get(cookie, "/suppressions/export")));
    expect(res.headers.get("Content-Type")).toBe("text/csv; charset=utf-8");
    expect(res.headers.get("Content-Disposition")).toMatch(
      /^attachment; filename="suppressions-\d{4}-\d{2}-\d{2}\.csv"$/,
    );
    const text = await res.text();
    expect(text.split(/\r?\n/)[0]).toBe("email,reason,campaign,created_at");
    expect(text).toContain("asha@example.in,unsubscribed,Diwali,");
    expect(text.charCodeAt(0)).not.toBe(0xfeff);

    // ?bom=1 (the form's checkbox for Excel on Windows): the same bytes after a UTF-8 byte order mark.
    const withBom = await exportRoute.loader(args(get(cookie, "/suppressions/export?bom=1")));
    expect(withBom.headers.get("Content-Type")).toBe("text/csv; charset=utf-8");
    const bytes = new Uint8Array(await withBom.arrayBuffer());
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    expect(new TextDecoder("utf-8", { ignoreBOM: true }).decode(bytes.subarray(3))).toBe(text);

    const put = new Request(`${BASE}/suppressions`, { method: "PUT", headers: { Cookie: cookie } });
    const refused = await thrown(Promise.resolve().then(() => listRoute.action(args(put))));
    expect(refused.status).toBe(405);
  });
});

describe("the customer page", () => {
  it("shows a suppressed customer's badge and history, and resubscribes after the confirmation", async () => {
    const { user, cookie } = await signedIn();
    const customer = await createCustomer(user.id, {
      ...BLANK,
      firstName: "Kavya",
      lastName: "Menon",
      email: "kavya@menon.in",
    });
    const path = `/customers/${customer.id}`;
    const before = await detailRoute.loader(args(get(cookie, path), { id: customer.id }));
    expect(before.suppression).toBeNull();
    expect(before.story.entries).toEqual([]);

    await suppressions.addSuppressions(user.id, [
      { email: "kavya@menon.in", reason: "unsubscribed", campaignName: "Diwali Dhamaka" },
    ]);
    const shown = await detailRoute.loader(args(get(cookie, `${path}?resubscribe=1`), { id: customer.id }));
    expect(shown.suppression?.reason).toBe("unsubscribed");
    expect(shown.resubscribing).toBe(true);
    expect(shown.story.entries.map((e) => [e.kind, e.text])).toEqual([
      ["unsubscribed", "Unsubscribed from Diwali Dhamaka"],
    ]);

    const res = await detailRoute.action(args(post(cookie, path, { intent: "resubscribe" }), { id: customer.id }));
    expect((res as Response).headers.get("Location")).toBe(path);
    expect(await flashOf(res as Response)).toEqual({
      kind: "toast",
      type: "success",
      message: "Resubscribed: kavya@menon.in gets campaign e-mail again",
    });
    const after = await detailRoute.loader(args(get(cookie, `${path}?resubscribe=1`), { id: customer.id }));
    expect(after.suppression).toBeNull();
    expect(after.resubscribing).toBe(false);
    expect(after.story.entries.map((e) => e.kind)).toEqual(["resubscribed", "unsubscribed"]);

    expect(
      await thrown(detailRoute.action(args(post(cookie, path, { intent: "resubscribe" }), { id: customer.id }))),
    ).toEqual({ status: 404, message: "Resubscribe failed: kavya@menon.in is not on the suppression list" });
  });

  it("does not resubscribe another user's customer", async () => {
    const mine = await signedIn();
    const theirs = await signedIn();
    const customer = await createCustomer(theirs.user.id, {
      ...BLANK,
      firstName: "Their",
      lastName: "Customer",
      email: "t@x.in",
    });
    await suppressions.addSuppressions(theirs.user.id, [{ email: "t@x.in", reason: "manual" }]);
    const refused = await thrown(
      detailRoute.action(
        args(post(mine.cookie, `/customers/${customer.id}`, { intent: "resubscribe" }), { id: customer.id }),
      ),
    );
    expect(refused.status).toBe(404);
    expect(await suppressionOf(theirs.user.id, "t@x.in")).not.toBeNull();
  });
});
