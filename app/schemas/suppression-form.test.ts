import { describe, expect, it } from "vitest";
import {
  AddressListSchema,
  MAX_ADDRESSES_AT_ONCE,
  MAX_FORM_CHARS,
  SUPPRESSION_FORM_MESSAGES,
  badAddressesMessage,
  splitAddresses,
} from "./suppression-form";
import {
  MAX_EMAILS_PER_REQUEST,
  SuppressionEmailListSchema,
  invalidEmailsMessage,
} from "~/services/suppressions.server";
import { BODY_LIMITS } from "../../server/app";

const messageOf = (text: string) => {
  const parsed = AddressListSchema.safeParse(text);
  return parsed.success ? null : parsed.error.issues.map((i) => i.message);
};

describe("the Add addresses form", () => {
  it("reads one address a line or separated by commas, lower case, each once", () => {
    expect(splitAddresses("Asha@Example.in\nravi@example.in, meera@example.in;\r\n\n asha@example.in  ")).toEqual([
      "Asha@Example.in",
      "ravi@example.in",
      "meera@example.in",
      "asha@example.in",
    ]);
    expect(
      AddressListSchema.parse("Asha@Example.in\nravi@example.in, meera@example.in;\r\n\n asha@example.in  "),
    ).toEqual(["asha@example.in", "ravi@example.in", "meera@example.in"]);
  });

  it("asks for an address when there is none", () => {
    expect(messageOf("")).toEqual([SUPPRESSION_FORM_MESSAGES.required]);
    expect(messageOf(" \n , ")).toEqual([SUPPRESSION_FORM_MESSAGES.required]);
  });

  it("names the addresses that are not valid", () => {
    expect(messageOf("good@x.in\nkavya@")).toEqual([
      '"kavya@" is not a valid email address. Correct it or leave it out and try again.',
    ]);
    expect(messageOf("a@, b, c@x.in, d@")).toEqual([
      '3 entries are not valid email addresses: "a@", "b", "d@". Correct them or leave them out and try again.',
    ]);
    expect(badAddressesMessage(["1", "2", "3", "4", "5", "6", "7"])).toBe(
      '7 entries are not valid email addresses: "1", "2", "3", "4", "5" and 2 more. Correct them or leave them out and try again.',
    );
  });

  it("takes at most a thousand addresses and 20,000 characters at a time", () => {
    const many = Array.from({ length: MAX_ADDRESSES_AT_ONCE + 1 }, (_, i) => `p${i}@x.in`).join("\n");
    expect(many.length).toBeLessThan(MAX_FORM_CHARS);
    expect(messageOf(many)).toEqual([SUPPRESSION_FORM_MESSAGES.tooMany]);
    expect(AddressListSchema.parse(many.split("\n").slice(1).join("\n"))).toHaveLength(MAX_ADDRESSES_AT_ONCE);
    const long = `${"a".repeat(MAX_FORM_CHARS)}@x.in`;
    expect(messageOf(long)).toEqual([SUPPRESSION_FORM_MESSAGES.tooLong]);
  });

  it("fits a page's form body (64 KiB) at its longest, URL-encoded", () => {
    const address = "ab@cd.in";
    const text = Array.from({ length: Math.floor(MAX_FORM_CHARS / (address.length + 1)) }, () => address).join(",");
    const body = new URLSearchParams({ intent: "add", emails: text }).toString();
    expect(body.length).toBeLessThan(BODY_LIMITS.form);
  });
});

describe("the form and the service", () => {
  it("say the same about bad and too many addresses", () => {
    for (const bad of [["kavya@"], ["a@", "b", "d@"], ["1", "2", "3", "4", "5", "6", "7"]])
      expect(badAddressesMessage(bad)).toBe(invalidEmailsMessage(bad));
    expect(MAX_ADDRESSES_AT_ONCE).toBeLessThanOrEqual(MAX_EMAILS_PER_REQUEST);
    expect(SuppressionEmailListSchema.safeParse([" "]).error?.issues[0]?.message).toBe(
      SUPPRESSION_FORM_MESSAGES.required,
    );
  });
});
