// The tenant's field definitions and the customers' values as stored (CustomField,
// CustomerFieldValue; docs/decisions/0041-custom-fields-and-tags.md). Values are keyed by the
// field's name, built-in fields (no CustomField row) and custom ones alike.
import type { Prisma } from "~/generated/prisma/client";
import type { StoredValue } from "~/lib/custom-fields";

/** One CustomField row. */
export type CustomFieldRow = Prisma.CustomFieldGetPayload<object>;

/** What a new field stores. */
export type NewCustomField = {
  name: string;
  label: string;
  type: string;
  choices: string[];
  defaultValue: string | null;
};

/** What a change of a field may store (its name and type never change). */
export type CustomFieldChange = {
  label?: string;
  choices?: string[];
  defaultValue?: string | null;
  retired?: boolean;
};

/** One stored value of a customer: the field's name and the canonical text. */
export type FieldValueRow = { name: string; value: string };

/** One stored value with its customer (the export reads a slice of customers' values at once). */
export type CustomerFieldValueRow = FieldValueRow & { customerId: string };

/** A customer's values to write: set these (by name), clear those. */
export type FieldValueWrites = { set: { name: string; stored: StoredValue }[]; clear: string[] };

/** The tenant already has a field of this name (the ("userId", "name") unique index). */
export class DuplicateFieldName extends Error {
  constructor(name: string) {
    super(`A field named "${name}" already exists`);
  }
}

/** The values of one customer, by name: one statement on either engine ($1/$2 or ?). */
export const customerValuesSql = (p: (n: number) => string) =>
  `SELECT "name", "value" FROM "CustomerFieldValue" WHERE "customerId" = ${p(1)} AND "userId" = ${p(2)}`;
