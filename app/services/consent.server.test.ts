// @engines sqlite postgres
// Marketing consent on a real database (SQLite, and PostgreSQL in the postgres project): never asked
// until recorded, recorded with its date, source and text, withdrawn by a newer unsubscribe,
// complaint or suppression by hand (not by a bounce), and a recorded withdrawal keeps the address
// out of sends by suppressing it while it reads with its own date, source and text. A change by
// hand (the customer page) goes the same way; what counts as no change for an import.
import { beforeAll, describe, expect, it } from "vitest";
import { createTestUser, useTestDatabase } from "../../tests/helpers/db";

// eslint-disable-next-line react-hooks/rules-of-hooks -- a test helper named use*, not a React hook
useTestDatabase();

import { suppressions } from "~/models/suppressions/store.server";
import { CustomerApiSchema } from "~/schemas/customer";
import { consentUnchanged } from "~/services/consent.server";
import { createCustomer, getCustomer, setCustomerConsent, updateCustomer } from "~/services/customers.server";
import { resubscribe, suppressionOf } from "~/services/suppressions.server";

let userId: string;

beforeAll(async () => {
  userId = (await createTestUser("Consent")).id;
});

const person = (email: string, over: Record<string, unknown> = {}) =>
  CustomerApiSchema.parse({ firstName: "Kavya", lastName: "Nair", email, ...over });

describe("consent", () => {
  it("is never asked until recorded, then reads back with its date, source and text", async () => {
    const c = await createCustomer(userId, person("kavya@example.com"));
    expect(c.consent).toEqual({ status: "never_asked", at: null, source: "", text: "" });
    const given = await updateCustomer(
      userId,
      c.id,
      person("kavya@example.com", {
        consent: { status: "subscribed", at: "2026-01-15", source: "Checkout", text: "Send me offers" },
      }),
    );
    expect(given.consent).toEqual({
      status: "subscribed",
      at: "2026-01-15T00:00:00.000Z",
      source: "Checkout",
      text: "Send me offers",
    });
    // An update that leaves consent out keeps it.
    expect((await updateCustomer(userId, c.id, person("kavya@example.com", { lastName: "N" }))).consent.status).toBe(
      "subscribed",
    );
  });

  it("a newer unsubscribe or complaint withdraws it; a bounce does not", async () => {
    const a = await createCustomer(
      userId,
      person("unsub@example.com", { consent: { status: "subscribed", at: "2026-01-01", source: "Import" } }),
    );
    await suppressions.addSuppressions(userId, [{ email: "unsub@example.com", reason: "unsubscribed" }]);
    expect((await getCustomer(userId, a.id)).consent).toMatchObject({
      status: "unsubscribed",
      source: "Unsubscribe link",
    });

    const b = await createCustomer(
      userId,
      person("bounced@example.com", { consent: { status: "subscribed", at: "2026-01-01", source: "Import" } }),
    );
    await suppressions.addSuppressions(userId, [{ email: "bounced@example.com", reason: "hard-bounced" }]);
    expect((await getCustomer(userId, b.id)).consent).toMatchObject({ status: "subscribed", source: "Import" });
  });

  it("recording unsubscribed suppresses the address, so no send reaches it", async () => {
    const c = await createCustomer(
      userId,
      person("optout@example.com", { consent: { status: "unsubscribed", source: "Phone call" } }),
    );
    expect(c.consent).toMatchObject({ status: "unsubscribed" });
    expect(await suppressionOf(userId, "optout@example.com")).toMatchObject({ reason: "manual" });
  });

  it("recorded as unsubscribed, reads with its own date, source and text, not those of the suppression it made", async () => {
    const c = await createCustomer(
      userId,
      person("phoned@example.com", {
        consent: { status: "unsubscribed", at: "2026-02-01", source: "Phone call", text: "Stop the offers" },
      }),
    );
    const reads = {
      status: "unsubscribed",
      at: "2026-02-01T00:00:00.000Z",
      source: "Phone call",
      text: "Stop the offers",
    };
    expect(c.consent).toEqual(reads);
    expect((await getCustomer(userId, c.id)).consent).toEqual(reads);
    expect(await suppressionOf(userId, "phoned@example.com")).toMatchObject({ reason: "manual" });
  });

  it("refuses a status it does not know and a date in the future", () => {
    expect(
      CustomerApiSchema.safeParse({
        firstName: "K",
        lastName: "N",
        email: "x@example.com",
        consent: { status: "maybe" },
      }).success,
    ).toBe(false);
    const future = CustomerApiSchema.safeParse({
      firstName: "K",
      lastName: "N",
      email: "x@example.com",
      consent: { status: "subscribed", at: "2999-01-01" },
    });
    expect(future.success).toBe(false);
  });
});

