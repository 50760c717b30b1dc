// @engines sqlite postgres
// The customers CSV with fields, tags and consent, both ways: the export's field, tags and consent
// columns, an export imported into another workspace with the same fields (everything equal, the
// consents too) and back into its own (nothing changes), a bad field value as a bad row naming the
// field, unknown columns listed and made fields with createFields, and the tags column replacing
// and clearing a customer's tags; a file without such columns leaves them be. The consent columns
// are ./customer-csv-consent.server.test.ts's.
import { beforeAll, describe, expect, it } from "vitest";
import { csv, customerOf, readAll } from "../../tests/helpers/customer-csv";
import { createTestUser, useTestDatabase } from "../../tests/helpers/db";

// eslint-disable-next-line react-hooks/rules-of-hooks -- a test helper named use*, not a React hook
useTestDatabase();

import type { User } from "~/generated/prisma/client";
import { suppressions } from "~/models/suppressions/store.server";
import { action as importAction } from "~/routes/api/customers-import";
import { CustomerApiSchema } from "~/schemas/customer";
import { exportCustomersCsv } from "~/services/customer-export.server";
import { importCustomers } from "~/services/customer-import.server";
import { createCustomer, getCustomer } from "~/services/customers.server";
import { createField, fieldDefinitions, updateField } from "~/services/custom-fields.server";
import { suppressionOf } from "~/services/suppressions.server";
import { issueToken } from "~/services/token.server";

/** The same fields in a workspace: a choice, a number, a date, a yes/no; and one retired (once `retire` holds). */
async function defineFields(userId: string, retire = true) {
  await createField(userId, { name: "tier", label: "Loyalty tier", type: "choice", choices: ["Gold", "Silver"] });
  await createField(userId, { name: "score", label: "Score", type: "number" });
  await createField(userId, { name: "joined", label: "Joined on", type: "date" });
  await createField(userId, { name: "newsletter", label: "Newsletter", type: "boolean" });
  await createField(userId, { name: "old_code", label: "Old code", type: "text" });
  if (retire) await updateField(userId, "old_code", { retired: true });
}

const EMAILS = ["asha@example.com", "ravi@example.com", "meera@example.com", "zoya@example.com"];

