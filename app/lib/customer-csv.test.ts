// The customers CSV's extra columns: which are fields (by name or label, any case), which is the
// tags column, which the consent's, which the export's own the import passes over, and which are
// unknown.
import { describe, expect, it } from "vitest";
import { BUILT_IN_FIELDS } from "~/lib/custom-fields";
import { extraColumns, guessMapping } from "~/lib/customer-csv";

const fields = [
  ...BUILT_IN_FIELDS,
  { name: "tier", label: "Loyalty tier", retired: false },
  { name: "old_code", label: "Old code", retired: true },
];

describe("extraColumns", () => {
  it("sorts the columns the mapping leaves out into fields, tags, passed over and unknown", () => {
    const header = [
      "id",
      "email",
      "First Name",
      "Last Name",
      "City",
      " loyalty TIER ",
      "TAGS",
      "createdAt",
      "Shoe size",
      "",
      "old_code",
    ];
    const mapping = guessMapping(header);
    expect(mapping).toEqual({ email: 1, firstName: 2, lastName: 3 });
    const extra = extraColumns(header, mapping, fields);
    expect(extra.fields.map((c) => [c.index, c.field.name])).toEqual([
      [4, "city"],
      [5, "tier"],
    ]);
    expect(extra.tags).toBe(6);
    expect(extra.unknown).toEqual([
      { index: 8, header: "Shoe size" },
      { index: 10, header: "old_code" },
    ]);
  });

  it("passes over an export's id and createdAt even where a field is labelled so", () => {
    const labelled = [...fields, { name: "external_id", label: "ID", retired: false }];
    const extra = extraColumns(["ID", "email", "Created At"], { email: 1 }, labelled);
    expect(extra).toEqual({ fields: [], tags: undefined, unknown: [] });
  });

  it("gives a field its first column only, and leaves a column the mapping uses to the customer", () => {
    const extra = extraColumns(["a", "city", "City", "tags", "tags"], { address: 1, email: 0 }, fields);
    expect(extra.fields.map((c) => c.index)).toEqual([2]);
    expect(extra.tags).toBe(3);
    expect(extra.unknown).toEqual([{ index: 4, header: "tags" }]);
  });

  it("finds the consent's columns in any case and spelling, before a field labelled so; without a consent column the others are headers like any other", () => {
    const labelled = [...fields, { name: "consent_note", label: "Consent text", retired: false }];
    const header = ["email", "Consent Text", "CONSENT", "consent_date", "consentSource", "consent"];
    const extra = extraColumns(header, { email: 0 }, labelled);
    expect(extra.consent).toEqual({ status: 2, at: 3, source: 4, text: 1 });
    expect(extra.fields).toEqual([]);
    expect(extra.unknown).toEqual([{ index: 5, header: "consent" }]);

    const orphan = extraColumns(["email", "tier", "consentDate", "consent text"], { email: 0 }, labelled);
    expect(orphan.consent).toBeUndefined();
    expect(orphan.fields.map((c) => [c.index, c.field.name])).toEqual([
      [1, "tier"],
      [3, "consent_note"],
    ]);
    expect(orphan.unknown).toEqual([{ index: 2, header: "consentDate" }]);
  });
});
