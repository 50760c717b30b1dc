// The rule builder's state (what the form edits: values are still text), its validation with the
// messages of spec §5, its conversion to and from the validated tree, and its encoding as plain
// form fields, so the same builder posts with and without JavaScript.
import {
  type ConditionNode,
  type Logic,
  type Operator,
  type SegmentField,
  type SegmentNode,
  MAX_CONDITIONS,
  MAX_DEPTH,
  SEGMENT_FIELDS,
  firstOperator,
  isDateValue,
  isField,
  isOperatorFor,
  numericValue,
} from "~/lib/segments";

export type BuilderCondition = { kind: "condition"; id: string; field: SegmentField; op: Operator; value: string };
export type BuilderGroup = { kind: "group"; id: string; logic: Logic; children: BuilderNode[] };
export type BuilderNode = BuilderCondition | BuilderGroup;

export const MESSAGES = {
  nameRequired: "Segment name is required",
  valuesRequired: "All condition values are required",
  invalidNumber: "Invalid numeric value",
  invalidDate: "Invalid date value",
  oneCondition: "At least one condition is required",
  aiEmpty: "Please enter a description",
  aiFailed: "Failed to process your request. Please try different wording.",
} as const;

/** Group nesting the builder offers: groups inside the top level, and groups inside those. */
export const BUILDER_MAX_GROUP_DEPTH = 2;

// React keys for builder rows. The server and the browser both make them (the page opens with the
// server's builder), so each process gets its own prefix and no two rows ever share a key.
const ID_PREFIX = Math.random().toString(36).slice(2, 8);
let nextId = 0;
export const builderId = () => `${ID_PREFIX}${(nextId += 1).toString(36)}`;

/** A new segment starts with one condition: totalSpend, greater than, empty value (spec §4). */
export function newCondition(field: SegmentField = "totalSpend"): BuilderCondition {
  return { kind: "condition", id: builderId(), field, op: firstOperator(field), value: "" };
}

export function newGroup(logic: Logic = "AND"): BuilderGroup {
  return { kind: "group", id: builderId(), logic, children: [newCondition()] };
}

export function newBuilder(): BuilderGroup {
  return { kind: "group", id: "root", logic: "AND", children: [newCondition()] };
}

// ---------------------------------------------------------------------------------------------
// Edits (pure: each returns a new root)

export type NodePath = number[];

function mapAt(root: BuilderGroup, path: NodePath, fn: (node: BuilderNode) => BuilderNode | null): BuilderGroup {
  if (path.length === 0) {
    const out = fn(root);
    return out && out.kind === "group" ? out : root;
  }
  const [head, ...rest] = path;
  const children: BuilderNode[] = [];
  root.children.forEach((child, i) => {
    if (i !== head) return children.push(child);
    if (rest.length === 0) {
      const out = fn(child);
      if (out) children.push(out);
    } else if (child.kind === "group") {
      children.push(mapAt(child, rest, fn));
    } else {
      children.push(child);
    }
  });
  return { ...root, children };
}

export function updateCondition(
  root: BuilderGroup,
  path: NodePath,
  change: Partial<Pick<BuilderCondition, "field" | "op" | "value">>,
): BuilderGroup {
  return mapAt(root, path, (node) => {
    if (node.kind !== "condition") return node;
    if (change.field && change.field !== node.field) {
      // A new field resets the operator; a value of the other type no longer fits.
      const sameType = SEGMENT_FIELDS[change.field].type === SEGMENT_FIELDS[node.field].type;
      const op = change.op && isOperatorFor(change.field, change.op) ? change.op : firstOperator(change.field);
      return { ...node, field: change.field, op, value: change.value ?? (sameType ? node.value : "") };
    }
    return { ...node, ...change };
  });
}

export function setLogic(root: BuilderGroup, path: NodePath, logic: Logic): BuilderGroup {
  return mapAt(root, path, (node) => (node.kind === "group" ? { ...node, logic } : node));
}

export function addCondition(root: BuilderGroup, groupPath: NodePath = []): BuilderGroup {
  return mapAt(root, groupPath, (node) =>
    node.kind === "group" ? { ...node, children: [...node.children, newCondition()] } : node,
  );
}

export function addGroup(root: BuilderGroup, groupPath: NodePath = []): BuilderGroup {
  if (groupPath.length >= BUILDER_MAX_GROUP_DEPTH) return root;
  return mapAt(root, groupPath, (node) =>
    node.kind === "group" ? { ...node, children: [...node.children, newGroup(node.logic === "AND" ? "OR" : "AND")] } : node,
  );
}

export function removeNode(root: BuilderGroup, path: NodePath): BuilderGroup {
  if (path.length === 0) return root;
  return mapAt(root, path, () => null);
}

export function nodeCount(root: BuilderGroup): number {
  return root.children.reduce((n, c) => n + 1 + (c.kind === "group" ? nodeCount(c) : 0), 0);
}

// ---------------------------------------------------------------------------------------------
// Validation (spec §5) and conversion

export type BuilderErrors = { name?: string; conditions?: string };

function conditionsOf(node: BuilderNode): BuilderCondition[] {
  return node.kind === "condition" ? [node] : node.children.flatMap(conditionsOf);
}

function hasEmptyGroup(node: BuilderGroup): boolean {
  return node.children.length === 0 || node.children.some((c) => c.kind === "group" && hasEmptyGroup(c));
}

