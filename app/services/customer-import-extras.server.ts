// The field and tags columns of a customer CSV import: which of the file's other columns are the
// tenant's fields, its tags or unknown (planExtras(), from the header; with `createFields` an unknown
// column becomes a new text field), each row's cells checked with the field's rules and the tags'
// (readExtras(), staged beside the row as JSON), the defaults a new customer takes of the fields the
// file has no column for, and the planned fields made once the file has parsed.
import { importedCell } from "~/lib/csv-cells";
import {
  BUILT_IN_FIELDS,
  fieldNameFrom,
  fieldNameProblem,
  type FieldDefinition,
  MAX_CUSTOM_FIELDS,
  MAX_FIELD_LABEL,
  readFieldValue,
} from "~/lib/custom-fields";
import { type ColumnMapping, type ConsentColumns, extraColumns } from "~/lib/customer-csv";
import { newId } from "~/lib/id";
import { readTagCell, tagKey } from "~/lib/tags";
import type { StagedFieldValue, StagedTag } from "~/models/customers/rows";
import { customerCsv } from "~/models/customers/csv/store.server";
import type { AnyConnection } from "~/models/transaction/store.server";
import { CONTROL_CHARACTERS, singleLineMessage } from "~/schemas/text";
import { fieldDefinitionOf } from "~/services/custom-fields.server";

/** A field cell checked: the value to stage, or why the row is bad (naming the field). */
type CheckedCell = { value: StagedFieldValue } | { reason: string };
/** A field column's cells checked so far, by text (at most MEMO_CELLS kept). */
type CellMemo = Map<string, CheckedCell>;
/**
 * Cells of one column whose checks are kept: a column's values repeat (cities, a tier, a time zone,
 * whose check builds an Intl.DateTimeFormat, ~0.1 ms: a third of an import of 20,000 rows before).
 */
const MEMO_CELLS = 10_000;

function checkCell(field: FieldDefinition, cell: string): CheckedCell {
  // A control character (a NUL above all) has no place in a one-line value.
  if (CONTROL_CHARACTERS.test(cell)) return { reason: singleLineMessage(field.label) };
  const read = readFieldValue(field, cell);
  if (!read.ok) return { reason: `${field.label} ${read.message}` };
  return { value: read.value ? [read.value.value, read.value.textKey, read.value.numberValue] : null };
}

/** What the file's columns beyond the customer's own hold, decided from its header. */
export type ExtrasPlan = {
  fields: { index: number; field: FieldDefinition; memo: CellMemo }[];
  tags: number | undefined;
  /** The consent's columns: read beside the row, not staged. */
  consent: ConsentColumns | undefined;
  unknown: string[];
  /** Text fields to make from unknown columns once the file has parsed. */
  creating: FieldDefinition[];
};

/** The tenant's fields, built-in ones first, as the import's connection reads them. */
export async function tenantFields(connection: AnyConnection, userId: string): Promise<FieldDefinition[]> {
  const rows = await customerCsv.readCsvFields(connection, userId);
  return [...BUILT_IN_FIELDS, ...rows.map(fieldDefinitionOf)];
}

const labelFrom = (header: string, name: string) =>
  header.length <= MAX_FIELD_LABEL && !CONTROL_CHARACTERS.test(header) ? header : name;

/** Sorts the header's other columns (~/lib/customer-csv); with `create`, plans a text field for each unknown one it can. */
export function planExtras(
  header: readonly string[],
  mapping: ColumnMapping,
  fields: readonly FieldDefinition[],
  create: boolean,
): ExtrasPlan {
  const extra = extraColumns(header, mapping, fields);
  const plan: ExtrasPlan = {
    fields: extra.fields.map((c) => ({ ...c, memo: new Map() })),
    tags: extra.tags,
    consent: extra.consent,
    unknown: [],
    creating: [],
  };
  const taken = new Set(fields.map((f) => f.name));
  let room = MAX_CUSTOM_FIELDS - fields.filter((f) => !f.builtIn).length;
  for (const column of extra.unknown) {
    const name = create ? fieldNameFrom(column.header) : null;
    if (name === null || fieldNameProblem(name) !== null || taken.has(name) || room <= 0) {
      plan.unknown.push(column.header);
      continue;
    }
    const field: FieldDefinition = {
      name,
      label: labelFrom(column.header, name),
      type: "text",
      choices: [],
      defaultValue: null,
      builtIn: false,
      retired: false,
    };
    taken.add(name);
    room -= 1;
    plan.creating.push(field);
    plan.fields.push({ index: column.index, field, memo: new Map() });
  }
  return plan;
}

/**
 * One row's field and tags cells, checked: the values to stage (JSON, or null without such
 * columns), or the reasons the row is bad, each naming its field.
 */
export function readExtras(
  plan: ExtrasPlan,
  record: readonly string[],
): { fields: string | null; tags: string | null } | { reasons: string[] } {
  const reasons: string[] = [];
  let fields: string | null = null;
  if (plan.fields.length > 0) {
    const values: Record<string, StagedFieldValue> = {};
    for (const { index, field, memo } of plan.fields) {
      const cell = importedCell(record[index] ?? "");
      let read = memo.get(cell);
      if (read === undefined) {
        read = checkCell(field, cell);
        if (memo.size < MEMO_CELLS) memo.set(cell, read);
      }
      if ("reason" in read) reasons.push(read.reason);
      else values[field.name] = read.value;
    }
    fields = JSON.stringify(values);
  }
  let tags: string | null = null;
  if (plan.tags !== undefined) {
    const cell = importedCell(record[plan.tags] ?? "");
    const read = CONTROL_CHARACTERS.test(cell) ? null : readTagCell(cell);
    if (read === null) reasons.push(singleLineMessage("Tags"));
    else if (!read.ok) reasons.push(`Tags: ${read.message}`);
    // Each tag with the id it takes if the merge has to make it (a tag the tenant has keeps its own).
    else tags = JSON.stringify(read.tags.map((name): StagedTag => [tagKey(name), name, newId()]));
  }
  return reasons.length > 0 ? { reasons } : { fields, tags };
}

/**
 * What a customer the import adds takes of the fields the file has no column for, as a create
 * does: each live field's default (JSON as a staged row's fields), or null when none has one.
 */
export function defaultsJson(definitions: readonly FieldDefinition[], plan: ExtrasPlan | null): string | null {
  const inFile = new Set(plan?.fields.map((c) => c.field.name));
  const values: Record<string, StagedFieldValue> = {};
  let any = false;
  for (const field of definitions) {
    if (field.retired || field.defaultValue === null || inFile.has(field.name)) continue;
    const read = readFieldValue(field, field.defaultValue);
    if (!read.ok || !read.value) continue;
    values[field.name] = [read.value.value, read.value.textKey, read.value.numberValue];
    any = true;
  }
  return any ? JSON.stringify(values) : null;
}

/**
 * Makes the text fields the plan asked for. A name another request took meanwhile is left as the
 * tenant has it: its column's values go to that field.
 */
export async function createPlannedFields(
  connection: AnyConnection,
  userId: string,
  plan: ExtrasPlan,
): Promise<{ fields: string[]; created: string[] }> {
  const created =
    plan.creating.length > 0
      ? await customerCsv.createCsvFields(
          connection,
          userId,
          plan.creating.map((f) => ({ id: newId(), name: f.name, label: f.label })),
          Date.now(),
        )
      : [];
  const fields = [...plan.fields].sort((a, b) => a.index - b.index).map((c) => c.field.name);
  return { fields, created };
}
