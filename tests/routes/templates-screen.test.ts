// @engines sqlite postgres
// The Templates screens through their loaders and actions with a real session and database: the
// list (the user's own, searched, and the starters), a new template of each format, "Use this
// template" on a starter, the editor's save (refused with the problem and where when it does not
// parse, refused when it comes from an older copy), the preview with its problems, Copy as HTML,
// Delete; and another user's template neither listed nor reachable.
import { describe, expect, it } from "vitest";
import { useTestDatabase as setUpTestDatabase } from "../helpers/db";
import { args, flashOf, formRequest, makeRequest, ORIGIN } from "../helpers/requests";
import { replyOf, thrown } from "../helpers/route-answers";
import { signedIn } from "../helpers/signed-in";
import { withBuiltInVendor } from "../helpers/built-in-vendor";

setUpTestDatabase();

const listRoute = await import("~/routes/templates");
const draftRoute = await import("~/routes/api/templates-id-draft");
const editorRoute = await import("~/routes/templates-detail");
const thumbnailRoute = await import("~/routes/templates-thumbnail");
const { getTemplate, listTemplates } = await import("~/services/templates.server");

const get = (cookie: string, path: string) => makeRequest(path, { auth: { cookie } });
const post = (cookie: string, path: string, fields: Record<string, string>) => formRequest(path, fields, { cookie });
const locationOf = (res: unknown) => (res as Response).headers.get("Location") ?? "";

/** A new template of the format, made from the list's button; its id. */
async function made(cookie: string, format: string): Promise<string> {
  const res = await listRoute.action(args(post(cookie, "/templates", { intent: "new", format })));
  expect(locationOf(res)).toMatch(/^\/templates\/[0-9a-f]{24}$/);
  return locationOf(res).split("/").pop() ?? "";
}

const editor = (cookie: string, id: string, query = "") =>
  editorRoute.loader(args(get(cookie, `/templates/${id}${query}`), { id }));
/** What the editor's autosave puts (PUT /api/templates/{id}/draft), as the browser sends it. */
const putDraft = (cookie: string, id: string, json: unknown) =>
  draftRoute.action(
    args(
      makeRequest(`/api/templates/${id}/draft`, { method: "PUT", json, auth: { cookie }, headers: { Origin: ORIGIN } }),
      {
        id,
      },
    ),
  );
const save = (cookie: string, id: string, fields: Record<string, string>) =>
  editorRoute.action(args(post(cookie, `/templates/${id}`, { intent: "save", ...fields }), { id }));