describe("export and import with fields, tags and consent", () => {
  let from: User;
  beforeAll(async () => {
    from = await createTestUser("FieldsFrom");
    await defineFields(from.id, false);
    const add = (input: Record<string, unknown>) => createCustomer(from.id, CustomerApiSchema.parse(input));
    await add({
      firstName: "Asha",
      lastName: "Bose",
      email: "asha@example.com",
      fields: {
        city: "Pune",
        country: "India",
        birthday: "1990-02-28",
        time_zone: "Asia/Kolkata",
        tier: "Gold",
        score: -12.5,
        joined: "2024-05-31",
        newsletter: true,
        old_code: "A1",
      },
      tags: ["VIP", "trade fair 2026", "=formula"],
      consent: {
        status: "subscribed",
        at: "2026-01-15T10:30:00Z",
        source: "Checkout form",
        text: "=Yes, send me offers",
      },
    });
    await add({
      firstName: "Ravi",
      lastName: "Kumar",
      email: "ravi@example.com",
      fields: { state: "Kerala", newsletter: false, score: 3 },
      tags: ["vip"],
      consent: { status: "unsubscribed", at: "2026-02-01", source: "Phone call", text: "No more e-mail" },
    });
    await add({ firstName: "Meera", lastName: "Nair", email: "meera@example.com" });
    // Unsubscribed by the link in a campaign: no record, the suppression list speaks.
    await add({ firstName: "Zoya", lastName: "Khan", email: "zoya@example.com" });
    await suppressions.addSuppressions(from.id, [{ email: "zoya@example.com", reason: "unsubscribed" }], {
      now: Date.parse("2026-03-10T04:00:00Z"),
    });
    await updateField(from.id, "old_code", { retired: true });
  });

  it("writes a column per field (built-in first, retired left out), a tags column and the consent's, one slice at a time", async () => {
    const text = await readAll(exportCustomersCsv(from.id, null, { pageSize: 2 }));
    const [header, ...lines] = text.trim().split("\n");
    expect(header).toBe(
      "id,firstName,lastName,email,phone,address,company,notes,totalSpend,visits,lastActive,createdAt," +
        "city,state,country,birthday,time_zone,tier,score,joined,newsletter,tags," +
        "consent,consentDate,consentSource,consentText",
    );
    expect(lines).toHaveLength(4);
    const line = (email: string) => lines.find((l) => l.includes(email));
    expect(line("asha@example.com")).toMatch(
      /,Pune,,India,1990-02-28,Asia\/Kolkata,Gold,'-12\.5,2024-05-31,true,'=formula; trade fair 2026; VIP,subscribed,2026-01-15T16:00:00\.000\+05:30,Checkout form,"'=Yes, send me offers"$/,
    );
    // Recorded as unsubscribed: the record's date, source and text, not its suppression's.
    expect(line("ravi@example.com")).toMatch(
      /,,Kerala,,,,,3,,false,VIP,unsubscribed,2026-02-01T05:30:00\.000\+05:30,Phone call,No more e-mail$/,
    );
    expect(line("meera@example.com")).toMatch(/,,,,,,,,,,never_asked,,,$/);
    expect(line("zoya@example.com")).toMatch(
      /,,,,,,,,,,unsubscribed,2026-03-10T09:30:00\.000\+05:30,Unsubscribe link,$/,
    );
  });

  it("imports back into a fresh workspace with the same fields: every value, tag and consent equal", async () => {
    const file = await readAll(exportCustomersCsv(from.id, null, { pageSize: 2 }));
    const to = await createTestUser("FieldsTo");
    await defineFields(to.id);
    const result = await importCustomers(to.id, csv(file), { mergeBatch: 2 });
    expect(result).toMatchObject({
      created: 4,
      failed: 0,
      fields: ["city", "state", "country", "birthday", "time_zone", "tier", "score", "joined", "newsletter"],
      tags: true,
      consent: true,
      // Meera was never asked, as a new customer is.
      consentRecorded: 3,
      unknownColumns: [],
      createdFields: [],
    });
    for (const email of EMAILS) {
      const [before, after] = await Promise.all([customerOf(from.id, email), customerOf(to.id, email)]);
      const { old_code: _retired, ...exported } = before.fields;
      expect(after.fields).toEqual(exported);
      expect(after.tags).toEqual(before.tags);
      expect(after.consent, email).toEqual(before.consent);
    }
    expect((await customerOf(to.id, "asha@example.com")).tags).toEqual(["=formula", "trade fair 2026", "VIP"]);
    expect((await customerOf(to.id, "asha@example.com")).consent.text).toBe("=Yes, send me offers");
    // The unsubscribed are kept out of sends there too.
    expect(await suppressionOf(to.id, "ravi@example.com")).toMatchObject({ reason: "manual" });
    expect(await suppressionOf(to.id, "zoya@example.com")).toMatchObject({ reason: "manual" });
    expect(await suppressionOf(to.id, "asha@example.com")).toBeNull();
    // Again: the same file changes nothing.
    const listed = await suppressionOf(to.id, "zoya@example.com");
    expect(await importCustomers(to.id, csv(file))).toMatchObject({
      created: 0,
      updated: 4,
      failed: 0,
      consentRecorded: 0,
    });
    expect((await customerOf(to.id, "asha@example.com")).fields).toMatchObject({ score: -12.5, tier: "Gold" });
    expect(await suppressionOf(to.id, "zoya@example.com")).toEqual(listed);
  });

  it("imported back into its own workspace changes nothing: fields, tags, consent, the suppression list", async () => {
    const file = await readAll(exportCustomersCsv(from.id, null));
    const before = await Promise.all(EMAILS.map((email) => customerOf(from.id, email)));
    const listed = await Promise.all(EMAILS.map((email) => suppressionOf(from.id, email)));
    expect(await importCustomers(from.id, csv(file))).toMatchObject({
      created: 0,
      updated: 4,
      failed: 0,
      consent: true,
      consentRecorded: 0,
    });
    const after = await Promise.all(EMAILS.map((email) => customerOf(from.id, email)));
    for (const [i, c] of after.entries()) {
      expect(c.fields, c.email).toEqual(before[i].fields);
      expect(c.tags, c.email).toEqual(before[i].tags);
      expect(c.consent, c.email).toEqual(before[i].consent);
    }
    expect(await Promise.all(EMAILS.map((email) => suppressionOf(from.id, email)))).toEqual(listed);
    // Zoya's entry is still the unsubscribe link's, not a suppression by hand.
    expect(listed[3]).toMatchObject({ reason: "unsubscribed" });
  });

  it("keeps a consent text of several lines, commas and quotes as it was", async () => {
    const text = 'I agree to "offers",\nsent by e-mail; at most weekly.';
    const own = await createTestUser("ConsentTextFrom");
    await createCustomer(
      own.id,
      CustomerApiSchema.parse({
        firstName: "Lina",
        lastName: "Das",
        email: "lina@example.com",
        consent: { status: "subscribed", at: "2025-12-01T08:15:30.123Z", source: "Shop, counter", text },
      }),
    );
    const to = await createTestUser("ConsentTextTo");
    const file = await readAll(exportCustomersCsv(own.id, null));
    expect(await importCustomers(to.id, csv(file))).toMatchObject({ created: 1, consentRecorded: 1 });
    expect((await customerOf(to.id, "lina@example.com")).consent).toEqual({
      status: "subscribed",
      at: "2025-12-01T08:15:30.123Z",
      source: "Shop, counter",
      text,
    });
  });
});

