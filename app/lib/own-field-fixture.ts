// A field of the tenant's own for tests of the segment builder (its rows, and the builder as the
// server renders it): labelled from its name, no choices, no default, not retired unless `extra` says.
import type { FieldDefinition } from "~/lib/custom-fields";

export const ownField = (
  name: string,
  type: FieldDefinition["type"],
  extra: Partial<FieldDefinition> = {},
): FieldDefinition => ({
  name,
  label: name.charAt(0).toUpperCase() + name.slice(1),
  type,
  choices: [],
  defaultValue: null,
  builtIn: false,
  retired: false,
  ...extra,
});
