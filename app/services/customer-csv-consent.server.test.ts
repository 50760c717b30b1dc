// @engines sqlite postgres
// The customers CSV's consent columns (consent, consentDate, consentSource, consentText): any
// spelling of their headers, a bad status or date a bad row naming the column (never a refusal),
// "unsubscribed" suppressing the address as /api does, a blank cell or no column leaving it.
import { beforeAll, describe, expect, it } from "vitest";
import { csv, customerOf } from "../../tests/helpers/customer-csv";
import { createTestUser, useTestDatabase } from "../../tests/helpers/db";

// eslint-disable-next-line react-hooks/rules-of-hooks -- a test helper named use*, not a React hook
useTestDatabase();

import type { User } from "~/generated/prisma/client";
import { CustomerApiSchema } from "~/schemas/customer";
import { CONSENT_STATUS_MISSING } from "~/services/customer-import-consents.server";
import { importCustomers } from "~/services/customer-import.server";
import { createCustomer, getCustomer } from "~/services/customers.server";
import { suppressionOf } from "~/services/suppressions.server";

describe("consent columns", () => {
  let user: User;
  beforeAll(async () => {
    user = await createTestUser("ConsentColumns");
  });

  it("reads them in any case and spelling; a bad status or date is a bad row naming its column", async () => {
    const file = [
      "firstName,lastName,email,Consent,Consent Date,consent_source,CONSENTTEXT",
      "Tara,Singh,tara@example.com,Subscribed,2025-03-01,Fair stall,Send me news",
      "Neha,Kapoor,neha@example.com,maybe,2025-03-01,,",
      "Arjun,Reddy,arjun@example.com,subscribed,31/03/2025,,",
      "Om,Das,om@example.com,unsubscribed,2999-01-01,,",
      "Sana,Iqbal,sana@example.com,,2025-03-01,Fair stall,",
      ",Verma,verma@example.com,sometimes,,,",
      "Lata,Roy,lata@example.com,Never asked,,,",
    ].join("\n");
    const result = await importCustomers(user.id, csv(file));
    expect(result).toMatchObject({
      rows: 7,
      created: 2,
      failed: 5,
      consent: true,
      consentRecorded: 1,
      unknownColumns: [],
    });
    const date = "consentDate must be a date like 2024-05-31 or an ISO date-time";
    expect(result.errors).toEqual([
      { line: 3, email: "neha@example.com", reason: "consent must be one of: subscribed, unsubscribed, never_asked" },
      { line: 4, email: "arjun@example.com", reason: date },
      { line: 5, email: "om@example.com", reason: date },
      { line: 6, email: "sana@example.com", reason: CONSENT_STATUS_MISSING },
      {
        line: 7,
        email: "verma@example.com",
        reason: "First name is required; consent must be one of: subscribed, unsubscribed, never_asked",
      },
    ]);
    expect(CONSENT_STATUS_MISSING).toBe(
      "consent is empty, but the row has a consentDate, consentSource or consentText",
    );
    expect((await customerOf(user.id, "tara@example.com")).consent).toEqual({
      status: "subscribed",
      at: "2025-03-01T00:00:00.000Z",
      source: "Fair stall",
      text: "Send me news",
    });
    expect((await customerOf(user.id, "lata@example.com")).consent).toEqual({
      status: "never_asked",
      at: null,
      source: "",
      text: "",
    });
    // A bad row writes nothing: Om's address is not suppressed.
    expect(await suppressionOf(user.id, "om@example.com")).toBeNull();
  });

  it("refuses a source or text too long, or a source of two lines, naming the column", async () => {
    const file = [
      "email,firstName,lastName,consent,consentSource,consentText",
      `long@example.com,Long,One,subscribed,${"s".repeat(201)},`,
      `text@example.com,Text,One,subscribed,,${"t".repeat(2001)}`,
      'lines@example.com,Two,Lines,subscribed,"Shop\nFair",',
    ].join("\n");
    const result = await importCustomers(user.id, csv(file));
    expect(result).toMatchObject({ imported: 0, failed: 3 });
    expect(result.errors.map((e) => e.reason)).toEqual([
      "consentSource must be at most 200 characters",
      "consentText must be at most 2000 characters",
      "consentSource cannot contain line breaks or other control characters",
    ]);
  });

  it("'unsubscribed' suppresses the address as /api does; a blank cell or no consent column leaves consent as it is", async () => {
    const isha = await createCustomer(
      user.id,
      CustomerApiSchema.parse({
        firstName: "Isha",
        lastName: "Jain",
        email: "isha@example.com",
        consent: { status: "subscribed", at: "2025-01-01", source: "Checkout", text: "Offers please" },
      }),
    );
    const consentOf = async () => (await getCustomer(user.id, isha.id)).consent;
    const given = await consentOf();

    const without = await importCustomers(user.id, csv("email,firstName,lastName\nisha@example.com,Isha,J\n"));
    expect(without).toMatchObject({ updated: 1, consent: false, consentRecorded: 0 });
    expect(await consentOf()).toEqual(given);

    const blank = await importCustomers(
      user.id,
      csv("email,firstName,lastName,consent,consentDate,consentSource,consentText\nisha@example.com,Isha,J,,,,\n"),
    );
    expect(blank).toMatchObject({ updated: 1, failed: 0, consent: true, consentRecorded: 0 });
    expect(await consentOf()).toEqual(given);

    // Unsubscribed by the import, and through /api for another customer: the same suppression.
    const viaImport = await importCustomers(
      user.id,
      csv("email,firstName,lastName,consent,consentSource\nisha@example.com,Isha,J,unsubscribed,Phone call\n"),
    );
    expect(viaImport).toMatchObject({ updated: 1, consentRecorded: 1 });
    expect(await consentOf()).toMatchObject({ status: "unsubscribed", source: "Phone call", text: "" });
    await createCustomer(
      user.id,
      CustomerApiSchema.parse({
        firstName: "Api",
        lastName: "One",
        email: "api-optout@example.com",
        consent: { status: "unsubscribed", source: "Phone call" },
      }),
    );
    const [byImport, byApi] = await Promise.all([
      suppressionOf(user.id, "isha@example.com"),
      suppressionOf(user.id, "api-optout@example.com"),
    ]);
    expect(byImport).toMatchObject({ reason: "manual", details: "Consent recorded as unsubscribed" });
    expect({ ...byImport, email: "", createdAt: null }).toEqual({ ...byApi, email: "", createdAt: null });

    // A customer the import adds as unsubscribed is suppressed too.
    await importCustomers(
      user.id,
      csv("email,firstName,lastName,consent\nnew-optout@example.com,New,One,unsubscribed\n"),
    );
    expect(await suppressionOf(user.id, "new-optout@example.com")).toMatchObject({ reason: "manual" });
  });

  it("the last row of an e-mail stands; 'never_asked' forgets a recorded consent", async () => {
    await createCustomer(
      user.id,
      CustomerApiSchema.parse({
        firstName: "Kiran",
        lastName: "Rao",
        email: "kiran@example.com",
        consent: { status: "subscribed", source: "Checkout" },
      }),
    );
    const file = [
      "email,firstName,lastName,consent,consentDate",
      "kiran@example.com,Kiran,Rao,unsubscribed,2025-05-01",
      "KIRAN@example.com,Kiran,Rao,subscribed,2025-06-01",
      "ravi@example.com,Ravi,Rao,subscribed,2025-06-01",
      "ravi@example.com,Ravi,Rao,never_asked,",
    ].join("\n");
    expect(await importCustomers(user.id, csv(file))).toMatchObject({ failed: 0, consentRecorded: 1 });
    expect((await customerOf(user.id, "kiran@example.com")).consent).toEqual({
      status: "subscribed",
      at: "2025-06-01T00:00:00.000Z",
      source: "",
      text: "",
    });
    expect(await suppressionOf(user.id, "kiran@example.com")).toBeNull();
    expect((await customerOf(user.id, "ravi@example.com")).consent.status).toBe("never_asked");

    await importCustomers(user.id, csv("email,firstName,lastName,consent\nkiran@example.com,Kiran,Rao,never asked\n"));
    expect((await customerOf(user.id, "kiran@example.com")).consent.status).toBe("never_asked");

    // Far apart in a long file too (more e-mails between them than a page of consents): the earlier
    // "unsubscribed" row neither stands nor suppresses the address.
    const between = Array.from({ length: 600 }, (_, i) => `many-${i}@example.com,Many,${i},subscribed`);
    const far = [
      "email,firstName,lastName,consent",
      "kiran@example.com,Kiran,Rao,unsubscribed",
      ...between,
      "kiran@example.com,Kiran,Rao,subscribed",
    ].join("\n");
    expect(await importCustomers(user.id, csv(far))).toMatchObject({ failed: 0, consentRecorded: 601 });
    expect((await customerOf(user.id, "kiran@example.com")).consent.status).toBe("subscribed");
    expect(await suppressionOf(user.id, "kiran@example.com")).toBeNull();
  });

  it("without a consent column, a consentDate column is an unknown column", async () => {
    const result = await importCustomers(
      user.id,
      csv("email,firstName,lastName,consentDate\nnodate@example.com,No,Date,2025-01-01\n"),
      { createFields: true },
    );
    expect(result).toMatchObject({ created: 1, consent: false, unknownColumns: ["consentDate"], createdFields: [] });
  });
});