describe("field columns", () => {
  let user: User;
  beforeAll(async () => {
    user = await createTestUser("FieldColumns");
    await defineFields(user.id);
  });

  it("reads a column named for a field's name or label in any case; a bad value is a bad row naming the field", async () => {
    const file = [
      "firstName,lastName,email,CITY,Loyalty Tier,birthday,SCORE",
      "Tara,Singh,tara@example.com,Jaipur,silver,1985-07-01,10",
      "Neha,Kapoor,neha@example.com,Delhi,Platinum,1985-02-30,ten",
      "Arjun,Reddy,arjun@example.com,,,,",
      ",Verma,verma@example.com,Pune,gold,,",
    ].join("\n");
    const result = await importCustomers(user.id, csv(file));
    expect(result).toMatchObject({ rows: 4, created: 2, failed: 2, fields: ["city", "tier", "birthday", "score"] });
    expect(result.errors).toEqual([
      {
        line: 3,
        email: "neha@example.com",
        reason:
          "Loyalty tier must be one of: Gold, Silver; Birthday must be a date like 2024-05-31; Score must be a number",
      },
      { line: 5, email: "verma@example.com", reason: "First name is required" },
    ]);
    expect((await customerOf(user.id, "tara@example.com")).fields).toEqual({
      city: "Jaipur",
      tier: "Silver",
      birthday: "1985-07-01",
      score: 10,
    });
    expect((await customerOf(user.id, "arjun@example.com")).fields).toEqual({});
  });

  it("sets the fields a file has, clears one whose cell is empty, and leaves the others; the last row of an e-mail counts", async () => {
    await createCustomer(
      user.id,
      CustomerApiSchema.parse({
        firstName: "Kiran",
        lastName: "Rao",
        email: "kiran@example.com",
        fields: { city: "Goa", score: 5, newsletter: true },
      }),
    );
    const file = [
      "email,firstName,lastName,score,city",
      "kiran@example.com,Kiran,Rao,7,Mumbai",
      "KIRAN@example.com,Kiran,Rao,8,",
    ].join("\n");
    expect(await importCustomers(user.id, csv(file))).toMatchObject({ updated: 2, failed: 0 });
    expect((await customerOf(user.id, "kiran@example.com")).fields).toEqual({ score: 8, newsletter: true });
  });

  it("lists unknown columns and leaves them out; with createFields makes text fields of them and imports them", async () => {
    const file = [
      "id,firstName,lastName,email,Favourite Shop,Referred by,123,tags,createdAt,",
      "x,Sana,Iqbal,sana@example.com,Crossword,Priya,one,,2024-01-01,",
    ].join("\n");
    const without = await importCustomers(user.id, csv(file));
    expect(without).toMatchObject({
      created: 1,
      fields: [],
      tags: true,
      unknownColumns: ["Favourite Shop", "Referred by", "123"],
      createdFields: [],
    });
    expect((await fieldDefinitions(user.id)).map((f) => f.name)).not.toContain("favourite_shop");

    const made = await importCustomers(user.id, csv(file), { createFields: true });
    expect(made).toMatchObject({
      updated: 1,
      fields: ["favourite_shop", "referred_by"],
      unknownColumns: ["123"],
      createdFields: ["favourite_shop", "referred_by"],
    });
    const defined = (await fieldDefinitions(user.id)).filter((f) => !f.builtIn);
    expect(defined.slice(-2)).toMatchObject([
      { name: "favourite_shop", label: "Favourite Shop", type: "text", retired: false },
      { name: "referred_by", label: "Referred by", type: "text", retired: false },
    ]);
    expect((await customerOf(user.id, "sana@example.com")).fields).toEqual({
      favourite_shop: "Crossword",
      referred_by: "Priya",
    });
    // Made once: the next import of the file finds them.
    expect(await importCustomers(user.id, csv(file), { createFields: true })).toMatchObject({
      fields: ["favourite_shop", "referred_by"],
      createdFields: [],
      unknownColumns: ["123"],
    });
  });

  it("makes no field for a file it refuses", async () => {
    const broken = 'firstName,lastName,email,Shoe size\nA,B,ab@example.com,9\n"C,D,cd@example.com,10\n';
    await expect(importCustomers(user.id, csv(broken), { createFields: true })).rejects.toMatchObject({ status: 422 });
    expect((await fieldDefinitions(user.id)).map((f) => f.name)).not.toContain("shoe_size");
  });

  it("leaves a retired field's column out, as unknown", async () => {
    const result = await importCustomers(
      user.id,
      csv("firstName,lastName,email,old_code\nOm,Das,om@example.com,Z9\n"),
      { createFields: true },
    );
    expect(result).toMatchObject({ created: 1, fields: [], unknownColumns: ["old_code"], createdFields: [] });
    expect((await customerOf(user.id, "om@example.com")).fields).toEqual({});
  });
});

