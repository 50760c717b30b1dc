// @engines sqlite postgres
// Tags on the screens, through the routes' loaders and actions with a real session and database:
// the Tags screen (counts, rename, rename onto another tag's name merging the two, delete with a
// confirmation that counts the customers), a customer page's chips and Add form, a segment's "Tag
// everyone in this segment", and the customer list's "Tag selected"; each problem in the rule's
// words, and another user's tags, customers and segments neither listed nor reachable.
import { describe, expect, it } from "vitest";
import { createTestUser, segmentTree, useTestDatabase as setUpTestDatabase } from "../helpers/db";
import { customerInput } from "../helpers/customer-input";
import { args, flashOf, formRequest, makeRequest } from "../helpers/requests";
import { replyOf, thrown } from "../helpers/route-answers";
import { signedIn } from "../helpers/signed-in";

setUpTestDatabase();

const tagsRoute = await import("~/routes/tags");
const detailRoute = await import("~/routes/customers-detail");
const segmentRoute = await import("~/routes/segments-detail");
const listRoute = await import("~/routes/customers");
const { createCustomer } = await import("~/services/customers.server");
const { customerTags, listTags } = await import("~/services/tags.server");
const { createSegment } = await import("~/services/segments.server");

const customer = (userId: string, firstName = "Asha", extra: { visits?: number; tags?: string[] } = {}) =>
  createCustomer(userId, customerInput({ firstName, ...extra }));

const get = (cookie: string, path: string) => makeRequest(path, { auth: { cookie } });
const post = (cookie: string, path: string, fields: Record<string, string>) => formRequest(path, fields, { cookie });

const counts = async (userId: string) => Object.fromEntries((await listTags(userId)).map((t) => [t.name, t.customers]));

describe("the Tags screen", () => {
  it("lists the tags with their counts; ?delete= opens the confirmation with the count", async () => {
    const { user, cookie } = await signedIn();
    await customer(user.id, "Asha", { tags: ["VIP", "Wholesale"] });
    await customer(user.id, "Ravi", { tags: ["vip"] });
    const page = await tagsRoute.loader(args(get(cookie, "/tags?delete=vip")));
    expect(page.tags).toEqual([
      { name: "VIP", customers: 2 },
      { name: "Wholesale", customers: 1 },
    ]);
    expect(page.deleting).toEqual({ name: "VIP", customers: 2 });
    expect((await tagsRoute.loader(args(get(cookie, "/tags?rename=wholesale")))).renaming).toBe("Wholesale");
  });

  it("renames a tag, and onto another tag's name merges the two and says so", async () => {
    const { user, cookie } = await signedIn();
    await customer(user.id, "Asha", { tags: ["VIP", "vip-old"] });
    await customer(user.id, "Ravi", { tags: ["vip-old"] });
    await customer(user.id, "Meera", { tags: ["Trade fair"] });

    const renamed = await tagsRoute.action(
      args(post(cookie, "/tags?rename=Trade%20fair", { intent: "rename", tag: "Trade fair", name: "Trade fair 2026" })),
    );
    expect((renamed as Response).headers.get("Location")).toBe("/tags");
    expect((await flashOf(renamed as Response))?.message).toBe('Tag renamed to "Trade fair 2026"');

    const merged = await tagsRoute.action(
      args(post(cookie, "/tags?rename=vip-old", { intent: "rename", tag: "vip-old", name: "vip" })),
    );
    expect((await flashOf(merged as Response))?.message).toBe('"vip-old" merged into "VIP": 2 customers carry it now');
    expect(await counts(user.id)).toEqual({ VIP: 2, "Trade fair 2026": 1 });
  });

  it("puts a bad new name under the input and changes nothing", async () => {
    const { user, cookie } = await signedIn();
    await customer(user.id, "Asha", { tags: ["VIP"] });
    for (const [name, message] of [
      ["", "A tag must not be empty"],
      ["  ", "A tag must not be empty"],
      ["a;b", 'A tag must not contain ";"'],
      ["x".repeat(51), "A tag must be at most 50 characters"],
    ]) {
      const { status, error } = replyOf(
        await tagsRoute.action(args(post(cookie, "/tags?rename=VIP", { intent: "rename", tag: "VIP", name }))),
      );
      expect(status, name).toBe(400);
      expect(error.name, name).toEqual([message]);
    }
    expect(await counts(user.id)).toEqual({ VIP: 1 });
  });

  it("deletes a tag from everyone who carries it", async () => {
    const { user, cookie } = await signedIn();
    const a = await customer(user.id, "Asha", { tags: ["VIP", "Wholesale"] });
    await customer(user.id, "Ravi", { tags: ["VIP"] });
    const res = await tagsRoute.action(args(post(cookie, "/tags", { intent: "delete", tag: "vip" })));
    expect((res as Response).headers.get("Location")).toBe("/tags");
    expect((await flashOf(res as Response))?.message).toBe('Tag "vip" deleted from 2 customers');
    expect(await counts(user.id)).toEqual({ Wholesale: 1 });
    expect(await customerTags(user.id, a.id)).toEqual(["Wholesale"]);
  });

  it("neither lists nor reaches another user's tag (404)", async () => {
    const { user, cookie } = await signedIn();
    const other = await createTestUser("Someone Else");
    await customer(other.id, "Zoya", { tags: ["Secret"] });
    await customer(user.id, "Asha", { tags: ["Mine"] });
    const page = await tagsRoute.loader(args(get(cookie, "/tags?delete=Secret&rename=Secret")));
    expect(page.tags.map((t) => t.name)).toEqual(["Mine"]);
    expect(page.deleting).toBeNull();
    expect(page.renaming).toBeNull();
    expect(
      (await thrown(tagsRoute.action(args(post(cookie, "/tags", { intent: "delete", tag: "Secret" }))))).status,
    ).toBe(404);
    const rename = await thrown(
      tagsRoute.action(args(post(cookie, "/tags", { intent: "rename", tag: "Secret", name: "Mine" }))),
    );
    expect(rename).toEqual({ status: 404, message: "Rename failed: Tag not found" });
    expect(await counts(other.id)).toEqual({ Secret: 1 });
    expect(await counts(user.id)).toEqual({ Mine: 1 });
  });
});

