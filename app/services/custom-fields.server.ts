// Customer fields (docs/decisions/0041-custom-fields-and-tags.md): the tenant's definitions beside
// the built-in ones, and the customers' values of them. Every function takes the tenant first; a
// field of another tenant is "not found". Values are checked against their field's type
// (~/lib/custom-fields) wherever they come from: the customer form, /api, the CSV import.
import { ApiError, notFound } from "~/lib/api.server";
import {
  apiFieldValue,
  BUILT_IN_FIELDS,
  type FieldDefinition,
  type FieldValues,
  isBuiltInField,
  isFieldType,
  MAX_CUSTOM_FIELDS,
  readFieldValue,
} from "~/lib/custom-fields";
import { customFields } from "~/models/custom-fields/store.server";
import type { CsvFieldRow } from "~/models/customers/rows";
import {
  type CustomFieldRow,
  DuplicateFieldName,
  type FieldValueRow,
  type FieldValueWrites,
} from "~/models/custom-fields/rows";
import type { Tx } from "~/models/transaction/store.server";
import { FIELD_MESSAGES, type FieldChangeInput, newFieldDraft, type NewFieldInput } from "~/schemas/custom-field";

/** A field as /api/fields gives it. */
export type FieldDto = {
  name: string;
  label: string;
  type: FieldDefinition["type"];
  choices: string[];
  defaultValue: string | number | boolean | null;
  builtIn: boolean;
  retired: boolean;
};

function parseChoices(text: string): string[] {
  try {
    const list: unknown = JSON.parse(text);
    return Array.isArray(list) ? list.filter((c): c is string => typeof c === "string") : [];
  } catch {
    return [];
  }
}

function toDefinition(row: CustomFieldRow): FieldDefinition {
  return fieldDefinitionOf({ ...row, retired: row.retiredAt !== null });
}

/**
 * A tenant's field as stored (choices as their JSON text), as the product uses it: what the CSV
 * import and export read on their own connection (app/models/customers/) comes through here too.
 */
export function fieldDefinitionOf(row: CsvFieldRow): FieldDefinition {
  return {
    name: row.name,
    label: row.label,
    type: isFieldType(row.type) ? row.type : "text",
    choices: parseChoices(row.choices),
    defaultValue: row.defaultValue,
    builtIn: false,
    retired: row.retired,
  };
}

export function toFieldDto(field: FieldDefinition): FieldDto {
  return {
    name: field.name,
    label: field.label,
    type: field.type,
    choices: field.choices,
    defaultValue: field.defaultValue === null ? null : apiFieldValue(field.type, field.defaultValue),
    builtIn: field.builtIn,
    retired: field.retired,
  };
}

/** The tenant's fields: the built-in ones first, then its own in their order (retired ones too). */
export async function fieldDefinitions(userId: string): Promise<FieldDefinition[]> {
  const rows = await customFields.listFields(userId);
  return [...BUILT_IN_FIELDS, ...rows.map(toDefinition)];
}

/** The tenant's fields by name. */
export async function fieldCatalog(userId: string): Promise<Map<string, FieldDefinition>> {
  return new Map((await fieldDefinitions(userId)).map((f) => [f.name, f]));
}

/** One of the tenant's fields, built-in or its own; 404 when it has none of that name. */
export async function getField(userId: string, name: string): Promise<FieldDefinition> {
  const builtIn = BUILT_IN_FIELDS.find((f) => f.name === name);
  if (builtIn) return builtIn;
  const row = await customFields.findField(userId, name);
  if (!row) throw notFound("Field");
  return toDefinition(row);
}

/** The default given with a field, checked against its type and choices; its stored text. */
function checkedDefault(field: FieldDefinition, raw: unknown): string | null {
  const result = readFieldValue(field, raw);
  if (!result.ok) {
    throw new ApiError("bad_request", `defaultValue ${result.message}`, { defaultValue: `Default ${result.message}` });
  }
  return result.value?.value ?? null;
}

export async function createField(userId: string, input: NewFieldInput): Promise<FieldDto> {
  const existing = await customFields.listFields(userId);
  if (existing.length >= MAX_CUSTOM_FIELDS) {
    throw new ApiError("bad_request", `A workspace may define at most ${MAX_CUSTOM_FIELDS} fields`);
  }
  const draft = newFieldDraft(input);
  const defaultValue = input.defaultValue === undefined ? null : checkedDefault(draft, input.defaultValue);
  try {
    const row = await customFields.createField(userId, { ...draft, defaultValue });
    return toFieldDto(toDefinition(row));
  } catch (error) {
    if (error instanceof DuplicateFieldName) {
      throw new ApiError("conflict", error.message, { name: error.message });
    }
    throw error;
  }
}

/** Built-in fields are the product's: they cannot be renamed, retired or deleted. */
function refuseBuiltIn(name: string): void {
  if (isBuiltInField(name)) {
    throw new ApiError("bad_request", `"${name}" is a built-in field and cannot be changed or deleted`);
  }
}

