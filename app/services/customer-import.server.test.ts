// @engines sqlite postgres
// CSV import and export against a real SQLite database: line numbers and reasons for bad rows,
// upsert on e-mail, a malformed file refused with nothing written, export content and search.
import { Readable } from "node:stream";
import { beforeAll, describe, expect, it } from "vitest";
import { csv, readAll } from "../../tests/helpers/customer-csv";
import { useTestDatabase, createTestUser } from "../../tests/helpers/db";

// eslint-disable-next-line react-hooks/rules-of-hooks -- a test helper named use*, not a React hook
useTestDatabase();

import { db } from "~/db/prisma.server";
import type { User } from "~/generated/prisma/client";
import { action as importAction } from "~/routes/api/customers-import";
import { loader as exportLoader } from "~/routes/api/customers-export";
import { exportCustomersCsv } from "~/services/customer-export.server";
import { errorReportCsv, importCustomers } from "~/services/customer-import.server";
import { createCustomer, getCustomer, listCustomers } from "~/services/customers.server";
import { seedTenant } from "~/services/seed.server";
import { CustomerApiSchema } from "~/schemas/customer";
import { issueToken } from "~/services/token.server";

let user: User;
beforeAll(async () => {
  user = await createTestUser("Importer");
});

describe("importCustomers", () => {
  it("keeps good rows, reports each bad row with its line number and reason", async () => {
    const file = [
      "First Name,Last Name,Email,Phone,Total Spend,Visits,Last Active",
      "Rahul,Sharma,rahul@example.com,+91 98111 22233,1250.50,4,2024-03-01",
      ",Verma,verma@example.com,,,,",
      "Priya,Patel,not-an-email,,,,",
      '"Meera","Nair","meera@example.com","",abc,2,',
      "Karan,Mehta,karan@example.com,,,1.5,",
      "Divya,Joshi",
      "Sanjay,Gupta,sanjay@example.com,,,,someday",
      "",
      "Arjun,Reddy,ARJUN@example.com,,,,",
    ].join("\n");
    const result = await importCustomers(user.id, csv(file));
    expect(result).toMatchObject({ rows: 8, imported: 2, created: 2, updated: 0, failed: 6 });
    expect(result.errors).toEqual([
      { line: 3, email: "verma@example.com", reason: "First name is required" },
      { line: 4, email: "not-an-email", reason: "Enter a valid email address" },
      { line: 5, email: "meera@example.com", reason: "Total spend must be a number of rupees, 0 or more" },
      { line: 6, email: "karan@example.com", reason: "Visits must be a whole number, 0 or more" },
      { line: 7, email: "", reason: "The row has 2 columns; the header has 7" },
      { line: 8, email: "sanjay@example.com", reason: "Last active must be a date like 2024-05-31" },
    ]);
    const page = await listCustomers(user.id, { q: "rahul" });
    expect(page.customers[0]).toMatchObject({
      firstName: "Rahul",
      email: "rahul@example.com",
      totalSpend: 1250.5,
      visits: 4,
      lastActive: "2024-03-01T00:00:00.000Z",
    });
    expect((await listCustomers(user.id, { q: "arjun@" })).customers[0].email).toBe("arjun@example.com");
    expect(errorReportCsv(result.errors).split("\n")[0]).toBe("line,email,reason");
    expect(errorReportCsv(result.errors)).toContain("4,not-an-email,Enter a valid email address");
  });

  it("upserts on e-mail: updates the columns the file has and keeps the rest", async () => {
    const existing = await createCustomer(user.id, {
      firstName: "Old",
      lastName: "Name",
      email: "upsert@example.com",
      phone: "111",
      address: "Pune",
      company: "Acme",
      notes: "",
      totalSpend: 500,
    });
    const result = await importCustomers(
      user.id,
      csv("email,firstName,lastName\nUPSERT@example.com,Neha,Kapoor\nnew1@example.com,New,One\n"),
    );
    expect(result).toMatchObject({ created: 1, updated: 1, failed: 0 });
    expect(await getCustomer(user.id, existing.id)).toMatchObject({
      firstName: "Neha",
      lastName: "Kapoor",
      phone: "111",
      address: "Pune",
      totalSpend: 500,
    });
    expect((await listCustomers(user.id, { q: "kapoor" })).customers.map((c) => c.id)).toEqual([existing.id]);
    expect((await listCustomers(user.id, { q: "Old Name" })).customers).toEqual([]);
  });

  it("uses a given column mapping over the guess", async () => {
    const result = await importCustomers(user.id, csv("a,b,c\nmapped@example.com,Zoya,Khan\n"), {
      mapping: { email: 0, firstName: 1, lastName: 2 },
    });
    expect(result.created).toBe(1);
    expect((await listCustomers(user.id, { q: "zoya" })).customers[0].email).toBe("mapped@example.com");
  });

  it("refuses a malformed file with a clear message and writes nothing", async () => {
    const before = await db().customer.count({ where: { userId: user.id } });
    const broken = 'firstName,lastName,email\nGood,Row,good-before-break@example.com\n"Unclosed,Quote,x@example.com\n';
    await expect(importCustomers(user.id, csv(broken))).rejects.toMatchObject({
      status: 422,
      message: expect.stringMatching(/^The file is not a valid CSV file, so nothing was imported: /),
    });
    await expect(importCustomers(user.id, csv("name,phone\nA,1\n"))).rejects.toMatchObject({
      status: 422,
      message: 'The file has no column for First Name. Name a header column "firstName" (or map one) and try again.',
    });
    await expect(importCustomers(user.id, csv(""))).rejects.toMatchObject({
      message: "The file is empty: it needs a header row and at least one customer.",
    });
    expect(await db().customer.count({ where: { userId: user.id } })).toBe(before);
    expect((await listCustomers(user.id, { q: "good-before-break" })).customers).toEqual([]);
  });

  it("refuses a file with a header and no customer rows instead of reporting 0 imported", async () => {
    const message = "The file has no customer rows: it needs a header row and at least one customer.";
    await expect(importCustomers(user.id, csv("firstName,lastName,email\n"))).rejects.toMatchObject({
      status: 422,
      message,
    });
    await expect(importCustomers(user.id, csv("firstName,lastName,email\r\n\r\n\r\n"))).rejects.toMatchObject({
      status: 422,
      message,
    });
    // A file whose every row is bad is still a result: its report says why each was skipped.
    const allBad = await importCustomers(user.id, csv("firstName,lastName,email\n,Nobody,nobody-only@example.com\n"));
    expect(allBad).toMatchObject({ imported: 0, failed: 1 });
  });

  it("refuses a binary file renamed .csv and writes nothing", async () => {
    const before = await db().customer.count({ where: { userId: user.id } });
    // A PNG's signature line has no NUL; the bytes after it do.
    const png = Buffer.concat([
      Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
      Buffer.from([0, 0, 0, 13]),
      Buffer.from("IHDR"),
    ]);
    await expect(importCustomers(user.id, Readable.from([png]))).rejects.toMatchObject({
      status: 422,
      message: "The file is not a CSV text file.",
    });
    // Control bytes without a NUL, as in a spreadsheet's compressed parts.
    const controls = Buffer.from(Array.from({ length: 4000 }, (_, i) => (i % 7 === 0 ? 0x03 : 0x41 + (i % 26))));
    await expect(importCustomers(user.id, Readable.from([controls]))).rejects.toMatchObject({
      message: "The file is not a CSV text file.",
    });
    // A header that reads well and a binary body after it, in chunks.
    const body = Buffer.concat([Buffer.from("firstName,lastName,email\nA,B,ab@example.com\n"), Buffer.alloc(64, 0)]);
    await expect(
      importCustomers(user.id, Readable.from([body.subarray(0, 40), body.subarray(40)])),
    ).rejects.toMatchObject({
      message: "The file is not a CSV text file.",
    });
    // Latin-1 text (not UTF-8) is still text.
    const latin1 = Buffer.from("firstName,lastName,email\nJos\xe9,Fern\xe1ndez,jose-latin1@example.com\n", "latin1");
    expect(await importCustomers(user.id, Readable.from([latin1]))).toMatchObject({ created: 1, failed: 0 });
    expect(await db().customer.count({ where: { userId: user.id } })).toBe(before + 1);
  });

  it("says a total spend or visits too large is too large, with the limit", async () => {
    const result = await importCustomers(
      user.id,
      csv(
        "firstName,lastName,email,totalSpend,visits\nBig,Spender,big-spender@example.com,99999999999999,\nMany,Visits,many-visits@example.com,,5000000000\nNeg,Spend,neg-spend@example.com,-5,\n",
      ),
    );
    expect(result.errors).toEqual([
      { line: 2, email: "big-spender@example.com", reason: "Total spend is too large (at most ₹10,00,00,00,000)" },
      { line: 3, email: "many-visits@example.com", reason: "Visits is too large (at most 1,00,00,00,000)" },
      { line: 4, email: "neg-spend@example.com", reason: "Total spend must be a number of rupees, 0 or more" },
    ]);
    const api = CustomerApiSchema.safeParse({
      firstName: "A",
      lastName: "B",
      email: "a@example.com",
      totalSpend: 99999999999999,
      visits: 5e9,
    });
    expect(Object.fromEntries((api.error?.issues ?? []).map((i) => [i.path[0], i.message]))).toEqual({
      totalSpend: "Total spend is too large (at most ₹10,00,00,00,000)",
      visits: "Visits is too large (at most 1,00,00,00,000)",
    });
  });

  it("keeps line numbers across chunks and quoted line breaks, and the last row of a repeated e-mail, over several batches", async () => {
    const tenant = await createTestUser("Batches");
    const lines = ["firstName,lastName,email,notes"];
    for (let i = 0; i < 30; i++)
      lines.push(i % 4 === 0 ? `F${i},L${i},b${i}@example.com,"two\nlines"` : `F${i},L${i},b${i}@example.com,`);
    lines.push("Late,Again,b1@example.com,", "Bad,Row,not-an-email,");
    const text = `${lines.join("\n")}\n`;
    // Chunks that cut records (and a quoted line break) in two.
    const chunks = [text.slice(0, 37), text.slice(37, 150), text.slice(150)].map((c) => Buffer.from(c));
    const progress: string[] = [];
    const result = await importCustomers(tenant.id, Readable.from(chunks), {
      mergeBatch: 7,
      onProgress: (p) => progress.push(p.phase === "saving" ? `saving ${p.saved}/${p.total}` : "reading"),
    });
    expect(result).toMatchObject({ rows: 32, imported: 31, created: 30, updated: 1, failed: 1 });
    // The header, 30 records (8 of them two lines long) on lines 2-39, the repeat on 40: the bad row is on 41.
    expect(result.errors).toEqual([{ line: 41, email: "not-an-email", reason: "Enter a valid email address" }]);
    expect(progress.filter((p) => p.startsWith("saving"))).toEqual([
      "saving 7/31",
      "saving 14/31",
      "saving 21/31",
      "saving 28/31",
      "saving 31/31",
    ]);
    const page = await listCustomers(tenant.id, { q: "b1@example.com" });
    expect(page.customers.map((c) => `${c.firstName} ${c.lastName}`)).toEqual(["Late Again"]);
    expect((await listCustomers(tenant.id, {})).total).toBe(30);
    expect((await getCustomer(tenant.id, page.customers[0].id)).notes).toBe("");
    const first = (await listCustomers(tenant.id, { q: "b0@example.com" })).customers[0];
    expect(first.notes).toBe("two\nlines");
  });

  it("merges rows of one e-mail in one batch as row by row would, and keeps backslashes, tabs and line breaks as written", async () => {
    const tenant = await createTestUser("Repeats");
    const file = [
      "firstName,lastName,email,notes,totalSpend,visits,lastActive",
      'First,Row,same@example.com,"C:\\orders\\2024	q1",100,3,2024-01-01',
      "Second,Row,same@example.com,,250,5,",
      'Third,Row,same@example.com,"line one\r\nline two",300,7,',
      "Other,Person,other@example.com,\\N,,,",
    ].join("\n");
    const result = await importCustomers(tenant.id, csv(file));
    expect(result).toMatchObject({ imported: 4, created: 2, updated: 2, failed: 0 });
    const [same] = (await listCustomers(tenant.id, { q: "same@" })).customers;
    // The last row's text and figures; the last active date of the row that gave one.
    const merged = {
      firstName: "Third",
      notes: "line one\r\nline two",
      totalSpend: 300,
      visits: 7,
      lastActive: "2024-01-01T00:00:00.000Z",
    };
    expect(same).toMatchObject(merged);
    expect((await listCustomers(tenant.id, { q: "other@" })).customers[0].notes).toBe("\\N");
    const again = await importCustomers(tenant.id, csv(file));
    expect(again).toMatchObject({ created: 0, updated: 4 });
    expect((await listCustomers(tenant.id, { q: "same@" })).customers[0]).toMatchObject(merged);
    await importCustomers(
      tenant.id,
      csv('firstName,lastName,email,notes\nFirst,Row,same@example.com,"C:\\orders\\2024	q1"\n'),
    );
    expect((await listCustomers(tenant.id, { q: "same@" })).customers[0].notes).toBe("C:\\orders\\2024\tq1");
  });

  it("reads Windows line endings, reports a bad record by the line it starts on, keeps a stray quote as text, and saves every row", async () => {
    const tenant = await createTestUser("Crlf");
    const lines = ["firstName,lastName,email,notes,visits"];
    // 123 good rows: two full statements of staged rows and a remainder.
    for (let i = 0; i < 123; i++) lines.push(`F${i},L${i},w${i}@example.com,${i === 5 ? 'said "call me"' : ""},${i}`);
    lines.push('Bad,Two,w-bad@example.com,"first\r\nsecond",many');
    const result = await importCustomers(tenant.id, csv(`${lines.join("\r\n")}\r\n`));
    expect(result).toMatchObject({ rows: 124, created: 123, failed: 1 });
    expect(result.errors).toEqual([
      { line: 125, email: "w-bad@example.com", reason: "Visits must be a whole number, 0 or more" },
    ]);
    const all = await listCustomers(tenant.id, { limit: 1000 });
    expect(all.total).toBe(123);
    expect(new Set(all.customers.map((c) => `${c.email}:${c.visits}`))).toEqual(
      new Set(Array.from({ length: 123 }, (_, i) => `w${i}@example.com:${i}`)),
    );
    expect(all.customers.find((c) => c.email === "w5@example.com")?.notes).toBe('said "call me"');
  });

  it("counts new customers toward the NEW_CUSTOMERS notification", async () => {
    const tenant = await createTestUser("Bulk");
    const rows = Array.from({ length: 20 }, (_, i) => `F${i},L${i},bulk${i}@example.com`).join("\n");
    await importCustomers(tenant.id, csv(`firstName,lastName,email\n${rows}\n`));
    expect(await db().notification.count({ where: { userId: tenant.id, type: "NEW_CUSTOMERS" } })).toBe(1);
  });

  it("says a large count with Indian digit grouping, like every other number on screen", async () => {
    const tenant = await createTestUser("Big Import");
    const rows = Array.from({ length: 2000 }, (_, i) => `F${i},L${i},big${i}@example.com`).join("\n");
    await importCustomers(tenant.id, csv(`firstName,lastName,email\n${rows}\n`));
    const notice = await db().notification.findFirstOrThrow({ where: { userId: tenant.id, type: "NEW_CUSTOMERS" } });
    expect(notice.details).toBe("2,000 new customers have been added to your CRM.");
  });
});

