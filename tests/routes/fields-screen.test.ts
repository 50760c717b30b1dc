// @engines sqlite postgres
// The Fields screen (/fields) through its loader and action with a real session and database: the
// built-in fields and the user's own in order, adding a field (the name made from the label, the
// choices one a line, the default checked) with each problem under its input in the service's
// words, renaming, moving, retiring and restoring, deleting with a confirmation that counts the
// values, and another user's field neither listed nor reachable.
import { describe, expect, it } from "vitest";
import { createTestUser, useTestDatabase as setUpTestDatabase } from "../helpers/db";
import { customerInput } from "../helpers/customer-input";
import { args, flashOf, formRequest, makeRequest } from "../helpers/requests";
import { replyOf, thrown } from "../helpers/route-answers";
import { signedIn } from "../helpers/signed-in";

setUpTestDatabase();

const fieldsRoute = await import("~/routes/fields");
const { createField, fieldDefinitions, readCustomerFieldValues } = await import("~/services/custom-fields.server");
const { createCustomer } = await import("~/services/customers.server");

const load = (cookie: string, path = "/fields") => fieldsRoute.loader(args(makeRequest(path, { auth: { cookie } })));
const post = (cookie: string, fields: Record<string, string>, path = "/fields") =>
  fieldsRoute.action(args(formRequest(path, fields, { cookie })));

const customer = (userId: string, email: string, fields: Record<string, string | null> = {}) =>
  createCustomer(userId, customerInput({ email, fields }));