describe("defaults", () => {
  it("gives a customer the import adds the default of each field the file has no column for, as a create does", async () => {
    const user = await createTestUser("Defaults");
    await createField(user.id, {
      name: "tier",
      label: "Tier",
      type: "choice",
      choices: ["Gold", "Bronze"],
      defaultValue: "bronze",
    });
    await createField(user.id, { name: "source", label: "Source", type: "text", defaultValue: "Shop" });
    const before = await createCustomer(
      user.id,
      CustomerApiSchema.parse({ firstName: "Old", lastName: "One", email: "old@example.com", fields: { tier: null } }),
    );
    expect(before.fields).toEqual({ source: "Shop" });
    const file = "email,firstName,lastName,source\nold@example.com,Old,One,Fair\nnew@example.com,New,One,\n";
    expect(await importCustomers(user.id, csv(file), { mergeBatch: 1 })).toMatchObject({ created: 1, updated: 1 });
    expect((await customerOf(user.id, "old@example.com")).fields).toEqual({ source: "Fair" });
    expect((await customerOf(user.id, "new@example.com")).fields).toEqual({ tier: "Bronze" });
  });
});

describe("tags column", () => {
  it("replaces a customer's tags with the cell's, an empty cell clearing them; a file without it leaves them", async () => {
    const user = await createTestUser("TagColumns");
    const made = await createCustomer(
      user.id,
      CustomerApiSchema.parse({ firstName: "Isha", lastName: "Jain", email: "isha@example.com", tags: ["a", "B"] }),
    );
    const tagsOf = async () => (await getCustomer(user.id, made.id)).tags;

    const replace =
      "email,firstName,lastName,tags\nisha@example.com,Isha,Jain,b;  New   Tag ; new tag\nnew@example.com,New,One,a\n";
    expect(await importCustomers(user.id, csv(replace))).toMatchObject({ created: 1, updated: 1, tags: true });
    expect(await tagsOf()).toEqual(["B", "New Tag"]);
    expect((await customerOf(user.id, "new@example.com")).tags).toEqual(["a"]);

    expect(await importCustomers(user.id, csv("email,firstName,lastName\nisha@example.com,Isha,Jain\n"))).toMatchObject(
      {
        tags: false,
      },
    );
    expect(await tagsOf()).toEqual(["B", "New Tag"]);

    await importCustomers(user.id, csv("email,firstName,lastName,Tags\nisha@example.com,Isha,Jain,\n"));
    expect(await tagsOf()).toEqual([]);

    const tooLong = `email,firstName,lastName,tags\nisha@example.com,Isha,Jain,ok;${"x".repeat(51)}\n`;
    const bad = await importCustomers(user.id, csv(tooLong));
    expect(bad).toMatchObject({ failed: 1, imported: 0 });
    expect(bad.errors[0].reason).toMatch(/^Tags: A tag must be at most 50 characters/);
  });
});