describe("a change by hand (setCustomerConsent)", () => {
  it("records the status now from the customer page, with the text; unsubscribed suppresses the address", async () => {
    const c = await createCustomer(userId, person("page@example.com"));
    const before = Date.now();
    const given = await setCustomerConsent(userId, c.id, { status: "subscribed", text: "Said yes at the counter" });
    expect(given).toMatchObject({
      email: "page@example.com",
      suppressed: false,
      consent: { status: "subscribed", source: "Customer page", text: "Said yes at the counter" },
    });
    expect(Date.parse(given.consent.at!)).toBeGreaterThanOrEqual(before - 1000);
    expect((await getCustomer(userId, c.id)).consent).toEqual(given.consent);

    const withdrawn = await setCustomerConsent(userId, c.id, { status: "unsubscribed" });
    expect(withdrawn).toMatchObject({
      suppressed: true,
      consent: { status: "unsubscribed", source: "Customer page", text: "" },
    });
    expect(await suppressionOf(userId, "page@example.com")).toMatchObject({
      reason: "manual",
      details: "Consent recorded as unsubscribed",
    });

    // Subscribed again: the consent says so, the suppression list still keeps the address out until resubscribed.
    const again = await setCustomerConsent(userId, c.id, { status: "subscribed" });
    expect(again).toMatchObject({ suppressed: true, consent: { status: "subscribed", source: "Customer page" } });
    await resubscribe(userId, "page@example.com");
    expect((await setCustomerConsent(userId, c.id, { status: "never_asked" })).consent).toEqual({
      status: "never_asked",
      at: null,
      source: "",
      text: "",
    });
  });

  it("does not reach another user's customer, or one that is not there", async () => {
    const other = await createTestUser("Consent Other");
    const theirs = await createCustomer(other.id, person("theirs@example.com"));
    await expect(setCustomerConsent(userId, theirs.id, { status: "unsubscribed" })).rejects.toMatchObject({
      status: 404,
    });
    await expect(setCustomerConsent(userId, "not-an-id", { status: "subscribed" })).rejects.toMatchObject({
      status: 404,
    });
    expect((await getCustomer(other.id, theirs.id)).consent.status).toBe("never_asked");
    expect(await suppressionOf(other.id, "theirs@example.com")).toBeNull();
  });
});

describe("consentUnchanged (what an import leaves alone)", () => {
  const now = { status: "subscribed", at: "2026-01-15T10:30:00.000Z", source: "Checkout", text: "Offers" } as const;
  it("is the same status, source and text, and the same date where one is given", () => {
    expect(consentUnchanged({ status: "subscribed", source: "Checkout", text: "Offers" }, now)).toBe(true);
    expect(
      consentUnchanged({ status: "subscribed", at: new Date(now.at), source: "Checkout", text: "Offers" }, now),
    ).toBe(true);
    expect(
      consentUnchanged({ status: "subscribed", at: new Date("2026-01-16"), source: "Checkout", text: "Offers" }, now),
    ).toBe(false);
    expect(consentUnchanged({ status: "subscribed", source: "Checkout" }, now)).toBe(false);
    expect(consentUnchanged({ status: "unsubscribed", source: "Checkout", text: "Offers" }, now)).toBe(false);
    expect(consentUnchanged({ status: "never_asked" }, now)).toBe(false);
    expect(consentUnchanged({ status: "never_asked", text: "ignored" }, { ...now, status: "never_asked" })).toBe(true);
  });
});