describe("the Fields screen", () => {
  it("lists the built-in fields first, marked, then the user's own in their order", async () => {
    const { user, cookie } = await signedIn();
    await createField(user.id, { name: "tier", label: "Tier", type: "choice", choices: ["Gold", "Silver"] });
    await createField(user.id, { name: "store", label: "Store", type: "text" });
    const { fields, deleting, retiring, renaming } = await load(cookie);
    expect(fields.map((f) => [f.name, f.builtIn])).toEqual([
      ["city", true],
      ["state", true],
      ["country", true],
      ["birthday", true],
      ["time_zone", true],
      ["tier", false],
      ["store", false],
    ]);
    expect(fields[5]).toMatchObject({ label: "Tier", type: "choice", choices: ["Gold", "Silver"], retired: false });
    expect([deleting, retiring, renaming]).toEqual([null, null, null]);
  });

  it("adds a field named from its label, with its choices one a line and a default, and says so", async () => {
    const { user, cookie } = await signedIn();
    const res = await post(cookie, {
      intent: "add",
      label: "Loyalty tier",
      name: "",
      type: "choice",
      choices: "Gold\r\n\r\n Silver \nBronze",
      defaultValue: "silver",
    });
    expect(res).toBeInstanceOf(Response);
    expect((res as Response).headers.get("Location")).toBe("/fields");
    expect(await flashOf(res as Response)).toEqual({
      kind: "toast",
      type: "success",
      message: 'Field "Loyalty tier" added',
    });
    const field = (await fieldDefinitions(user.id)).find((f) => f.name === "loyalty_tier");
    expect(field).toMatchObject({
      label: "Loyalty tier",
      type: "choice",
      choices: ["Gold", "Silver", "Bronze"],
      defaultValue: "Silver",
    });

    // A name typed is kept; choices typed for another type are not its choices.
    await post(cookie, { intent: "add", label: "Joined", name: "joined_on", type: "date", choices: "x" });
    expect((await fieldDefinitions(user.id)).find((f) => f.name === "joined_on")).toMatchObject({
      label: "Joined",
      type: "date",
      choices: [],
    });
  });

  it("puts each problem under its input, in the service's words, and adds nothing", async () => {
    const { user, cookie } = await signedIn();
    const cases: [Record<string, string>, Record<string, string[]>][] = [
      [{ label: "", type: "text" }, { label: ["Label is required"] }],
      [{ label: "Tier", type: "choice", choices: "" }, { choices: ["A choice field needs at least one choice"] }],
      [
        { label: "Tier", type: "choice", choices: "Gold\nSilver", defaultValue: "Platinum" },
        { defaultValue: ["Default must be one of: Gold, Silver"] },
      ],
      [{ label: "Tier", type: "choice", choices: "Gold\ngold" }, { choices: ["Each choice may appear only once"] }],
      [{ label: "Score", type: "number", defaultValue: "many" }, { defaultValue: ["Default must be a number"] }],
      [{ label: "Email", type: "text" }, { name: ['"email" is a built-in name; choose another'] }],
      [
        { label: "Tier", name: "Tier Name", type: "text" },
        {
          name: [
            "The name must start with a lowercase letter and use only lowercase letters, digits and _ (at most 40 characters)",
          ],
        },
      ],
      [{ label: "123", type: "text" }, { name: ["Name is required: the label gives none, so type one"] }],
    ];
    for (const [fields, errors] of cases) {
      const { status, error } = replyOf(await post(cookie, { intent: "add", ...fields }));
      expect(status, JSON.stringify(fields)).toBe(400);
      expect(error, JSON.stringify(fields)).toMatchObject(errors);
    }
    expect((await fieldDefinitions(user.id)).filter((f) => !f.builtIn)).toEqual([]);
  });

  it("refuses a name the user has already, under the name (409)", async () => {
    const { cookie } = await signedIn();
    await post(cookie, { intent: "add", label: "Tier", type: "text" });
    const { status, error } = replyOf(await post(cookie, { intent: "add", label: "Tier", type: "number" }));
    expect(status).toBe(409);
    expect(error.name?.[0]).toMatch(/tier/);
  });

  it("renames a field in its row: the row's form opens from the address, an empty label is refused", async () => {
    const { user, cookie } = await signedIn();
    await createField(user.id, { name: "tier", label: "Tier", type: "text" });
    expect((await load(cookie, "/fields?rename=tier")).renaming).toBe("tier");
    expect((await load(cookie, "/fields?rename=city")).renaming).toBeNull();

    const bad = replyOf(await post(cookie, { intent: "rename", name: "tier", label: " " }, "/fields?rename=tier"));
    expect(bad.status).toBe(400);
    expect(bad.error.label).toEqual(["Label is required"]);

    const res = await post(cookie, { intent: "rename", name: "tier", label: "Loyalty tier" }, "/fields?rename=tier");
    expect((res as Response).headers.get("Location")).toBe("/fields");
    expect((await flashOf(res as Response))?.message).toBe('Field renamed to "Loyalty tier"');
    expect((await fieldDefinitions(user.id)).find((f) => f.name === "tier")?.label).toBe("Loyalty tier");
  });

  it("moves a field up and down among the user's own", async () => {
    const { user, cookie } = await signedIn();
    for (const name of ["one", "two", "three"]) await createField(user.id, { name, label: name, type: "text" });
    const order = async () => (await fieldDefinitions(user.id)).filter((f) => !f.builtIn).map((f) => f.name);
    await post(cookie, { intent: "move", name: "three", direction: "up" });
    expect(await order()).toEqual(["one", "three", "two"]);
    await post(cookie, { intent: "move", name: "one", direction: "down" });
    expect(await order()).toEqual(["three", "one", "two"]);
    // The first up and the last down stay where they are.
    await post(cookie, { intent: "move", name: "three", direction: "up" });
    await post(cookie, { intent: "move", name: "two", direction: "down" });
    expect(await order()).toEqual(["three", "one", "two"]);
  });

  it("retires a field after a confirmation that says its values are kept, and restores it", async () => {
    const { user, cookie } = await signedIn();
    await createField(user.id, { name: "tier", label: "Tier", type: "text" });
    const a = await customer(user.id, `a-${Date.now()}@example.com`, { tier: "Gold" });
    expect((await load(cookie, "/fields?retire=tier")).retiring).toEqual({ name: "tier", label: "Tier", values: 1 });

    const res = await post(cookie, { intent: "retire", name: "tier" });
    expect((await flashOf(res as Response))?.message).toBe('Field "Tier" retired; its values are kept');
    expect((await fieldDefinitions(user.id)).find((f) => f.name === "tier")?.retired).toBe(true);
    expect(await readCustomerFieldValues(user.id, a.id)).toEqual({ tier: "Gold" });
    // A retired field is not offered for retiring again.
    expect((await load(cookie, "/fields?retire=tier")).retiring).toBeNull();

    const back = await post(cookie, { intent: "restore", name: "tier" });
    expect((await flashOf(back as Response))?.message).toBe('Field "Tier" restored');
    expect((await fieldDefinitions(user.id)).find((f) => f.name === "tier")?.retired).toBe(false);
  });

  it("deletes a field after a confirmation that counts the customers with a value; their values go too", async () => {
    const { user, cookie } = await signedIn();
    await createField(user.id, { name: "tier", label: "Tier", type: "text" });
    const a = await customer(user.id, `a-${Date.now()}@example.com`, { tier: "Gold" });
    await customer(user.id, `b-${Date.now()}@example.com`, { tier: "Silver" });
    await customer(user.id, `c-${Date.now()}@example.com`);
    expect((await load(cookie, "/fields?delete=tier")).deleting).toEqual({ name: "tier", label: "Tier", values: 2 });

    const res = await post(cookie, { intent: "delete", name: "tier" });
    expect((res as Response).headers.get("Location")).toBe("/fields");
    expect((await flashOf(res as Response))?.message).toBe('Field "Tier" deleted with 2 values');
    expect((await fieldDefinitions(user.id)).some((f) => f.name === "tier")).toBe(false);
    expect(await readCustomerFieldValues(user.id, a.id)).toEqual({});
  });

  it("changes no built-in field", async () => {
    const { cookie } = await signedIn();
    expect((await load(cookie, "/fields?delete=city")).deleting).toBeNull();
    const refused = await thrown(post(cookie, { intent: "delete", name: "city" }));
    expect(refused.status).toBe(400);
    expect(refused.message).toBe('Delete failed: "city" is a built-in field and cannot be changed or deleted');
    expect((await thrown(post(cookie, { intent: "retire", name: "birthday" }))).status).toBe(400);
  });

  it("neither lists nor reaches another user's field (404)", async () => {
    const { cookie } = await signedIn();
    const other = await createTestUser("Someone Else");
    await createField(other.id, { name: "secret", label: "Secret", type: "text" });
    const page = await load(cookie, "/fields?delete=secret");
    expect(page.fields.some((f) => f.name === "secret")).toBe(false);
    expect(page.deleting).toBeNull();
    expect((await load(cookie, "/fields?retire=secret")).retiring).toBeNull();
    expect((await load(cookie, "/fields?rename=secret")).renaming).toBeNull();

    const refusals: Record<string, string>[] = [
      { intent: "delete", name: "secret" },
      { intent: "retire", name: "secret" },
      { intent: "restore", name: "secret" },
      { intent: "move", name: "secret", direction: "up" },
      { intent: "rename", name: "secret", label: "Mine now" },
    ];
    for (const fields of refusals) {
      expect((await thrown(post(cookie, fields))).status, fields.intent).toBe(404);
    }
    expect((await fieldDefinitions(other.id)).find((f) => f.name === "secret")).toMatchObject({
      label: "Secret",
      retired: false,
    });
  });

  it("sends a visitor without a session to /login", async () => {
    const res = await thrown(Promise.resolve().then(() => fieldsRoute.loader(args(makeRequest("/fields")))));
    expect(res.status).toBe(302);
  });
});