export async function updateField(userId: string, name: string, input: FieldChangeInput): Promise<FieldDto> {
  refuseBuiltIn(name);
  const field = await getField(userId, name);
  if (input.choices !== undefined) {
    // In the words a new field's choices are refused with (NewFieldSchema).
    const problem =
      field.type !== "choice"
        ? FIELD_MESSAGES.choicesOnlyForChoice
        : input.choices.length === 0
          ? FIELD_MESSAGES.choices
          : null;
    if (problem) throw new ApiError("bad_request", problem, { choices: problem });
  }
  const next: FieldDefinition = { ...field, choices: input.choices ?? field.choices };
  const defaultValue = input.defaultValue === undefined ? undefined : checkedDefault(next, input.defaultValue);
  const change = { label: input.label, choices: input.choices, defaultValue, retired: input.retired };
  // A move alone changes no column: the field is read, not updated (an update of nothing counts no row).
  const changesColumns = Object.values(change).some((v) => v !== undefined);
  const row = changesColumns
    ? await customFields.updateField(userId, name, change)
    : await customFields.findField(userId, name);
  if (!row) throw notFound("Field");
  if (input.position !== undefined) {
    const order = (await customFields.listFields(userId)).map((f) => f.name).filter((n) => n !== name);
    order.splice(Math.min(input.position - 1, order.length), 0, name);
    await customFields.orderFields(userId, order);
  }
  return toFieldDto(toDefinition(row));
}

/** Deletes a field and every value of it; returns how many customers held one. */
export async function deleteField(userId: string, name: string): Promise<{ valuesDeleted: number }> {
  refuseBuiltIn(name);
  const valuesDeleted = await customFields.countValues(userId, name);
  if (!(await customFields.deleteField(userId, name))) throw notFound("Field");
  return { valuesDeleted };
}

/** How many of the tenant's customers hold a value of the field (the retire and delete dialogs say it). */
export async function fieldValueCount(userId: string, name: string): Promise<number> {
  return customFields.countValues(userId, name);
}

// ---------------------------------------------------------------------------------------------
// Values

/** Stored values as /api gives them, by name; a value of a field deleted meanwhile is left out. */
export function toFieldValues(rows: readonly FieldValueRow[], catalog: Map<string, FieldDefinition>): FieldValues {
  const values: FieldValues = {};
  for (const row of rows) {
    const field = catalog.get(row.name);
    if (field) values[row.name] = apiFieldValue(field.type, row.value);
  }
  return values;
}

/** The built-in fields by name: every tenant's, without a read. */
const BUILT_IN_CATALOG = new Map(BUILT_IN_FIELDS.map((f) => [f.name, f]));

/**
 * One customer's values, by name. The tenant's own fields are read only when the customer holds a
 * value of one (a customer of the built-in fields alone, or of none, costs the one read of values):
 * this is on every customer read of /api and the customer page.
 */
export async function readCustomerFieldValues(userId: string, customerId: string): Promise<FieldValues> {
  const rows = await customFields.readCustomerValues(userId, customerId);
  const catalog = rows.every((r) => isBuiltInField(r.name)) ? BUILT_IN_CATALOG : await fieldCatalog(userId);
  return toFieldValues(rows, catalog);
}

/**
 * `fields: { … }` of a create or an update checked against the tenant's fields: each value of its
 * field's type, no unknown or retired field. On a create, a field left out takes its default.
 * Throws a 400 naming the field (`fields.tier: must be one of: gold, silver`).
 */
export function checkFieldValues(
  raw: Record<string, unknown>,
  catalog: Map<string, FieldDefinition>,
  creating: boolean,
): FieldValueWrites {
  const writes: FieldValueWrites = { set: [], clear: [] };
  for (const [name, value] of Object.entries(raw)) {
    const field = catalog.get(name);
    const path = `fields.${name}`;
    if (!field) {
      throw new ApiError("bad_request", `${path}: unknown field "${name}" (define it first: POST /api/fields)`, {
        [path]: "Unknown field",
      });
    }
    if (field.retired) {
      throw new ApiError("bad_request", `${path}: the field "${field.label}" is retired`, { [path]: "Retired field" });
    }
    const result = readFieldValue(field, value);
    if (!result.ok)
      throw new ApiError("bad_request", `${path}: ${field.label} ${result.message}`, { [path]: result.message });
    if (result.value) writes.set.push({ name, stored: result.value });
    else writes.clear.push(name);
  }
  if (creating) {
    for (const field of catalog.values()) {
      if (field.defaultValue === null || field.retired || Object.hasOwn(raw, field.name)) continue;
      const result = readFieldValue(field, field.defaultValue);
      if (result.ok && result.value) writes.set.push({ name: field.name, stored: result.value });
    }
  }
  return writes;
}

/** Writes checked values of one customer (in the caller's transaction when given). */
export async function writeCustomerFieldValues(
  userId: string,
  customerId: string,
  writes: FieldValueWrites,
  tx?: Tx,
): Promise<void> {
  await customFields.writeCustomerValues(userId, customerId, writes, tx);
}