describe("a customer's tags on their page", () => {
  it("shows the tags and the user's others, adds tags typed with commas and removes one", async () => {
    const { user, cookie } = await signedIn();
    const a = await customer(user.id, "Asha", { tags: ["VIP"] });
    await customer(user.id, "Ravi", { tags: ["Wholesale"] });
    const here = `/customers/${a.id}`;
    const page = await detailRoute.loader(args(get(cookie, here), { id: a.id }));
    expect(page.customer.tags).toEqual(["VIP"]);
    expect(page.otherTags).toEqual(["Wholesale"]);

    const added = await detailRoute.action(
      args(post(cookie, here, { intent: "tag", tags: "wholesale, Trade fair 2026 ," }), { id: a.id }),
    );
    expect((added as Response).headers.get("Location")).toBe(here);
    expect((await flashOf(added as Response))?.message).toBe("Tags added: wholesale, Trade fair 2026");
    expect(await customerTags(user.id, a.id)).toEqual(["Trade fair 2026", "VIP", "Wholesale"]);

    const removed = await detailRoute.action(args(post(cookie, here, { intent: "untag", tag: "VIP" }), { id: a.id }));
    expect((await flashOf(removed as Response))?.message).toBe('Tag "VIP" removed');
    expect(await customerTags(user.id, a.id)).toEqual(["Trade fair 2026", "Wholesale"]);
  });

  it("puts a bad tag under the Add input; another user's customer is a 404", async () => {
    const { user, cookie } = await signedIn();
    const a = await customer(user.id);
    const here = `/customers/${a.id}`;
    const empty = replyOf(
      await detailRoute.action(args(post(cookie, here, { intent: "tag", tags: " , " }), { id: a.id })),
    );
    expect(empty).toEqual({ status: 400, error: { tags: ["A tag must not be empty"] } });
    const long = replyOf(
      await detailRoute.action(
        args(post(cookie, here, { intent: "tag", tags: `ok, ${"y".repeat(60)}` }), { id: a.id }),
      ),
    );
    expect(long.status).toBe(400);
    expect(long.error.tags?.[0]).toMatch(/^A tag must be at most 50 characters: "y+/);
    expect(await customerTags(user.id, a.id)).toEqual([]);

    const other = await createTestUser("Someone Else");
    const theirs = await customer(other.id, "Zoya", { tags: ["Secret"] });
    const there = `/customers/${theirs.id}`;
    expect(
      (await thrown(detailRoute.action(args(post(cookie, there, { intent: "tag", tags: "Mine" }), { id: theirs.id }))))
        .status,
    ).toBe(404);
    expect(
      (
        await thrown(
          detailRoute.action(args(post(cookie, there, { intent: "untag", tag: "Secret" }), { id: theirs.id })),
        )
      ).status,
    ).toBe(404);
    expect(await customerTags(other.id, theirs.id)).toEqual(["Secret"]);
    expect(await counts(user.id)).toEqual({});
    // A tag the customer does not carry is a 404 too.
    expect(
      (await thrown(detailRoute.action(args(post(cookie, here, { intent: "untag", tag: "Nope" }), { id: a.id }))))
        .status,
    ).toBe(404);
  });
});

describe("Tag everyone in this segment", () => {
  it("tags everyone the segment matches and says how many got the tag", async () => {
    const { user, cookie } = await signedIn();
    await customer(user.id, "Asha", { visits: 9, tags: ["Loyal"] });
    await customer(user.id, "Ravi", { visits: 7 });
    const c = await customer(user.id, "Meera", { visits: 1 });
    const segment = await createSegment(user.id, {
      name: "Regulars",
      description: "",
      tree: segmentTree({ visits: { $gt: 5 } }),
    });
    const here = `/segments/${segment.id}`;
    const res = await segmentRoute.action(
      args(post(cookie, here, { intent: "tag", tag: "loyal" }), { id: segment.id }),
    );
    expect((res as Response).headers.get("Location")).toBe(here);
    expect((await flashOf(res as Response))?.message).toBe('1 customer got the tag "Loyal"');
    expect(await counts(user.id)).toEqual({ Loyal: 2 });
    expect(await customerTags(user.id, c.id)).toEqual([]);

    const again = await segmentRoute.action(
      args(post(cookie, here, { intent: "tag", tag: "Loyal" }), { id: segment.id }),
    );
    expect((await flashOf(again as Response))?.message).toBe(
      'No customer got the tag "Loyal": everyone in this segment has it already',
    );
    const fresh = await segmentRoute.action(
      args(post(cookie, here, { intent: "tag", tag: "Diwali 2026" }), { id: segment.id }),
    );
    expect((await flashOf(fresh as Response))?.message).toBe('2 customers got the tag "Diwali 2026"');
  });

  it("puts a bad tag under the input; another user's segment is a 404 that makes no tag", async () => {
    const { user, cookie } = await signedIn();
    const segment = await createSegment(user.id, {
      name: "All",
      description: "",
      tree: segmentTree({ visits: { $gte: 0 } }),
    });
    const bad = replyOf(
      await segmentRoute.action(
        args(post(cookie, `/segments/${segment.id}`, { intent: "tag", tag: "a;b" }), { id: segment.id }),
      ),
    );
    expect(bad).toEqual({ status: 400, error: { tag: ['A tag must not contain ";"'] } });

    const other = await createTestUser("Someone Else");
    const theirs = await createSegment(other.id, {
      name: "Theirs",
      description: "",
      tree: segmentTree({ visits: { $gte: 0 } }),
    });
    const refused = await thrown(
      segmentRoute.action(
        args(post(cookie, `/segments/${theirs.id}`, { intent: "tag", tag: "Mine" }), { id: theirs.id }),
      ),
    );
    expect(refused.status).toBe(404);
    expect(await counts(user.id)).toEqual({});
  });
});

describe("Tag selected on the customer list", () => {
  it("tags the customers ticked and goes back to the list where it was", async () => {
    const { user, cookie } = await signedIn();
    const a = await customer(user.id, "Asha", { tags: ["VIP"] });
    const b = await customer(user.id, "Ravi");
    const c = await customer(user.id, "Meera");
    const body = new URLSearchParams([
      ["intent", "tag"],
      ["tag", "vip"],
      ["back", "/customers?sort=name"],
      ["customerIds", a.id],
      ["customerIds", b.id],
    ]);
    const res = await listRoute.action(
      args(
        makeRequest("/customers", {
          method: "POST",
          auth: { cookie },
          body,
          headers: { "Content-Type": "application/x-www-form-urlencoded" },
        }),
      ),
    );
    expect((res as Response).headers.get("Location")).toBe("/customers?sort=name");
    expect((await flashOf(res as Response))?.message).toBe(
      '1 of 2 selected customers got the tag "VIP"; the others have it already',
    );
    expect(await customerTags(user.id, b.id)).toEqual(["VIP"]);
    expect(await customerTags(user.id, c.id)).toEqual([]);

    const one = await listRoute.action(
      args(post(cookie, "/customers", { intent: "tag", tag: "New", customerIds: c.id })),
    );
    expect((one as Response).headers.get("Location")).toBe("/customers");
    expect((await flashOf(one as Response))?.message).toBe('1 customer got the tag "New"');
  });

  it("asks for a selection and a tag; another user's customers are left alone", async () => {
    const { user, cookie } = await signedIn();
    const a = await customer(user.id);
    const none = replyOf(await listRoute.action(args(post(cookie, "/customers", { intent: "tag", tag: "VIP" }))));
    expect(none).toEqual({ status: 400, error: { customerIds: ["Select the customers to tag first"] } });
    const noTag = replyOf(
      await listRoute.action(args(post(cookie, "/customers", { intent: "tag", customerIds: a.id }))),
    );
    expect(noTag).toEqual({ status: 400, error: { tag: ["A tag must not be empty"] } });

    const other = await createTestUser("Someone Else");
    const theirs = await customer(other.id, "Zoya");
    await listRoute.action(args(post(cookie, "/customers", { intent: "tag", tag: "Mine", customerIds: theirs.id })));
    expect(await customerTags(other.id, theirs.id)).toEqual([]);
    expect(await counts(other.id)).toEqual({});
  });
});