describe("export", () => {
  it("streams all customers or the search as CSV that imports back", async () => {
    const tenant = await createTestUser("Exporter");
    await importCustomers(
      tenant.id,
      csv(
        'firstName,lastName,email,notes,totalSpend\nAsha,Bose,asha@example.com,"Likes, commas",10\nRavi,Kumar,ravi@example.com,,20.5\n',
      ),
    );
    const all = await readAll(exportCustomersCsv(tenant.id, null, { pageSize: 1 }));
    const lines = all.trim().split("\n");
    expect(lines[0]).toBe(
      "id,firstName,lastName,email,phone,address,company,notes,totalSpend,visits,lastActive,createdAt," +
        "city,state,country,birthday,time_zone,tags,consent,consentDate,consentSource,consentText",
    );
    expect(lines).toHaveLength(3);
    expect(all).toContain('Asha,Bose,asha@example.com,,,,"Likes, commas",10.00,0');
    const search = await readAll(exportCustomersCsv(tenant.id, "ravi"));
    expect(search.trim().split("\n")).toHaveLength(2);
    expect(search).toContain("ravi@example.com");
    const again = await importCustomers(tenant.id, csv(all));
    expect(again).toMatchObject({ created: 0, updated: 2, failed: 0, unknownColumns: [] });
  });
});

