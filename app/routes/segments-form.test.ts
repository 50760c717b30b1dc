// @engines sqlite postgres
// The segment form's action with a real session and database: it refuses what the API refuses (a
// hand-made post with an unknown field or operator), through the same conditions schema and with
// the same message, and its add/remove buttons work without JavaScript; rows on the user's fields
// and tags post and open again as they were; the list and the segment's page warn of a field
// deleted since.
import { describe, expect, it } from "vitest";
import { createTestUser, segmentTree, useTestDatabase as setUpTestDatabase } from "../../tests/helpers/db";
import { ORIGIN, args, cookieFor, formRequest, makeRequest } from "../../tests/helpers/requests";

setUpTestDatabase();

const { db } = await import("~/db/prisma.server");
const { newId } = await import("~/lib/id");
const { issueToken } = await import("~/services/token.server");
const formRoute = await import("~/routes/segments-form");
const listRoute = await import("~/routes/segments");
const detailRoute = await import("~/routes/segments-detail");
const apiRoute = await import("~/routes/api/segments");

type Reply = {
  status: number;
  body: {
    result: { status?: string; error?: Record<string, string[] | null>; initialValue?: unknown };
    preview: unknown;
  };
};

async function replyOf(res: unknown): Promise<Reply> {
  if (res instanceof Response) return { status: res.status, body: (await res.json()) as Reply["body"] };
  const d = res as { data: Reply["body"]; init?: { status?: number } | null };
  return { status: d.init?.status ?? 200, body: d.data };
}

/** The segment form's action on a post from the signed-in browser, its fields in the order given. */
function postForm(path: string, cookie: string, body: URLSearchParams, params: Record<string, string> = {}) {
  const headers = { "Content-Type": "application/x-www-form-urlencoded", Origin: ORIGIN };
  return formRoute.action(args(makeRequest(path, { method: "POST", auth: { cookie }, body, headers }), params));
}

/** A signed-in user with three customers: customer i spent ₹1,000 × i and visited 4 × i times. */
async function signedIn() {
  const user = await createTestUser("Segment Form");
  for (let i = 1; i <= 3; i++) {
    await db().customer.create({
      data: {
        id: newId(),
        userId: user.id,
        firstName: `C${i}`,
        lastName: "T",
        email: `c${i}-${user.id}@example.in`,
        totalSpendPaise: 100_000 * i,
        visits: 4 * i,
      },
    });
  }
  return { user, cookie: await cookieFor(user.id) };
}

const row = (i: number, field: string, op: string, value: string) => ({
  [`conditions.children[${i}].kind`]: "condition",
  [`conditions.children[${i}].field`]: field,
  [`conditions.children[${i}].op`]: op,
  [`conditions.children[${i}].value`]: value,
});