describe("the Templates screens", () => {
  it("lists the user's own templates, searched, above the four starters", async () => {
    const { cookie } = await signedIn();
    const page = await listRoute.loader(args(get(cookie, "/templates")));
    expect(page.own).toEqual([]);
    expect(page.starters.map((t) => t.name)).toEqual(["Newsletter", "Offer", "Welcome", "Order follow-up"]);
    const id = await made(cookie, "markdown");
    const found = await listRoute.loader(args(get(cookie, "/templates?q=untitled")));
    expect(found.own.map((t) => t.id)).toEqual([id]);
    expect((await listRoute.loader(args(get(cookie, "/templates?q=nothing-like-it")))).own).toEqual([]);
    expect((await listRoute.loader(args(get(cookie, `/templates?delete=${id}`)))).deleting?.id).toBe(id);
  });

  it("gives each row's small preview: the template's HTML for empty fields, unchanged until it is saved, the user's own only", async () => {
    const { user, cookie } = await signedIn();
    const thumbnail = (id: string, headers: Record<string, string> = {}) =>
      thumbnailRoute.loader(args(makeRequest(`/templates/${id}/thumbnail`, { auth: { cookie }, headers }), { id }));
    const id = await made(cookie, "markdown");
    const first = await thumbnail(id);
    expect(first.status).toBe(200);
    expect(first.headers.get("Content-Type")).toBe("text/html; charset=utf-8");
    expect(await first.text()).toContain("Hello there");
    const etag = first.headers.get("ETag") ?? "";
    expect((await thumbnail(id, { "If-None-Match": etag })).status).toBe(304);
    const template = await getTemplate(user.id, id);
    await save(cookie, id, {
      name: template.name,
      subject: template.subject,
      preheader: "",
      format: "markdown",
      content: "# Fresh news",
      text: "",
      version: String(template.version),
    });
    const changed = await thumbnail(id, { "If-None-Match": etag });
    expect(changed.status).toBe(200);
    expect(await changed.text()).toContain("Fresh news");
    expect((await thumbnail("starter-offer")).status).toBe(200);
    const other = await signedIn();
    const theirs = await thumbnailRoute.loader(
      args(makeRequest(`/templates/${id}/thumbnail`, { auth: { cookie: other.cookie } }), { id }),
    );
    expect(theirs.status).toBe(404);
  });

  it("starts each format from something that parses, and a starter as the user's own copy", async () => {
    const { user, cookie } = await signedIn();
    for (const format of ["blocks", "html", "markdown"]) {
      const id = await made(cookie, format);
      const page = await editor(cookie, id);
      expect(page.template.format).toBe(format);
      expect(page.preview?.html).toContain("Hello there");
      // Only the postal address, which these tests leave unset, is missing.
      expect(page.problems.map((p) => p.where)).toEqual(["Footer"]);
    }
    const use = await listRoute.action(
      args(post(cookie, "/templates", { intent: "duplicate", id: "starter-welcome" })),
    );
    expect((await flashOf(use as Response))?.message).toBe('"Welcome" is yours to edit');
    const copy = await getTemplate(user.id, locationOf(use).split("/").pop() ?? "");
    expect(copy).toMatchObject({ name: "Welcome", format: "blocks", starter: false });
  });

  it("saves what is typed, and refuses what does not parse with where it is, keeping the saved template", async () => {
    const { user, cookie } = await signedIn();
    const id = await made(cookie, "html");
    const saved = await save(cookie, id, {
      name: "Diwali",
      subject: "Hi {{ customer.first_name }}",
      format: "html",
      version: "1",
      content: "<p>Happy Diwali, {{ customer.first_name | default: 'friend' }}</p>",
    });
    expect(locationOf(saved)).toBe(`/templates/${id}`);
    expect((await flashOf(saved as Response))?.message).toBe("Template saved");
    const page = await editor(cookie, id);
    expect(page.template).toMatchObject({ name: "Diwali", version: 2 });
    expect(page.preview?.html).toContain("<p>Happy Diwali, friend</p>");

    const broken = replyOf(
      await save(cookie, id, {
        name: "Diwali",
        subject: "Hi",
        format: "html",
        version: "2",
        content: "<p>{{ customer.first_name </p>",
      }),
    );
    expect(broken.status).toBe(422);
    expect(broken.error.content?.[0]).toMatch(/^HTML: The tag .* is not closed \(line 1, column 4\)$/);
    expect(broken.error[""]?.[0]).toMatch(/^The template was not saved: HTML: The tag/);

    const empty = replyOf(
      await save(cookie, id, { name: "", subject: "Hi", format: "html", version: "2", content: "<p>x</p>" }),
    );
    expect(empty.status).toBe(400);
    expect(empty.error.name).toEqual(["Name is required"]);
    expect((await getTemplate(user.id, id)).content).toBe(
      "<p>Happy Diwali, {{ customer.first_name | default: 'friend' }}</p>",
    );
  });

  it("refuses a save from an older copy (another tab) and says so", async () => {
    const { user, cookie } = await signedIn();
    const id = await made(cookie, "markdown");
    const fields = { subject: "Hi", format: "markdown", version: "1", content: "# One" };
    await save(cookie, id, { ...fields, name: "Tab one" });
    const stale = replyOf(await save(cookie, id, { ...fields, name: "Tab two", content: "# Two" }));
    expect(stale.status).toBe(409);
    expect(stale.error[""]?.[0]).toMatch(/saved elsewhere since you opened it \(version 2\)/);
    expect(await getTemplate(user.id, id)).toMatchObject({ name: "Tab one", content: "# One" });
  });

  it("saves blocks posted as the block editor's JSON, and names a block's problem", async () => {
    const { user, cookie } = await signedIn();
    const id = await made(cookie, "blocks");
    const blocks = [
      { type: "heading", text: "Sale", level: 1, align: "left" },
      { type: "button", label: "Shop", href: "https://shop.example.in", align: "center" },
    ];
    const fields = { name: "Sale", subject: "Sale", format: "blocks", version: "1" };
    expect(locationOf(await save(cookie, id, { ...fields, content: JSON.stringify(blocks) }))).toBe(`/templates/${id}`);
    expect((await getTemplate(user.id, id)).content).toEqual(blocks);

    const noLabel = replyOf(
      await save(cookie, id, {
        ...fields,
        version: "2",
        content: JSON.stringify([{ type: "button", label: "", href: "https://x.in" }]),
      }),
    );
    expect(noLabel.status).toBe(400);
    expect(noLabel.error.content).toEqual(["Block 1: A button needs a label"]);
  });

  it("lists what to fix before the template is sent: a tag that names nothing first", async () => {
    const { cookie } = await signedIn();
    const id = await made(cookie, "markdown");
    await save(cookie, id, {
      name: "x",
      subject: "{{ customer.shoe_size }}",
      format: "markdown",
      version: "1",
      content: "# Hi",
    });
    const page = await editor(cookie, id);
    expect(page.problems[0]).toEqual({
      message: 'There is no merge tag "customer.shoe_size"',
      where: "Subject, line 1, column 4",
    });
  });

  it("copies a blocks design as HTML to edit by hand, and deletes a template", async () => {
    const { user, cookie } = await signedIn();
    const id = await made(cookie, "blocks");
    const copied = await editorRoute.action(args(post(cookie, `/templates/${id}`, { intent: "copy-html" }), { id }));
    const copy = await getTemplate(user.id, locationOf(copied).split("/").pop() ?? "");
    expect(copy).toMatchObject({ name: "Untitled template (HTML)", format: "html" });
    expect(copy.content).toContain('<meta name="viewport"');
    expect(copy.content).toContain("{{ unsubscribe_url }}");

    const deleted = await editorRoute.action(args(post(cookie, `/templates/${id}`, { intent: "delete" }), { id }));
    expect(locationOf(deleted)).toBe("/templates");
    expect((await listTemplates(user.id)).some((t) => t.id === id)).toBe(false);
  });

  it("brings back what was autosaved, whatever it holds, until it is saved or discarded", async () => {
    const { user, cookie } = await signedIn();
    const id = await made(cookie, "markdown");
    const typed = { name: "Half", subject: "Hi {{ customer.", preheader: "", content: "# Hel", text: "", version: 1 };
    const before = (await getTemplate(user.id, id)).updatedAt;
    await new Promise((resolve) => setTimeout(resolve, 5));
    const kept = await putDraft(cookie, id, typed);
    expect((kept as Response).status).toBe(200);
    const page = await editor(cookie, id);
    expect(page.draft).toMatchObject({ name: "Half", subject: "Hi {{ customer.", content: "# Hel", version: 1 });
    // A draft is not an edit: the template's "Last edited" stays.
    const listed = await listTemplates(user.id);
    expect(listed.find((t) => t.id === id)?.updatedAt).toBe(before);
    // The template itself is as it was saved.
    expect(page.template).toMatchObject({ name: "Untitled template", version: 1 });

    // Typed on a version saved over since: refused, so it never comes back over the newer one.
    const stale = await putDraft(cookie, id, { ...typed, version: 7 });
    expect((stale as Response).status).toBe(409);
    expect((await editor(cookie, id)).draft?.subject).toBe("Hi {{ customer.");

    const discarded = await editorRoute.action(
      args(post(cookie, `/templates/${id}`, { intent: "discard-draft" }), { id }),
    );
    expect((await flashOf(discarded as Response))?.message).toBe("Unsaved changes discarded");
    expect((await editor(cookie, id)).draft).toBeNull();

    await putDraft(cookie, id, typed);
    await save(cookie, id, { name: "Whole", subject: "Hi", format: "markdown", version: "1", content: "# Hello" });
    const after = await editor(cookie, id);
    expect(after.draft).toBeNull();
    expect(after.template).toMatchObject({ name: "Whole", version: 2 });
    expect((await getTemplate(user.id, id)).content).toBe("# Hello");
  });

  it("keeps another user's template out of reach", async () => {
    const alice = await signedIn();
    const bob = await signedIn();
    const id = await made(alice.cookie, "html");
    expect((await thrown(editor(bob.cookie, id))).status).toBe(404);
    const taken = await save(bob.cookie, id, {
      name: "Mine",
      subject: "x",
      format: "html",
      version: "1",
      content: "<p>x</p>",
    });
    expect(replyOf(taken).status).toBe(404);
    expect(
      (await thrown(editorRoute.action(args(post(bob.cookie, `/templates/${id}`, { intent: "delete" }), { id }))))
        .status,
    ).toBe(404);
    expect((await listRoute.loader(args(get(bob.cookie, "/templates")))).own).toEqual([]);
    const draft = { name: "x", subject: "x", preheader: "", content: "x", text: "", version: 1 };
    const refused = await putDraft(bob.cookie, id, draft);
    expect((refused as Response).status).toBe(404);
    expect((await editor(alice.cookie, id)).draft).toBeNull();
  });

  it("sends a test from the editor through the built-in vendor, and says why when it cannot", async () => {
    const { user, cookie } = await signedIn();
    const id = await made(cookie, "markdown");
    expect((await editor(cookie, id)).testTo).toBe(user.email);
    const sendTest = async (to: string) =>
      flashOf(
        (await editorRoute.action(args(post(cookie, `/templates/${id}`, { intent: "test", to }), { id }))) as Response,
      );

    // No vendor runs in this process: the page says the test cannot go now.
    expect(await sendTest("me@shop.example")).toMatchObject({
      type: "error",
      message: expect.stringMatching(
        /^The test was not sent: The test cannot be sent now: The built-in vendor is not running/,
      ),
    });
    expect(
      await sendTest("a@x.example, b@x.example, c@x.example, d@x.example, e@x.example, f@x.example"),
    ).toMatchObject({
      type: "error",
      message: "The test was not sent: A test goes to at most 5 addresses",
    });

    await withBuiltInVendor(async (vendor) => {
      expect(await sendTest("me@shop.example; you@shop.example")).toMatchObject({
        type: "success",
        message: "Test sent to me@shop.example, you@shop.example",
      });
      const got = [...vendor.accepted().values()];
      expect(got.map((m) => m.email).sort()).toEqual(["me@shop.example", "you@shop.example"]);
      expect(got[0]).toMatchObject({ subject: expect.stringMatching(/^\[Test\] A message from /) });
    });
  });
});
