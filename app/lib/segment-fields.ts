// A segment's field conditions against the tenant's fields (docs/rules.md#segment-conditions),
// isomorphic. The parser (./segments.ts) reads `field:<name>` conditions without knowing the
// tenant's fields; here each one meets its field: the field must exist, the operator must fit its
// type, and the value is made the one the compiler compares (a number for a number field, true or
// false for a yes/no one, a choice as the field spells it). The same check says what a stored
// segment no longer fits (a field deleted since: "Uses a deleted field: tier").
import { numericValue } from "~/lib/numbers";
import { type FieldDefinition, type FieldType, textKeyOf } from "~/lib/custom-fields";
import { FIELD_KEY_PREFIX, type FieldConditionNode, type FieldOperator, type SegmentNode } from "~/lib/segments";
import { isRangeOperator } from "~/lib/segment-parse";
import { isRelativeDay } from "~/lib/segment-dates";

/** The operators each type of field takes, in the order the builder offers them. */
export const FIELD_TYPE_OPERATORS: Record<FieldType, readonly FieldOperator[]> = {
  text: ["$eq", "$ne", "$contains", "$startsWith", "$exists"],
  choice: ["$in", "$eq", "$ne", "$exists"],
  number: ["$gt", "$gte", "$lt", "$lte", "$eq", "$ne", "$exists"],
  date: ["$gt", "$lt", "$gte", "$lte", "$anniversaryWithinDays", "$exists"],
  boolean: ["$eq", "$exists"],
};

/** A type as a message names it: "a choice field", "a yes/no field". */
export const FIELD_TYPE_WORDS: Record<FieldType, string> = {
  text: "text",
  number: "number",
  date: "date",
  boolean: "yes/no",
  choice: "choice",
};

/** The tenant's fields by name (fieldCatalog() in app/services/custom-fields.server.ts). */
export type FieldCatalog = ReadonlyMap<string, FieldDefinition>;

type NodeResult = { ok: true; node: FieldConditionNode } | { ok: false; message: string };

const YES = new Set(["true", "yes", "y", "1"]);
const NO = new Set(["false", "no", "n", "0"]);

/**
 * One field condition against its field: the operator must be one the type takes, and the value
 * is made the type's (a number's digits a number, "yes" true, a choice in any case the choice).
 * The message says what is wrong, without the path (the caller writes it).
 */
export function checkFieldCondition(node: FieldConditionNode, field: FieldDefinition | undefined): NodeResult {
  if (!field) return { ok: false, message: `unknown field "${node.name}"` };
  const type = field.type;
  if (!FIELD_TYPE_OPERATORS[type].includes(node.op)) {
    return { ok: false, message: `operator "${node.op}" does not apply to a ${FIELD_TYPE_WORDS[type]} field` };
  }
  const v = node.value;
  if (node.op === "$exists") return { ok: true, node };
  const fits = (value: FieldConditionNode["value"]): NodeResult => ({ ok: true, node: { ...node, value } });
  const refuse = (what: string): NodeResult => ({ ok: false, message: `${field.label} takes ${what}` });
  switch (type) {
    case "text":
      if (typeof v === "string") return fits(v);
      if (typeof v === "number") return fits(String(v));
      return refuse("a text");
    case "choice": {
      const choose = (raw: unknown): string | null => {
        const key = textKeyOf(String(raw));
        return field.choices.find((c) => textKeyOf(c) === key) ?? null;
      };
      const refuseChoice = (raw: unknown): NodeResult => ({
        ok: false,
        message: `"${String(raw)}" is not one of the choices of ${field.label} (${field.choices.join(", ")})`,
      });
      if (Array.isArray(v)) {
        const chosen: string[] = [];
        for (const item of v) {
          const choice = choose(item);
          if (choice === null) return refuseChoice(item);
          if (!chosen.includes(choice)) chosen.push(choice);
        }
        return fits(chosen);
      }
      if (typeof v !== "string" && typeof v !== "number") return refuse("one of its choices");
      const choice = choose(v);
      return choice === null ? refuseChoice(v) : fits(choice);
    }
    case "number": {
      const n = typeof v === "number" || typeof v === "string" ? numericValue(v) : null;
      return n === null ? refuse("a number") : fits(n);
    }
    case "date":
      if (node.op === "$anniversaryWithinDays") return fits(v);
      if (isRangeOperator(node.op) && (isRelativeDay(v) || typeof v === "string")) return fits(v);
      return refuse(`a date like 2024-05-31, { "$daysAgo": N } or { "$daysAhead": N }`);
    case "boolean": {
      if (typeof v === "boolean") return fits(v);
      const text = typeof v === "string" ? v.trim().toLowerCase() : "";
      if (YES.has(text)) return fits(true);
      if (NO.has(text)) return fits(false);
      return refuse("true or false");
    }
  }
}

export type TreeCheck = { ok: true; tree: SegmentNode } | { ok: false; path: string; message: string };

/**
 * Every field condition of a tree against the tenant's fields: the tree with each value made its
 * field's, or the first problem, named by its path in the mapping as toConditions() writes it
 * (`conditions.$and[1].field:tier.$gt: operator "$gt" does not apply to a choice field`).
 */
export function checkTreeFields(tree: SegmentNode, catalog: FieldCatalog, root = "conditions"): TreeCheck {
  let problem: { path: string; message: string } | null = null;
  const walk = (node: SegmentNode, path: string): SegmentNode => {
    if (problem) return node;
    if (node.kind === "field") {
      const keyPath = `${path}.${FIELD_KEY_PREFIX}${node.name}`;
      const result = checkFieldCondition(node, catalog.get(node.name));
      if (result.ok) return result.node;
      const at = result.message.startsWith("unknown field") ? keyPath : `${keyPath}.${node.op}`;
      problem = { path: at, message: `${at}: ${result.message}` };
      return node;
    }
    if (node.kind !== "group") return node;
    if (node.children.length === 1) {
      const only = walk(node.children[0], path);
      return only === node.children[0] ? node : { ...node, children: [only] };
    }
    const key = node.logic === "OR" ? "$or" : "$and";
    let changed = false;
    const children = node.children.map((child, i) => {
      const next = walk(child, `${path}.${key}[${i}]`);
      if (next !== child) changed = true;
      return next;
    });
    return changed ? { ...node, children } : node;
  };
  const checked = walk(tree, root);
  if (problem) return { ok: false, ...(problem as { path: string; message: string }) };
  return { ok: true, tree: checked };
}

/**
 * What a stored segment's reader should know about its fields: the fields deleted since it was
 * saved (their conditions match as if no customer had a value: "is" nobody, "is not" everybody),
 * and conditions their field no longer takes (a field deleted and made again with another type).
 */
export function segmentFieldWarnings(tree: SegmentNode, catalog: FieldCatalog): string[] {
  const deleted = new Set<string>();
  const misfits = new Set<string>();
  const walk = (node: SegmentNode) => {
    if (node.kind === "group") node.children.forEach(walk);
    if (node.kind !== "field") return;
    const field = catalog.get(node.name);
    if (!field) deleted.add(node.name);
    else if (!checkFieldCondition(node, field).ok) misfits.add(field.label);
  };
  walk(tree);
  const warnings: string[] = [];
  if (deleted.size > 0) {
    warnings.push(`Uses ${deleted.size === 1 ? "a deleted field" : "deleted fields"}: ${[...deleted].join(", ")}`);
  }
  if (misfits.size > 0) {
    warnings.push(`A condition no longer fits its field: ${[...misfits].join(", ")}`);
  }
  return warnings;
}
