// @engines sqlite postgres
// The suppression service against a real SQLite database: adding by hand, listing, resubscribing,
// history, and the CSV import and export (including 100,000 addresses in seconds).
import { Readable } from "node:stream";
import { beforeAll, describe, expect, it } from "vitest";
import { createTestUser, useTestDatabase } from "../../tests/helpers/db";

// eslint-disable-next-line react-hooks/rules-of-hooks -- a test helper named use*, not a React hook
useTestDatabase();

import { ApiError } from "~/lib/api.server";
import { suppressions } from "~/models/suppressions/store.server";
import { exportSuppressionsCsv, importSuppressionsCsv, reasonFromText } from "~/services/suppressions-csv.server";
import {
  addSuppressionsByHand,
  checkEmails,
  listSuppressionsPage,
  MAX_EMAILS_PER_REQUEST,
  resubscribe,
  suppressionOf,
} from "~/services/suppressions.server";

let alice: string;
let bob: string;

beforeAll(async () => {
  alice = (await createTestUser("Alice")).id;
  bob = (await createTestUser("Bob")).id;
});

async function refusal(promise: Promise<unknown>): Promise<ApiError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ApiError);
  return error as ApiError;
}

async function text(stream: ReadableStream<Uint8Array>): Promise<string> {
  return new Response(stream).text();
}

describe("checkEmails", () => {
  it("trims, lower-cases and de-duplicates, and keeps the bad entries apart", () => {
    expect(checkEmails([" A@Example.com ", "a@example.com", "", "not-an-address", "b@x.in"])).toEqual({
      emails: ["a@example.com", "b@x.in"],
      invalid: ["not-an-address"],
    });
  });
});

describe("adding by hand", () => {
  it("counts what was added and what was on the list already", async () => {
    const user = (await createTestUser()).id;
    expect(await addSuppressionsByHand(user, ["One@Example.com", "two@example.com", "one@example.com"])).toEqual({
      added: 2,
      alreadySuppressed: 0,
    });
    expect(await addSuppressionsByHand(user, ["two@example.com", "three@example.com"])).toEqual({
      added: 1,
      alreadySuppressed: 1,
    });
    const entry = await suppressionOf(user, "ONE@example.com");
    expect(entry).toMatchObject({ email: "one@example.com", reason: "manual", campaignId: null });
    expect(new Date(entry!.createdAt).toISOString()).toBe(entry!.createdAt);
  });

  it("refuses the whole list, naming the bad addresses, and adds nothing", async () => {
    const user = (await createTestUser()).id;
    const error = await refusal(addSuppressionsByHand(user, ["good@example.com", "bad@", "also bad"]));
    expect(error.status).toBe(400);
    expect(error.message).toContain('"bad@"');
    expect(error.message).toContain('"also bad"');
    expect(await suppressions.countSuppressions(user)).toBe(0);
  });

  it("refuses an empty list and one over the limit", async () => {
    const user = (await createTestUser()).id;
    expect((await refusal(addSuppressionsByHand(user, []))).message).toMatch(/at least one email/);
    expect((await refusal(addSuppressionsByHand(user, ["  "]))).message).toMatch(/at least one email/);
    const many = Array.from({ length: MAX_EMAILS_PER_REQUEST + 1 }, (_, i) => `p${i}@example.com`);
    expect((await refusal(addSuppressionsByHand(user, many))).message).toMatch(/At most 10,000/);
  });
});

describe("listing, resubscribing and history", () => {
  it("pages newest first, searches, and keeps tenants apart", async () => {
    await suppressions.addSuppressions(alice, [{ email: "old@shop.in", reason: "unsubscribed" }], {
      now: Date.now() - 60_000,
    });
    await addSuppressionsByHand(alice, ["new@shop.in", "other@mail.in"]);
    await addSuppressionsByHand(bob, ["bob-only@shop.in"]);
    const first = await listSuppressionsPage(alice, { page: 1, pageSize: 2 });
    expect(first.total).toBe(3);
    expect(first.items.map((i) => i.email)).toEqual(["new@shop.in", "other@mail.in"]);
    const second = await listSuppressionsPage(alice, { page: 2, pageSize: 2 });
    expect(second.items.map((i) => i.email)).toEqual(["old@shop.in"]);
    expect(second.items[0].reason).toBe("unsubscribed");
    const search = await listSuppressionsPage(alice, { q: "SHOP", page: 1, pageSize: 50 });
    expect(search.items.map((i) => i.email).sort()).toEqual(["new@shop.in", "old@shop.in"]);
    expect(search.total).toBe(2);
    expect(await suppressionOf(alice, "bob-only@shop.in")).toBeNull();
    expect(await resubscribe(alice, "bob-only@shop.in")).toBe(false);
    expect(await suppressionOf(bob, "bob-only@shop.in")).not.toBeNull();
  });

  it("resubscribes once and records both events, newest first", async () => {
    const user = (await createTestUser()).id;
    await suppressions.addSuppressions(user, [{ email: "h@x.in", reason: "hard-bounced", campaignName: "Diwali" }], {
      now: Date.now() - 1000,
    });
    expect(await resubscribe(user, " H@X.in ")).toBe(true);
    expect(await resubscribe(user, "h@x.in")).toBe(false);
    expect(await resubscribe(user, "not an address")).toBe(false);
    const history = await suppressions.suppressionEventsOf(user, "h@x.in");
    expect(history.map((h) => h.action)).toEqual(["resubscribed", "suppressed"]);
    expect(history[1]).toMatchObject({ reason: "hard-bounced", campaignName: "Diwali" });
    expect(await suppressions.suppressionEventsOf(bob, "h@x.in")).toEqual([]);
  });
});