describe("formula cells", () => {
  it("exports cells a spreadsheet would run with a quote before them, stores them unchanged, and re-imports them as they were", async () => {
    const tenant = await createTestUser("Formulas");
    const file = [
      "firstName,lastName,email,phone,company,notes",
      `"=cmd|' /C calc'!A0",Shah,shah@example.com,+91 98450 12345,@SUM(A1),-1+2`,
      `Tina,Rao,tina@example.com,,,"=HYPERLINK(""x"")"`,
    ].join("\n");
    expect(await importCustomers(tenant.id, csv(file))).toMatchObject({ created: 2, failed: 0 });
    const stored = (await listCustomers(tenant.id, { q: "shah@" })).customers[0];
    expect(stored).toMatchObject({
      firstName: "=cmd|' /C calc'!A0",
      phone: "+91 98450 12345",
      company: "@SUM(A1)",
      notes: "-1+2",
    });

    const exported = await readAll(exportCustomersCsv(tenant.id, null));
    expect(exported).toContain(`,'=cmd|' /C calc'!A0,Shah,shah@example.com,'+91 98450 12345,,'@SUM(A1),'-1+2,`);
    expect(exported).toContain(`"'=HYPERLINK(""x"")"`);
    for (const line of exported.trim().split("\n").slice(1)) expect(line).not.toMatch(/(^|,)"?[=+\-@]/);

    const copy = await createTestUser("FormulasCopy");
    expect(await importCustomers(copy.id, csv(exported))).toMatchObject({ created: 2, failed: 0 });
    const back = (await listCustomers(copy.id, { q: "shah@" })).customers[0];
    expect(back).toMatchObject({
      firstName: "=cmd|' /C calc'!A0",
      phone: "+91 98450 12345",
      company: "@SUM(A1)",
      notes: "-1+2",
    });
    expect((await listCustomers(copy.id, { q: "tina@" })).customers[0]).toMatchObject({ notes: '=HYPERLINK("x")' });
  });

  it("neutralises the import error report too", () => {
    const report = errorReportCsv([{ line: 2, email: "=1+1", reason: "Enter a valid email address" }]);
    expect(report.split("\n")[1]).toBe("2,'=1+1,Enter a valid email address");
  });
});

describe("/api/customers/import and /api/customers/export", () => {
  it("imports a streamed body and exports with the tenant's token only", async () => {
    const tenant = await createTestUser("ApiImport");
    const other = await createTestUser("Other");
    const auth = { Authorization: `Bearer ${await issueToken(tenant.id)}` };
    const request = new Request("http://localhost/api/customers/import", {
      method: "POST",
      headers: { ...auth, "Content-Type": "text/csv" },
      body: "firstName,lastName,email\nTara,Singh,tara@example.com\nbad,,bad@example.com\n",
    });
    const response = (await importAction({ request, params: {}, context: {} })) as Response;
    expect(response.status).toBe(200);
    const body = await response.json();
    expect(body).toMatchObject({ created: 1, failed: 1, errors: [{ line: 3, reason: "Last name is required" }] });
    const malformed = (await importAction({
      request: new Request("http://localhost/api/customers/import", {
        method: "POST",
        headers: { ...auth, "Content-Type": "text/csv" },
        body: 'firstName,lastName,email\n"x,y,z\n',
      }),
      params: {},
      context: {},
    })) as Response;
    expect(malformed.status).toBe(422);
    const exported = (await exportLoader({
      request: new Request("http://localhost/api/customers/export", { headers: auth }),
      params: {},
      context: {},
    })) as Response;
    expect(exported.headers.get("Content-Type")).toContain("text/csv");
    expect(await exported.text()).toContain("tara@example.com");
    const theirs = (await exportLoader({
      request: new Request("http://localhost/api/customers/export", {
        headers: { Authorization: `Bearer ${await issueToken(other.id)}` },
      }),
      params: {},
      context: {},
    })) as Response;
    expect(await theirs.text()).not.toContain("tara@example.com");
  });
});

describe("seedTenant", () => {
  it("adds customers whose totals follow their non-cancelled orders", async () => {
    const tenant = await createTestUser("Seeder");
    const result = await seedTenant(tenant.id, { customers: 200, orders: 600, seed: 42 });
    expect(result).toMatchObject({ customersCreated: 200, ordersCreated: 600 });
    expect((await listCustomers(tenant.id)).total).toBe(200);
    const customers = await db().customer.findMany({ where: { userId: tenant.id }, include: { orders: true } });
    for (const c of customers) {
      const counted = c.orders.filter((o) => o.status !== "Cancelled");
      expect(c.totalSpendPaise).toBe(counted.reduce((s, o) => s + o.amountPaise + o.taxPaise, 0));
      expect(c.visits).toBe(counted.length);
      expect(c.phone).toMatch(/^\+91 [6-9]\d{4} \d{5}$/);
    }
    const items = await db().orderItem.findMany({ where: { order: { userId: tenant.id } } });
    const byOrder = new Map<string, number>();
    for (const i of items) byOrder.set(i.orderId, (byOrder.get(i.orderId) ?? 0) + i.quantity * i.pricePaise);
    const orders = await db().order.findMany({ where: { userId: tenant.id } });
    for (const o of orders) expect(o.amountPaise).toBe(byOrder.get(o.id));
    const name = customers[0].firstName;
    expect((await listCustomers(tenant.id, { q: name })).total).toBeGreaterThan(0);
  });
});
