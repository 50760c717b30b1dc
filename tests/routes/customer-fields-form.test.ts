// @engines sqlite postgres
// The customer form's Fields section and Tags input, and the customer page's Fields card, through
// the routes' loaders and actions with a real session and database: the inputs the form offers
// (built-in and the user's own, retired ones left off), a new customer's defaults, saving values and
// tags, an input left empty clearing its value, each bad value named under its input, and the page
// showing only fields with a value.
import { describe, expect, it } from "vitest";
import { createTestUser, useTestDatabase as setUpTestDatabase } from "../helpers/db";
import { args, cookieFor, flashOf, formRequest, makeRequest } from "../helpers/requests";
import { replyOf } from "../helpers/route-answers";

setUpTestDatabase();

const formRoute = await import("~/routes/customers-form");
const detailRoute = await import("~/routes/customers-detail");
const { createField, updateField } = await import("~/services/custom-fields.server");
const { createCustomer, getCustomer, listCustomers } = await import("~/services/customers.server");

async function signedIn() {
  const user = await createTestUser("Form Filler");
  await createField(user.id, {
    name: "tier",
    label: "Tier",
    type: "choice",
    choices: ["Gold", "Silver"],
    defaultValue: "Silver",
  });
  await createField(user.id, { name: "points", label: "Points", type: "number" });
  await createField(user.id, { name: "newsletter", label: "Newsletter", type: "boolean" });
  await createField(user.id, { name: "old_code", label: "Old code", type: "text" });
  await updateField(user.id, "old_code", { retired: true });
  return { user, cookie: await cookieFor(user.id) };
}

let counter = 0;
const email = () => `form-${(counter += 1)}-${Date.now()}@example.com`;
const record = (address: string) => ({
  firstName: "Asha",
  lastName: "Iyer",
  email: address,
  phone: "",
  address: "",
  company: "",
  notes: "",
});

/** Every input of the Fields section, empty, as a browser sends a form whose inputs were left alone. */
const emptyInputs = {
  "fields.city": "",
  "fields.state": "",
  "fields.country": "",
  "fields.birthday": "",
  "fields.time_zone": "",
  "fields.tier": "",
  "fields.points": "",
  "fields.newsletter": "",
  tags: "",
};

describe("the customer form's fields and tags", () => {
  it("offers the built-in fields and the user's own that are not retired; a new customer's start with the defaults", async () => {
    const { cookie } = await signedIn();
    const page = await formRoute.loader(args(makeRequest("/customers/new", { auth: { cookie } })));
    expect(page.fields.map((f) => f.name)).toEqual([
      "city",
      "state",
      "country",
      "birthday",
      "time_zone",
      "tier",
      "points",
      "newsletter",
    ]);
    expect(page.values).toEqual({ fields: { tier: "Silver" } });
    expect(page.timeZones).toContain("Asia/Kolkata");
  });

  it("saves the values and tags typed, shows them on the edit form and the page, and an emptied input clears its value", async () => {
    const { user, cookie } = await signedIn();
    const address = email();
    const created = await formRoute.action(
      args(
        formRequest(
          "/customers/new",
          {
            ...record(address),
            ...emptyInputs,
            "fields.city": " Pune ",
            "fields.birthday": "1990-05-31",
            "fields.time_zone": "Asia/Kolkata",
            "fields.tier": "Gold",
            "fields.points": "1250.5",
            "fields.newsletter": "true",
            tags: "VIP, trade fair 2026, vip",
          },
          { cookie },
        ),
      ),
    );
    expect((created as Response).headers.get("Location")).toBe("/customers");
    expect((await flashOf(created as Response))?.message).toBe("Customer created successfully");
    const id = (await listCustomers(user.id)).customers.find((c) => c.email === address)?.id ?? "";
    expect(await getCustomer(user.id, id)).toMatchObject({
      fields: {
        city: "Pune",
        birthday: "1990-05-31",
        time_zone: "Asia/Kolkata",
        tier: "Gold",
        points: 1250.5,
        newsletter: true,
      },
      tags: ["trade fair 2026", "VIP"],
    });

    const edit = await formRoute.loader(args(makeRequest(`/customers/edit/${id}`, { auth: { cookie } }), { id }));
    expect(edit.values).toMatchObject({
      firstName: "Asha",
      fields: {
        city: "Pune",
        birthday: "1990-05-31",
        time_zone: "Asia/Kolkata",
        tier: "Gold",
        points: "1250.5",
        newsletter: "true",
      },
      tags: "trade fair 2026, VIP",
    });

    const detail = await detailRoute.loader(args(makeRequest(`/customers/${id}`, { auth: { cookie } }), { id }));
    expect(detail.fieldValues.map((f) => [f.label, f.value])).toEqual([
      ["City", "Pune"],
      ["Birthday", "31 May 1990"],
      ["Time zone", "Asia/Kolkata"],
      ["Tier", "Gold"],
      ["Points", "1,250.5"],
      ["Newsletter", "Yes"],
    ]);

    // Saved with the inputs emptied: the values and tags are gone; a retired field's value stays.
    await createCustomer(user.id, { ...record(email()), fields: {} });
    await updateField(user.id, "old_code", { retired: false });
    await formRoute.action(
      args(
        formRequest(
          `/customers/edit/${id}`,
          { ...record(address), ...emptyInputs, "fields.old_code": "A1" },
          { cookie },
        ),
        { id },
      ),
    );
    await updateField(user.id, "old_code", { retired: true });
    const updated = await formRoute.action(
      args(formRequest(`/customers/edit/${id}`, { ...record(address), ...emptyInputs }, { cookie }), { id }),
    );
    expect((await flashOf(updated as Response))?.message).toBe("Customer updated successfully");
    expect(await getCustomer(user.id, id)).toMatchObject({ fields: { old_code: "A1" }, tags: [] });
    const after = await detailRoute.loader(args(makeRequest(`/customers/${id}`, { auth: { cookie } }), { id }));
    expect(after.fieldValues).toEqual([{ name: "old_code", label: "Old code", value: "A1", retired: true }]);
  });

  it("names each bad value under its input and saves nothing", async () => {
    const { user, cookie } = await signedIn();
    const address = email();
    const res = await formRoute.action(
      args(
        formRequest(
          "/customers/new",
          {
            ...record(address),
            ...emptyInputs,
            "fields.birthday": "1990-02-30",
            "fields.time_zone": "Mars/Olympus",
            "fields.tier": "Platinum",
            "fields.points": "lots",
            "fields.newsletter": "maybe",
            tags: `ok, ${"t".repeat(51)}`,
          },
          { cookie },
        ),
      ),
    );
    const { status, error } = replyOf(res);
    expect(status).toBe(400);
    expect(error).toMatchObject({
      "fields.birthday": ["Birthday must be a date like 2024-05-31"],
      "fields.time_zone": ["Time zone must be a time zone name like Asia/Kolkata"],
      "fields.tier": ["Tier must be one of: Gold, Silver"],
      "fields.points": ["Points must be a number"],
      "fields.newsletter": ["Newsletter must be yes or no (true or false)"],
    });
    expect(error.tags?.[0]).toMatch(/^A tag must be at most 50 characters/);
    expect((await listCustomers(user.id)).customers.some((c) => c.email === address)).toBe(false);
  });

  it("a page with no field values says so", async () => {
    const { user, cookie } = await signedIn();
    const c = await createCustomer(user.id, { ...record(email()), fields: { tier: null } });
    const page = await detailRoute.loader(args(makeRequest(`/customers/${c.id}`, { auth: { cookie } }), { id: c.id }));
    expect(page.fieldValues).toEqual([]);
  });
});