describe("CSV import", () => {
  it("reads listmonk's and Mailchimp's headers, reports bad rows by line, counts duplicates and known ones", async () => {
    const user = (await createTestUser()).id;
    await addSuppressionsByHand(user, ["known@x.in"]);
    const file = [
      "First Name,Email Address,Reason,Campaign",
      "Asha,Asha@X.in,Hard bounce,Diwali sale",
      "Bad,not-an-address,,",
      "",
      "Dup,asha@x.in,,",
      "Known,known@x.in,,",
      'Quoted,"q@x.in",complaint,',
      "Empty,,,",
      "Odd,odd@x.in,something else,",
    ].join("\r\n");
    const result = await importSuppressionsCsv(user, file);
    expect(result).toMatchObject({ rows: 7, added: 3, alreadySuppressed: 1, duplicates: 1, invalid: 2 });
    expect(result.errors).toEqual([
      { line: 3, email: "not-an-address", reason: "Enter a valid email address" },
      { line: 8, email: "", reason: "The email is empty" },
    ]);
    expect(await suppressionOf(user, "asha@x.in")).toMatchObject({
      reason: "hard-bounced",
      campaignName: "Diwali sale",
    });
    expect((await suppressionOf(user, "q@x.in"))?.reason).toBe("complained");
    expect((await suppressionOf(user, "odd@x.in"))?.reason).toBe("manual");
    expect((await suppressionOf(user, "known@x.in"))?.reason).toBe("manual");
  });

  it("takes a plain 'email' header in any case, from bytes", async () => {
    const user = (await createTestUser()).id;
    const bytes = new TextEncoder().encode("\uFEFFEMAIL\nz@x.in\ny@x.in\n");
    const result = await importSuppressionsCsv(user, Readable.from([bytes]));
    expect(result).toMatchObject({ rows: 2, added: 2, invalid: 0 });
  });

  it("refuses a file without an email column, without a header, empty or not text, writing nothing", async () => {
    const user = (await createTestUser()).id;
    expect((await refusal(importSuppressionsCsv(user, "name,phone\nA,1\n"))).message).toMatch(/no email column/);
    const headerless = await refusal(importSuppressionsCsv(user, "a@x.in\nb@x.in\n"));
    expect(headerless.status).toBe(422);
    expect(headerless.message).toMatch(/header.*a@x\.in/);
    expect((await refusal(importSuppressionsCsv(user, ""))).message).toMatch(/empty/);
    expect((await refusal(importSuppressionsCsv(user, "email\n\n"))).message).toMatch(/no addresses/);
    const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0, 0, 0, 0x0d, 1, 2, 3]);
    expect((await refusal(importSuppressionsCsv(user, Readable.from([png])))).message).toMatch(/not a CSV/);
    expect((await refusal(importSuppressionsCsv(user, 'email\n"open@x.in\n'))).message).toMatch(/not a valid CSV/);
    expect(await suppressions.countSuppressions(user)).toBe(0);
  });

  it("imports 100,000 addresses in seconds", async () => {
    const user = (await createTestUser()).id;
    const lines = ["email"];
    for (let i = 0; i < 100_000; i++) lines.push(`person${i}@example${i % 97}.com`);
    const started = performance.now();
    const result = await importSuppressionsCsv(user, lines.join("\n"));
    const seconds = (performance.now() - started) / 1000;
    expect(result).toMatchObject({ rows: 100_000, added: 100_000, invalid: 0 });
    expect(await suppressions.countSuppressions(user)).toBe(100_000);
    console.log(`100,000 suppressions imported in ${seconds.toFixed(2)} s`);
    expect(seconds).toBeLessThan(15);
  }, 60_000);
});

