// @engines sqlite postgres
// The segment form's action with a real session and database: it refuses what the API refuses (a
// hand-made post with an unknown field or operator), through the same conditions schema and with
// the same message, and its add/remove buttons work without JavaScript.
import { describe, expect, it } from "vitest";
import { createTestUser, useTestDatabase as setUpTestDatabase } from "../../tests/helpers/db";
import { args, cookieFor, formRequest } from "../../tests/helpers/requests";

setUpTestDatabase();

const { db } = await import("~/db/prisma.server");
const { newId } = await import("~/lib/id");
const { issueToken } = await import("~/services/token.server");
const formRoute = await import("~/routes/segments-form");
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
    expect(apiBody.error.message).toContain(
      'conditions.zzz: unknown field "zzz" (allowed: totalSpend, visits, lastActiveDate, field:<name>, tags)',
    );
    expect(reply.body.result.error?.conditions).toEqual([
      'conditions.zzz: unknown field "zzz" (allowed: totalSpend, visits, lastActiveDate, field:<name>, tags)',
    ]);

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
});
