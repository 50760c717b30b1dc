import { describe, expect, it } from "vitest";
import { customerDisplayName, isVisitsHighlighted } from "~/lib/customers";
import { guessMapping, mappingFromForm, missingRequired } from "~/lib/customer-csv";
import { CUSTOMER_MESSAGES, CustomerApiSchema, CustomerFormSchema } from "~/schemas/customer";

const valid = { firstName: "Priya", lastName: "Sharma", email: "Priya@Example.com" };

describe("customer form rules", () => {
  it("requires firstName, lastName and email with the form's messages", () => {
    const r = CustomerFormSchema.safeParse({ firstName: " ", lastName: "", email: "" });
    expect(r.success).toBe(false);
    const messages = Object.fromEntries((r.error?.issues ?? []).map((i) => [i.path[0], i.message]));
    expect(messages).toEqual({
      firstName: CUSTOMER_MESSAGES.firstName,
      lastName: CUSTOMER_MESSAGES.lastName,
      email: CUSTOMER_MESSAGES.email,
    });
    expect(CUSTOMER_MESSAGES.firstName).toBe("First name is required");
  });

  it("rejects a malformed e-mail and lower-cases a good one", () => {
    const bad = CustomerFormSchema.safeParse({ ...valid, email: "priya@" });
    expect(bad.error?.issues[0].message).toBe("Enter a valid email address");
    const good = CustomerFormSchema.parse(valid);
    expect(good.email).toBe("priya@example.com");
  });

  it("keeps phone, address, company and notes optional (empty by default)", () => {
    expect(CustomerFormSchema.parse(valid)).toMatchObject({ phone: "", address: "", company: "", notes: "" });
  });

  it("rejects over-long fields with a message naming the field", () => {
    const r = CustomerFormSchema.safeParse({ ...valid, phone: "9".repeat(41) });
    expect(r.error?.issues[0].message).toBe("Phone must be at most 40 characters");
  });

  it("accepts starting values from /api and refuses bad ones per field", () => {
    expect(
      CustomerApiSchema.parse({ ...valid, totalSpend: 1234.5, visits: 3, lastActive: "2024-05-31" }),
    ).toMatchObject({
      totalSpend: 1234.5,
      visits: 3,
      lastActive: new Date("2024-05-31"),
    });
    const r = CustomerApiSchema.safeParse({ ...valid, totalSpend: -1, visits: 1.5, lastActive: "yesterday-ish" });
    const fields = Object.fromEntries((r.error?.issues ?? []).map((i) => [i.path[0], i.message]));
    expect(fields).toEqual({
      totalSpend: CUSTOMER_MESSAGES.totalSpend,
      visits: CUSTOMER_MESSAGES.visits,
      lastActive: CUSTOMER_MESSAGES.lastActive,
    });
  });
});

describe("list rules", () => {
  it("highlights the Visits chip above 5 only", () => {
    expect(isVisitsHighlighted(5)).toBe(false);
    expect(isVisitsHighlighted(6)).toBe(true);
    expect(isVisitsHighlighted(0)).toBe(false);
  });
  it("names a customer, with the fallback 'No Name'", () => {
    expect(customerDisplayName({ firstName: "Amit", lastName: "Patel" })).toBe("Amit Patel");
    expect(customerDisplayName({ firstName: "", lastName: " " })).toBe("No Name");
  });
});

describe("CSV column guess", () => {
  it("maps common header spellings, each column once", () => {
    expect(
      guessMapping([
        "E-mail Address",
        "First Name",
        "Surname",
        "Mobile",
        "Company Name",
        "Total Spend",
        "Last Seen",
        "Email",
      ]),
    ).toEqual({
      email: 0,
      firstName: 1,
      lastName: 2,
      phone: 3,
      company: 4,
      totalSpend: 5,
      lastActive: 6,
    });
  });
  it("says which required fields have no column", () => {
    expect(missingRequired(guessMapping(["first_name", "phone"]))).toEqual(["lastName", "email"]);
  });
  it("reads a mapping from form fields, '' meaning not imported", () => {
    const form = new Map([
      ["map.email", "2"],
      ["map.firstName", "0"],
      ["map.phone", ""],
    ]);
    expect(mappingFromForm((n) => form.get(n))).toEqual({ email: 2, firstName: 0 });
    expect(mappingFromForm(() => undefined)).toBeUndefined();
  });
});