describe("CSV export", () => {
  it("writes email, reason, campaign, created_at by address, and imports back", async () => {
    const user = (await createTestUser()).id;
    await suppressions.addSuppressions(user, [
      { email: "b@x.in", reason: "unsubscribed", campaignName: "Launch" },
      { email: "a@x.in", reason: "manual" },
      { email: "c@x.in", reason: "complained", campaignName: "=cmd()" },
    ]);
    await addSuppressionsByHand(bob, ["not-mine@x.in"]);
    const csv = await text(exportSuppressionsCsv(user, { timeZone: "Asia/Kolkata", sliceSize: 2 }));
    const lines = csv.trim().split("\n");
    expect(lines[0]).toBe("email,reason,campaign,created_at");
    expect(lines.slice(1).map((l) => l.split(",").slice(0, 3).join(","))).toEqual([
      "a@x.in,manual,",
      "b@x.in,unsubscribed,Launch",
      "c@x.in,complained,'=cmd()",
    ]);
    expect(lines[1].split(",")[3]).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d.*\+05:30$/);

    const other = (await createTestUser()).id;
    const result = await importSuppressionsCsv(other, csv);
    expect(result).toMatchObject({ added: 3, invalid: 0 });
    expect(await suppressionOf(other, "c@x.in")).toMatchObject({ reason: "complained", campaignName: "=cmd()" });
    expect(await suppressionOf(other, "b@x.in")).toMatchObject({ reason: "unsubscribed", campaignName: "Launch" });
  });

  it("reads reasons by name, label or common alias", () => {
    expect(reasonFromText("Hard-Bounced")).toBe("hard-bounced");
    expect(reasonFromText("Added by hand")).toBe("manual");
    expect(reasonFromText("cleaned")).toBe("hard-bounced");
    expect(reasonFromText("spam")).toBe("complained");
    expect(reasonFromText("whatever")).toBe("manual");
  });

  it("keeps the source's reason of another tool's list: Mailchimp's unsubscribes and cleaned, SendGrid's bounces, Postmark's", async () => {
    const user = (await createTestUser()).id;
    /** Imports the CSV file of `lines`, then finds each address's entry as `expected` says: the import's result. */
    const importExpecting = async (lines: string[], expected: Record<string, Record<string, string>>) => {
      const result = await importSuppressionsCsv(user, lines.join("\n"));
      for (const [email, entry] of Object.entries(expected))
        expect(await suppressionOf(user, email), email).toMatchObject(entry);
      return result;
    };
    // Mailchimp's export of unsubscribed contacts: every row unsubscribed, its reason in its words.
    const mailchimp = [
      '"Email Address","First Name","UNSUB_TIME","UNSUB_CAMPAIGN_TITLE","UNSUB_REASON","UNSUB_REASON_OTHER"',
      '"asha@example.com","Asha","2026-10-02 10:11:12","Diwali sale","I no longer want to receive these emails",""',
      '"ravi@example.com","Ravi","2026-10-03 09:00:00","Diwali sale","Other (fill in reason below)","Too many mails"',
      '"meera@example.com","Meera","2026-10-04 08:00:00","","The emails are spam and should be reported",""',
      '"dev@example.com","Dev","2026-10-05 08:00:00","","",""',
    ];
    const unsubscribed = await importExpecting(mailchimp, {
      "asha@example.com": {
        reason: "unsubscribed",
        campaignName: "Diwali sale",
        details: "Imported from CSV: I no longer want to receive these emails",
      },
      "ravi@example.com": {
        reason: "unsubscribed",
        details: "Imported from CSV: Other (fill in reason below) — Too many mails",
      },
      "meera@example.com": {
        reason: "unsubscribed",
        details: "Imported from CSV: The emails are spam and should be reported",
      },
      "dev@example.com": { reason: "unsubscribed", details: "Imported from CSV" },
    });
    expect(unsubscribed).toMatchObject({ added: 4, invalid: 0 });

    // Mailchimp's cleaned contacts are hard bounces.
    const cleaned = [
      '"Email Address","CLEAN_TIME","CLEAN_CAMPAIGN_TITLE"',
      '"gone@example.com","2026-10-01","Monsoon"',
    ];
    await importExpecting(cleaned, { "gone@example.com": { reason: "hard-bounced", campaignName: "Monsoon" } });

    // SendGrid's bounces (the relay's answer in "reason"), Postmark's suppressions (its own names).
    const sendgrid = [
      "email,created,reason,status",
      'nobody@example.com,1727000000,"550 5.1.1 The email account that you tried to reach does not exist",5.1.1',
    ];
    await importExpecting(sendgrid, {
      "nobody@example.com": {
        reason: "hard-bounced",
        details: "Imported from CSV: 550 5.1.1 The email account that you tried to reach does not exist",
      },
    });
    const postmark = [
      "Email,Reason,Origin",
      "a1@example.com,SpamComplaint,Recipient",
      "a2@example.com,HardBounce,Recipient",
    ];
    await importExpecting(postmark, {
      "a1@example.com": { reason: "complained", details: "Imported from CSV" },
      "a2@example.com": { reason: "hard-bounced" },
    });
    expect(reasonFromText("Unsubscribed via the list's footer link")).toBe("unsubscribed");
    expect(reasonFromText("Marked as spam")).toBe("complained");
  });
});