/** The first message that applies to the conditions, or undefined when they can be saved. */
export function validateConditions(root: BuilderGroup): string | undefined {
  const all = conditionsOf(root);
  if (all.length === 0 || hasEmptyGroup(root)) return MESSAGES.oneCondition;
  if (all.some((c) => c.value.trim() === "")) return MESSAGES.valuesRequired;
  for (const c of all) {
    if (SEGMENT_FIELDS[c.field].type === "number" && numericValue(c.value) === null) return MESSAGES.invalidNumber;
    if (SEGMENT_FIELDS[c.field].type === "date" && !isDateValue(c.value.trim())) return MESSAGES.invalidDate;
  }
  if (all.length > MAX_CONDITIONS) return `At most ${MAX_CONDITIONS} conditions are allowed`;
  return undefined;
}

export function validateBuilder(name: string, root: BuilderGroup): BuilderErrors {
  const errors: BuilderErrors = {};
  if (name.trim() === "") errors.name = MESSAGES.nameRequired;
  const conditions = validateConditions(root);
  if (conditions) errors.conditions = conditions;
  return errors;
}

/** The validated tree of a builder whose conditions passed validateConditions. */
export function builderToTree(node: BuilderNode): SegmentNode {
  if (node.kind === "condition") {
    const value = SEGMENT_FIELDS[node.field].type === "number" ? Number(numericValue(node.value)) : node.value.trim();
    return { kind: "condition", field: node.field, op: node.op, value };
  }
  return { kind: "group", logic: node.logic, children: node.children.map(builderToTree) };
}

/** A builder showing the tree; the top level is always a group, as the builder edits one. */
export function treeToBuilder(tree: SegmentNode): BuilderGroup {
  const convert = (node: SegmentNode): BuilderNode =>
    node.kind === "condition"
      ? { kind: "condition", id: builderId(), field: node.field, op: node.op, value: String(node.value) }
      : { kind: "group", id: builderId(), logic: node.logic, children: node.children.map(convert) };
  if (tree.kind === "condition") return { kind: "group", id: "root", logic: "AND", children: [convert(tree)] };
  return { kind: "group", id: "root", logic: tree.logic, children: tree.children.map(convert) };
}

export function conditionOf(node: BuilderCondition): ConditionNode {
  return builderToTree(node) as ConditionNode;
}

// ---------------------------------------------------------------------------------------------
// Form encoding: `logic` for the top level, and for each node at path p (e.g. "1.0"):
// `n.p.kind`, then `n.p.field`, `n.p.op`, `n.p.value` (condition) or `n.p.logic` (group).

export function builderFormEntries(root: BuilderGroup): [string, string][] {
  const out: [string, string][] = [["logic", root.logic]];
  const walk = (group: BuilderGroup, prefix: string) =>
    group.children.forEach((child, i) => {
      const p = prefix ? `${prefix}.${i}` : String(i);
      out.push([`n.${p}.kind`, child.kind]);
      if (child.kind === "condition") {
        out.push([`n.${p}.field`, child.field], [`n.${p}.op`, child.op], [`n.${p}.value`, child.value]);
      } else {
        out.push([`n.${p}.logic`, child.logic]);
        walk(child, p);
      }
    });
  walk(root, "");
  return out;
}

const KEY = /^n\.(\d{1,3}(?:\.\d{1,3}){0,5})\.(kind|field|op|value|logic)$/;

type Draft = { path: number[]; kind?: string; field?: string; op?: string; value?: string; logic?: string };

/**
 * Reads the builder back from posted fields. Unknown fields or operators fall back to the
 * defaults (a field changed without JavaScript keeps a valid operator); nodes past the limits
 * are dropped.
 */
export function builderFromForm(form: Iterable<[string, FormDataEntryValue]>): BuilderGroup {
  const drafts = new Map<string, Draft>();
  let rootLogic: Logic = "AND";
  for (const [key, raw] of form) {
    const value = typeof raw === "string" ? raw : "";
    if (key === "logic") {
      rootLogic = value === "OR" ? "OR" : "AND";
      continue;
    }
    const m = KEY.exec(key);
    if (!m) continue;
    const path = m[1].split(".").map(Number);
    if (path.length > MAX_DEPTH) continue;
    const draft = drafts.get(m[1]) ?? { path };
    draft[m[2] as "kind"] = value;
    drafts.set(m[1], draft);
  }
  const root: BuilderGroup = { kind: "group", id: "root", logic: rootLogic, children: [] };
  const sorted = [...drafts.values()].sort((a, b) => {
    for (let i = 0; i < Math.max(a.path.length, b.path.length); i++) {
      const d = (a.path[i] ?? -1) - (b.path[i] ?? -1);
      if (d !== 0) return d;
    }
    return 0;
  });
  const groups = new Map<string, BuilderGroup>([["", root]]);
  let total = 0;
  for (const d of sorted) {
    const parent = groups.get(d.path.slice(0, -1).join("."));
    if (!parent || total >= MAX_CONDITIONS * 2) continue;
    total += 1;
    if (d.kind === "group") {
      const group: BuilderGroup = { kind: "group", id: builderId(), logic: d.logic === "OR" ? "OR" : "AND", children: [] };
      parent.children.push(group);
      groups.set(d.path.join("."), group);
    } else {
      const field: SegmentField = isField(d.field) ? d.field : "totalSpend";
      const op: Operator = isOperatorFor(field, d.op) ? d.op : firstOperator(field);
      parent.children.push({ kind: "condition", id: builderId(), field, op, value: (d.value ?? "").slice(0, 100) });
    }
  }
  return root;
}

/** Parses a path written as "1.0" (the root is ""). */
export function parsePath(text: string): NodePath | null {
  if (text === "") return [];
  if (!/^\d{1,3}(\.\d{1,3}){0,5}$/.test(text)) return null;
  return text.split(".").map(Number);
}