describe("/api/customers/import?createFields", () => {
  it("records consent off the request thread's import as in it, and answers a bad consent cell as a bad row", async () => {
    const tenant = await createTestUser("ApiConsent");
    const auth = { Authorization: `Bearer ${await issueToken(tenant.id)}` };
    const res = (await importAction({
      request: new Request("http://localhost/api/customers/import", {
        method: "POST",
        headers: { ...auth, "Content-Type": "text/csv" },
        body: [
          "firstName,lastName,email,consent,consentDate,consentSource",
          "Lata,Roy,lata@example.com,unsubscribed,2025-02-03,Phone call",
          "Mira,Sen,mira@example.com,yes please,,",
        ].join("\n"),
      }),
      params: {},
      context: {},
    })) as Response;
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({
      created: 1,
      failed: 1,
      consent: true,
      consentRecorded: 1,
      errors: [
        { line: 3, email: "mira@example.com", reason: "consent must be one of: subscribed, unsubscribed, never_asked" },
      ],
    });
    expect((await customerOf(tenant.id, "lata@example.com")).consent).toEqual({
      status: "unsubscribed",
      at: "2025-02-03T00:00:00.000Z",
      source: "Phone call",
      text: "",
    });
    expect(await suppressionOf(tenant.id, "lata@example.com")).toMatchObject({ reason: "manual" });
  });

  it("makes fields of unknown columns with createFields=true and refuses another value with a 400", async () => {
    const tenant = await createTestUser("ApiFields");
    const auth = { Authorization: `Bearer ${await issueToken(tenant.id)}` };
    const post = (query: string) =>
      importAction({
        request: new Request(`http://localhost/api/customers/import${query}`, {
          method: "POST",
          headers: { ...auth, "Content-Type": "text/csv" },
          body: "firstName,lastName,email,Shoe size,tags\nLata,Roy,lata@example.com,7,walk-in\n",
        }),
        params: {},
        context: {},
      }) as Promise<Response>;
    const plain = await post("");
    expect(plain.status).toBe(200);
    expect(await plain.json()).toMatchObject({
      created: 1,
      tags: true,
      unknownColumns: ["Shoe size"],
      createdFields: [],
    });
    const creating = await post("?createFields=true");
    expect(await creating.json()).toMatchObject({ updated: 1, fields: ["shoe_size"], createdFields: ["shoe_size"] });
    expect((await customerOf(tenant.id, "lata@example.com")).fields).toEqual({ shoe_size: "7" });
    const wrong = await post("?createFields=yes");
    expect(wrong.status).toBe(400);
    expect(await wrong.json()).toMatchObject({
      error: { message: "createFields: createFields must be true or false" },
    });
  });
});