describe("the segment form", () => {
  it("refuses an unknown field and operator with the API's message and saves nothing", async () => {
    const { user, cookie } = await signedIn();
    const fields = { name: "Hand made", "conditions.logic": "AND", ...row(0, "zzz", "$where", "1") };
    const reply = await replyOf(await formRoute.action(args(formRequest("/segments/new", fields, { cookie }))));
    expect(reply.status).toBe(400);

    const api = await apiRoute.action(
      args(
        new Request("http://localhost:3000/api/segments", {
          method: "POST",
          headers: { Authorization: `Bearer ${await issueToken(user.id)}`, "Content-Type": "application/json" },
          body: JSON.stringify({ name: "Hand made", conditions: { zzz: { $where: "1" } } }),
        }),
      ),
    );
    const apiBody = (await (api as Response).json()) as { error: { message: string } };
    expect((api as Response).status).toBe(400);
    // The same message, which lists the keys a condition may have (the figures first, fields and tags last).
    const unknownField =
      /conditions\.zzz: unknown field "zzz" \(allowed: totalSpend, visits, lastActiveDate, .*field:<name>, tags, inSegment\)$/;
    expect(apiBody.error.message).toMatch(unknownField);
    expect(reply.body.result.error?.conditions).toHaveLength(1);
    expect(reply.body.result.error?.conditions?.[0]).toMatch(unknownField);
    expect(reply.body.result.error?.conditions?.[0]).toBe(apiBody.error.message.replace(/^conditions: /, ""));

    // A known field with an operator it does not take.
    const badOp = await replyOf(
      await formRoute.action(
        args(formRequest("/segments/new", { name: "Hand made", ...row(0, "totalSpend", "$where", "1") }, { cookie })),
      ),
    );
    expect(badOp.status).toBe(400);
    expect(badOp.body.result.error?.conditions).toEqual([
      'conditions.totalSpend.$where: unknown operator "$where" for totalSpend (allowed: $gt, $gte, $lt, $lte, $eq)',
    ]);
    expect(await db().segment.count({ where: { userId: user.id } })).toBe(0);
  });

  it("gives the builder's messages for a save that is not ready", async () => {
    const { cookie } = await signedIn();
    const reply = await replyOf(
      await formRoute.action(
        args(formRequest("/segments/new", { name: "", ...row(0, "totalSpend", "$gt", "") }, { cookie })),
      ),
    );
    expect(reply.status).toBe(400);
    expect(reply.body.result.error).toMatchObject({
      name: ["Segment name is required"],
      conditions: ["All condition values are required"],
    });
    const number = await replyOf(
      await formRoute.action(
        args(formRequest("/segments/new", { name: "x", ...row(0, "visits", "$gt", "12abc") }, { cookie })),
      ),
    );
    expect(number.body.result.error).toMatchObject({ conditions: ["Invalid numeric value"] });
  });

  it("adds and removes rows without JavaScript, keeping what was typed, and previews what was posted", async () => {
    const { cookie } = await signedIn();
    const base = { name: "Loyal", "conditions.logic": "AND", ...row(0, "totalSpend", "$gt", "4000") };
    const insert = JSON.stringify({
      type: "insert",
      payload: {
        name: "conditions.children",
        defaultValue: { kind: "condition", field: "totalSpend", op: "$gt", value: "" },
      },
    });
    const added = await replyOf(
      await formRoute.action(args(formRequest("/segments/new", { ...base, __intent__: insert }, { cookie }))),
    );
    expect(added.status).toBe(200);
    expect(added.body.result.initialValue).toMatchObject({
      name: "Loyal",
      conditions: {
        children: [
          { field: "totalSpend", value: "4000" },
          { kind: "condition", field: "totalSpend", op: "$gt" },
        ],
      },
    });
    // The new row has no value yet: nothing to count.
    expect(added.body.preview).toBeNull();

    const remove = JSON.stringify({ type: "remove", payload: { name: "conditions.children", index: 0 } });
    const removed = await replyOf(
      await formRoute.action(
        args(
          formRequest("/segments/new", { ...base, ...row(1, "visits", "$gt", "9"), __intent__: remove }, { cookie }),
        ),
      ),
    );
    expect(removed.status).toBe(200);
    expect(removed.body.result.initialValue).toMatchObject({
      conditions: { children: [{ field: "visits", value: "9" }] },
    });
    expect(
      (removed.body.result.initialValue as { conditions: { children: unknown[] } }).conditions.children,
    ).toHaveLength(1);
    // visits > 9: the third customer only.
    expect(removed.body.preview).toMatchObject({ count: 1, customers: [{ firstName: "C3" }] });
  });

  it("saves 'in the last N days' as a rolling date, and refuses a bad N with the API's message", async () => {
    const { user, cookie } = await signedIn();
    const saved = await formRoute.action(
      args(
        formRequest(
          "/segments/new",
          { name: "Recent", ...row(0, "lastActiveDate", "$gte:daysAgo", " 30 ") },
          { cookie },
        ),
      ),
    );
    expect((saved as Response).status).toBe(302);
    const segment = await db().segment.findFirstOrThrow({ where: { userId: user.id } });
    expect(JSON.parse(segment.conditions)).toEqual({ lastActiveDate: { $gte: { $daysAgo: 30 } } });

    const older = await formRoute.action(
      args(
        formRequest("/segments/new", { name: "Lapsed", ...row(0, "lastActiveDate", "$lt:daysAgo", "90") }, { cookie }),
      ),
    );
    expect((older as Response).status).toBe(302);
    const lapsed = await db().segment.findFirstOrThrow({ where: { userId: user.id, name: "Lapsed" } });
    expect(JSON.parse(lapsed.conditions)).toEqual({ lastActiveDate: { $lt: { $daysAgo: 90 } } });

    const message =
      "conditions.lastActiveDate.$gte.$daysAgo: the number of days must be a whole number from 0 to 36,500";
    for (const n of ["-3", "1.5", "99999", "ten"]) {
      const reply = await replyOf(
        await formRoute.action(
          args(
            formRequest("/segments/new", { name: "Bad", ...row(0, "lastActiveDate", "$gte:daysAgo", n) }, { cookie }),
          ),
        ),
      );
      expect(reply.status, n).toBe(400);
      expect(reply.body.result.error?.conditions).toEqual([message]);
      const api = (await apiRoute.action(
        args(
          new Request("http://localhost:3000/api/segments", {
            method: "POST",
            headers: { Authorization: `Bearer ${await issueToken(user.id)}`, "Content-Type": "application/json" },
            body: JSON.stringify({ name: "Bad", conditions: { lastActiveDate: { $gte: { $daysAgo: n } } } }),
          }),
        ),
      )) as Response;
      expect(api.status).toBe(400);
      expect(((await api.json()) as { error: { message: string } }).error.message).toContain(message);
    }
    expect(await db().segment.count({ where: { userId: user.id, name: "Bad" } })).toBe(0);
  });

  it("opens a rolling date in the builder as its days, and lists the other segments' names", async () => {
    const { user, cookie } = await signedIn();
    await formRoute.action(
      args(
        formRequest("/segments/new", { name: "Recent", ...row(0, "lastActiveDate", "$gte:daysAgo", "45") }, { cookie }),
      ),
    );
    await formRoute.action(
      args(formRequest("/segments/new", { name: "Other", ...row(0, "visits", "$gt", "1") }, { cookie })),
    );
    const segment = await db().segment.findFirstOrThrow({ where: { userId: user.id, name: "Recent" } });
    const loaded = (await formRoute.loader(
      args(new Request(`http://localhost:3000/segments/edit/${segment.id}`, { headers: { Cookie: cookie } }), {
        id: segment.id,
      }),
    )) as { values: { conditions: unknown }; otherNames: string[] };
    expect(loaded.values.conditions).toMatchObject({
      children: [{ kind: "condition", field: "lastActiveDate", op: "$gte:daysAgo", value: "45" }],
    });
    expect(loaded.otherNames).toEqual(["Other"]);
  });

  it("saves a nested segment as the API would store it", async () => {
    const { user, cookie } = await signedIn();
    const fields = {
      name: "Nested",
      "conditions.logic": "AND",
      ...row(0, "totalSpend", "$gt", "5000"),
      "conditions.children[1].kind": "group",
      "conditions.children[1].logic": "OR",
      "conditions.children[1].children[0].kind": "condition",
      "conditions.children[1].children[0].field": "visits",
      "conditions.children[1].children[0].op": "$lt",
      "conditions.children[1].children[0].value": "8",
      "conditions.children[1].children[1].kind": "condition",
      "conditions.children[1].children[1].field": "visits",
      "conditions.children[1].children[1].op": "$gte",
      "conditions.children[1].children[1].value": "12",
    };
    const res = await formRoute.action(args(formRequest("/segments/new", fields, { cookie })));
    expect(res).toBeInstanceOf(Response);
    expect((res as Response).status).toBe(302);
    const saved = await db().segment.findFirstOrThrow({ where: { userId: user.id } });
    expect(JSON.parse(saved.conditions)).toEqual({
      $and: [{ totalSpend: { $gt: 5000 } }, { $or: [{ visits: { $lt: 8 } }, { visits: { $gte: 12 } }] }],
    });
  });

  it("saves conditions on fields and tags posted without JavaScript, and offers the user's fields", async () => {
    const { createField } = await import("~/services/custom-fields.server");
    const { user, cookie } = await signedIn();
    await createField(user.id, { name: "tier", label: "Tier", type: "choice", choices: ["Gold", "Silver", "Bronze"] });
    await createField(user.id, { name: "old", label: "Old", type: "text" });
    const { updateField } = await import("~/services/custom-fields.server");
    await updateField(user.id, "old", { retired: true });
    const loaded = (await formRoute.loader(
      args(new Request("http://localhost:3000/segments/new", { headers: { Cookie: cookie } })),
    )) as { fields: { key: string; group: string }[] };
    expect(loaded.fields.filter((f) => f.group === "Fields").map((f) => f.key)).toEqual(["field:tier"]);
    expect(loaded.fields.find((f) => f.key === "tags")).toMatchObject({ group: "Tags" });

    // A multiple select posts each choice; "is empty" posts no value.
    const body = new URLSearchParams([
      ["name", "Gold or silver, no city"],
      ["conditions.logic", "AND"],
      ["conditions.children[0].kind", "condition"],
      ["conditions.children[0].field", "field:tier"],
      ["conditions.children[0].op", "$in"],
      ["conditions.children[0].value", "Gold"],
      ["conditions.children[0].value", "silver"],
      ["conditions.children[1].kind", "condition"],
      ["conditions.children[1].field", "field:city"],
      ["conditions.children[1].op", "$exists:false"],
      ["conditions.children[2].kind", "condition"],
      ["conditions.children[2].field", "tags"],
      ["conditions.children[2].op", "$nin"],
      ["conditions.children[2].value", "churned, Do not mail"],
    ]);
    const post = (b: URLSearchParams) => postForm("/segments/new", cookie, b);
    const saved = await post(body);
    expect((saved as Response).status).toBe(302);
    const segment = await db().segment.findFirstOrThrow({ where: { userId: user.id } });
    expect(JSON.parse(segment.conditions)).toEqual({
      $and: [
        { "field:tier": { $in: ["Gold", "Silver"] } },
        { "field:city": { $exists: false } },
        { tags: { $nin: ["churned", "Do not mail"] } },
      ],
    });
    // Opened again: the same rows, the choices one per line.
    const opened = (await formRoute.loader(
      args(new Request(`http://localhost:3000/segments/edit/${segment.id}`, { headers: { Cookie: cookie } }), {
        id: segment.id,
      }),
    )) as { values: { conditions: unknown }; preview: { count: number } };
    expect(opened.values.conditions).toMatchObject({
      children: [
        { field: "field:tier", op: "$in", value: "Gold\nSilver" },
        { field: "field:city", op: "$exists:false", value: "" },
        { field: "tags", op: "$nin", value: "churned, Do not mail" },
      ],
    });
    // Nobody has a tier yet.
    expect(opened.preview.count).toBe(0);

    // An operator the field's type does not take: the service's message under the conditions, nothing saved.
    const refused = await replyOf(
      await post(new URLSearchParams({ name: "Bad", ...row(0, "field:tier", "$gt", "3") })),
    );
    expect(refused.status).toBe(400);
    expect(refused.body.result.error?.conditions).toEqual([
      'conditions.field:tier.$gt: operator "$gt" does not apply to a choice field',
    ]);
    // A preview of rows naming a field the user does not have shows nothing, and the form comes back.
    const validate = JSON.stringify({ type: "validate", payload: { name: "" } });
    const unknown = await replyOf(
      await post(new URLSearchParams({ name: "x", ...row(0, "field:nope", "$eq", "x"), __intent__: validate })),
    );
    expect(unknown.status).toBe(200);
    expect(unknown.body.preview).toBeNull();
    expect(await db().segment.count({ where: { userId: user.id } })).toBe(1);
  });

  it("saves activity rows posted without JavaScript, the window folded into the operator, and opens them unchanged", async () => {
    const { user, cookie } = await signedIn();
    const post = (b: URLSearchParams) => postForm("/segments/new", cookie, b);
    const rows = (window: string) =>
      new URLSearchParams({
        name: "Regular saree buyers",
        "conditions.logic": "AND",
        ...row(0, "orderCount", "$gte", "2"),
        "conditions.children[0].window": window,
        ...row(1, "boughtProduct", "$eq", "Saree"),
        ...row(2, "lastOpenDate", "$gte:daysAgo", "90"),
        ...row(3, "suppressed", "$eq", "false"),
        // A window left from a field the row no longer tests is dropped.
        ...row(4, "visits", "$gte", "0"),
        "conditions.children[4].window": "5",
      });
    // A spend needs its window: the builder's message, nothing saved.
    const noWindow = await replyOf(
      await post(new URLSearchParams({ name: "Spend", ...row(0, "spendWithinDays", "$gt", "100") })),
    );
    expect(noWindow.status).toBe(400);
    expect(noWindow.body.result.error?.conditions).toEqual(["Enter the number of days (in the last N days)"]);
    // A bad window is named too.
    const badWindow = await replyOf(await post(rows("soon")));
    expect(badWindow.body.result.error?.conditions).toEqual([
      "The number of days must be a whole number from 1 to 36500",
    ]);
    // Previewed without JavaScript: the rows as posted are counted (nobody has two orders).
    const validate = JSON.stringify({ type: "validate", payload: { name: "" } });
    const previewed = await replyOf(await post(new URLSearchParams([...rows("30"), ["__intent__", validate]])));
    expect(previewed.status).toBe(200);
    expect(previewed.body.preview).toMatchObject({ count: 0 });

    const saved = await post(rows("30"));
    expect((saved as Response).status).toBe(302);
    const segment = await db().segment.findFirstOrThrow({ where: { userId: user.id } });
    const stored = JSON.parse(segment.conditions) as unknown;
    expect(stored).toEqual({
      $and: [
        { orderCount: { $gte: 2, withinDays: 30 } },
        { boughtProduct: { $eq: "Saree" } },
        { lastOpenDate: { $gte: { $daysAgo: 90 } } },
        { suppressed: { $eq: false } },
        { visits: { $gte: 0 } },
      ],
    });
    const opened = (await formRoute.loader(
      args(new Request(`http://localhost:3000/segments/edit/${segment.id}`, { headers: { Cookie: cookie } }), {
        id: segment.id,
      }),
    )) as { values: { conditions: { children: { field: string; op: string; value: string }[] } } };
    expect(opened.values.conditions.children.map(({ field, op, value }) => [field, op, value])).toEqual([
      ["orderCount", "$gte:within:30", "2"],
      ["boughtProduct", "$eq", "Saree"],
      ["lastOpenDate", "$gte:daysAgo", "90"],
      ["suppressed", "$eq", "false"],
      ["visits", "$gte", "0"],
    ]);
    // Saved again as opened (the op still carrying its window, as a browser with JavaScript may
    // post before the row is touched): the same conditions.
    const update = (b: URLSearchParams) => postForm(`/segments/edit/${segment.id}`, cookie, b, { id: segment.id });
    const again = new URLSearchParams({ name: "Regular saree buyers", "conditions.logic": "AND" });
    opened.values.conditions.children.forEach((c, i) => {
      for (const [k, v] of Object.entries(row(i, c.field, c.op, c.value))) again.set(k, v);
    });
    expect(((await update(again)) as Response).status).toBe(302);
    const resaved = await db().segment.findFirstOrThrow({ where: { id: segment.id } });
    expect(JSON.parse(resaved.conditions)).toEqual(stored);
  });

  it("warns on the list and the segment's page of a field deleted since, and names fields by their labels", async () => {
    const { createField, deleteField } = await import("~/services/custom-fields.server");
    const { createSegment } = await import("~/services/segments.server");
    const { user, cookie } = await signedIn();
    await createField(user.id, { name: "tier", label: "Loyalty tier", type: "choice", choices: ["Gold", "Silver"] });
    const gold = await createSegment(user.id, {
      name: "Gold",
      description: "",
      tree: segmentTree({ $and: [{ "field:tier": { $eq: "gold" } }, { tags: { $in: ["vip"] } }] }),
    });
    const page = (path: string, params: Record<string, string> = {}) =>
      args(new Request(`http://localhost:3000${path}`, { headers: { Cookie: cookie } }), params);
    type Detail = { segment: { summary: string }; warnings: string[]; count: number };
    let detail = (await detailRoute.loader(page(`/segments/${gold.id}`, { id: gold.id }))) as Detail;
    expect(detail.segment.summary).toBe("Loyalty tier is Gold AND Tags has any of vip");
    expect(detail.warnings).toEqual([]);

    await deleteField(user.id, "tier");
    const list = (await listRoute.loader(page("/segments"))) as { notes: Record<string, string[]> };
    expect(list.notes).toEqual({ [gold.id]: ["Uses a deleted field: tier"] });
    detail = (await detailRoute.loader(page(`/segments/${gold.id}`, { id: gold.id }))) as Detail;
    expect(detail.warnings).toEqual(["Uses a deleted field: tier"]);
    expect(detail.count).toBe(0);
    // The builder still shows the row, its field listed as deleted.
    const edit = (await formRoute.loader(page(`/segments/edit/${gold.id}`, { id: gold.id }))) as {
      fields: { key: string; label: string; status?: string }[];
      preview: unknown;
    };
    expect(edit.fields.find((f) => f.key === "field:tier")).toMatchObject({
      label: "Tier (deleted)",
      status: "deleted",
    });
    expect(edit.preview).toBeNull();
  });
});
