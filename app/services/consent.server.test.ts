// @engines sqlite postgres
// Marketing consent on a real database (SQLite, and PostgreSQL in the postgres project): never asked
// until recorded, recorded with its date, source and text, withdrawn by a newer unsubscribe,
// complaint or suppression by hand (not by a bounce), and a recorded withdrawal keeps the address
// out of sends by suppressing it.
import { beforeAll, describe, expect, it } from "vitest";
import { createTestUser, useTestDatabase } from "../../tests/helpers/db";

// eslint-disable-next-line react-hooks/rules-of-hooks -- a test helper named use*, not a React hook
useTestDatabase();

import { suppressions } from "~/models/suppressions/store.server";
import { CustomerApiSchema } from "~/schemas/customer";
import { createCustomer, getCustomer, updateCustomer } from "~/services/customers.server";
import { suppressionOf } from "~/services/suppressions.server";

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
