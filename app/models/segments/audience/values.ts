// A segment's conditions on the customer's fields and tags as SQL (./where.ts writes the rest of the
// tree around them). Each is a test of the customer's id against the rows of "CustomerFieldValue"
// or "CustomerTag" of the tenant, values always bound:
//
// - SQLite: `"id" IN (SELECT v."customerId" FROM "CustomerFieldValue" v WHERE v."userId" = ? AND
//   v."name" = ? AND v."textKey" = ?)`: one range of the (userId, name, textKey, customerId) or
//   (userId, name, numberValue, customerId) index, read once into the statement's own lookup table
//   and probed per customer. A negation ("is not", "has none of", "is empty") is the same list
//   with NOT IN, so a customer with no value is in it.
// - PostgreSQL: `EXISTS (SELECT 1 FROM "CustomerFieldValue" v WHERE v."customerId" =
//   "Customer"."id" AND …)`, NOT EXISTS for a negation. The planner makes a top-level one a semi-
//   or anti-join over the same index range, and one under an OR a subplan it may hash or probe by
//   the (customerId, name) key, where NOT IN (list) becomes a subplan that, past work_mem, scans the
//   whole list for every customer. So the WHERE names its table: it is always written over
//   "Customer" unaliased, as every statement built on it is (./rows.ts, the launch, the tags).
//
// Both forms answer true or false for every customer, never NULL, so a condition turned round
// (compileComplement) is exactly the other form.
import { textKeyOf } from "~/lib/custom-fields";
import { type FieldConditionNode, type TagsConditionNode } from "~/lib/segments";
import { isRangeOperator } from "~/lib/segment-parse";
import { anniversaryRanges, isRelativeDay, istDateDaysAgo, relativeDayDate } from "~/lib/segment-dates";
import { tagKey } from "~/lib/tags";
import type { Dialect, SqlParam } from "~/models/segments/audience/rows";

/** Pushes a value and returns its placeholder (`?`, or `$n` with a cast on PostgreSQL: "float8", "int"). */
export type Bind = (value: SqlParam, cast?: "float8" | "int") => string;

const RANGE_SQL = { $gt: ">", $gte: ">=", $lt: "<", $lte: "<=" } as const;

/** `%`, `_` and the escape itself written as themselves in a LIKE pattern (ESCAPE '\'). */
const likeEscaped = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

/**
 * The customers a value condition holds for, as SQL over the rows of one field: `filters` (an
 * empty one: any value of the field), each a conjunction; several are alternatives (an anniversary
 * that wraps the year's end). Each term binds its value when written, so SQLite's `?` follow the
 * text. `negated`: the customers without such a value.
 */
type Term = (bind: Bind) => string;
type ValueTest = { filters: Term[][]; negated: boolean };

function fieldTest(node: FieldConditionNode, now: number): ValueTest {
  const v = node.value;
  const one = (term: Term): ValueTest => ({ filters: [[term]], negated: false });
  switch (node.op) {
    case "$exists":
      return { filters: [[]], negated: v === false };
    case "$eq":
    case "$ne": {
      const term: Term =
        typeof v === "number"
          ? (bind) => `v."numberValue" = ${bind(v, "float8")}`
          : (bind) => `v."textKey" = ${bind(typeof v === "boolean" ? String(v) : textKeyOf(String(v)))}`;
      return { filters: [[term]], negated: node.op === "$ne" };
    }
    case "$contains":
      return one((bind) => `v."textKey" LIKE ${bind(`%${likeEscaped(textKeyOf(String(v)))}%`)} ESCAPE '\\'`);
    case "$startsWith":
      return one((bind) => `v."textKey" LIKE ${bind(`${likeEscaped(textKeyOf(String(v)))}%`)} ESCAPE '\\'`);
    case "$in": {
      const keys = [...new Set((Array.isArray(v) ? v : [String(v)]).map(textKeyOf))];
      return one((bind) => `v."textKey" IN (${keys.map((k) => bind(k)).join(", ")})`);
    }
    case "$anniversaryWithinDays": {
      const ranges = anniversaryRanges(node.today ?? istDateDaysAgo(0, now), Number(v));
      return {
        filters: ranges.map(([lo, hi]) => [
          (bind) => `v."numberValue" >= ${bind(lo, "float8")}`,
          (bind) => `v."numberValue" <= ${bind(hi, "float8")}`,
        ]),
        negated: false,
      };
    }
    default: {
      if (!isRangeOperator(node.op)) throw new Error(`Operator ${node.op} is not a field operator`);
      const op = RANGE_SQL[node.op];
      // A number compares the number; a date (or a rolling day, as the day it names) its YYYY-MM-DD
      // key, which sorts as the dates do in every collation (same length, digits at the same places).
      if (typeof v === "number") return one((bind) => `v."numberValue" ${op} ${bind(v, "float8")}`);
      const day = isRelativeDay(v) ? relativeDayDate(v, now) : String(v);
      return one((bind) => `v."textKey" ${op} ${bind(day)}`);
    }
  }
}

/**
 * A field condition as a boolean over "Customer". `complement`: the customers it does not hold for
 * (exact: the test is never NULL). `filterOnly`: SQLite's `+"id"`, which drives no index (see
 * compileTree()).
 */
export function fieldConditionSql(
  node: FieldConditionNode,
  userId: string,
  dialect: Dialect,
  bind: Bind,
  options: { complement?: boolean; filterOnly?: boolean; now?: number } = {},
): string {
  const { filters, negated } = fieldTest(node, options.now ?? Date.now());
  const outside = negated !== Boolean(options.complement);
  const conjunction = (terms: Term[]) => terms.map((t) => t(bind)).join(" AND ");
  if (dialect === "postgres") {
    const own = `v."customerId" = "Customer"."id" AND v."userId" = ${bind(userId)} AND v."name" = ${bind(node.name)}`;
    const any = filters.every((f) => f.length === 0);
    const matching = any ? "" : ` AND (${filters.map((f) => `(${conjunction(f)})`).join(" OR ")})`;
    return `${outside ? "NOT " : ""}EXISTS (SELECT 1 FROM "CustomerFieldValue" v WHERE ${own}${matching})`;
  }
  const list = fieldList(node, userId, dialect, bind, options.now ?? Date.now());
  return `${options.filterOnly ? "+" : ""}"id" ${outside ? "NOT IN" : "IN"} (${list.select})`;
}

/**
 * A list of the customers of the tenant: a SELECT of one id a row (an id may repeat when
 * `repeats`), and whether the condition holds for the customers outside it (a negation). What
 * SQLite's form of a condition tests its ids against, and what a tree of one condition is counted
 * from on either engine (leafListCountSql() in ./where.ts).
 */
export type CustomerList = { select: string; outside: boolean; repeats: boolean };

/**
 * A field condition's list: one range of a value index per filter, as alternatives (UNION ALL on
 * SQLite, whose planner takes each as a range; one OR on PostgreSQL). One row per customer: a
 * customer holds one value of a field, and a value falls in one filter.
 */
export function fieldList(
  node: FieldConditionNode,
  userId: string,
  dialect: Dialect,
  bind: Bind,
  now: number,
): CustomerList {
  const { filters, negated } = fieldTest(node, now);
  const conjunction = (terms: Term[]) => terms.map((t) => t(bind)).join(" AND ");
  if (dialect === "postgres") {
    const own = `v."userId" = ${bind(userId)} AND v."name" = ${bind(node.name)}`;
    const any = filters.every((f) => f.length === 0);
    const matching = any ? "" : ` AND (${filters.map((f) => `(${conjunction(f)})`).join(" OR ")})`;
    return {
      select: `SELECT v."customerId" FROM "CustomerFieldValue" v WHERE ${own}${matching}`,
      outside: negated,
      repeats: false,
    };
  }
  const selects = filters.map((f) => {
    const own = `v."userId" = ${bind(userId)} AND v."name" = ${bind(node.name)}`;
    return `SELECT v."customerId" FROM "CustomerFieldValue" v WHERE ${own}${f.length ? ` AND ${conjunction(f)}` : ""}`;
  });
  return { select: selects.join(" UNION ALL "), outside: negated, repeats: false };
}

/**
 * A tags condition's list: the customers carrying any of the tags, or with `$all` every one of them
 * (a tag's key is unique in the tenant, so a customer's rows of them are counted); `$nin` is the
 * outside of the `$in` list. A customer with several of the tags repeats in the `$in` list.
 */
export function tagsList(node: TagsConditionNode, userId: string, bind: Bind): CustomerList {
  const keys = [...new Set(node.value.map(tagKey))];
  // Template literals are evaluated left to right: the values are bound in the order of their `?`.
  const tagged = `SELECT ct."customerId" FROM "CustomerTag" ct JOIN "Tag" t ON t."id" = ct."tagId" WHERE t."userId" = ${bind(userId)} AND t."key" IN (${keys.map((k) => bind(k)).join(", ")})`;
  if (node.op === "$all") {
    return {
      select: `${tagged} GROUP BY ct."customerId" HAVING count(*) = ${bind(keys.length)}`,
      outside: false,
      repeats: false,
    };
  }
  return { select: tagged, outside: node.op === "$nin", repeats: keys.length > 1 };
}

/**
 * A tags condition as a boolean over "Customer": the customer carries any of the tags ($in), all
 * of them ($all) or none ($nin), tags met by their key (Tag's (userId, key) index, then
 * CustomerTag's (tagId, customerId) key or (customerId, tagId) index).
 */
export function tagsConditionSql(
  node: TagsConditionNode,
  userId: string,
  dialect: Dialect,
  bind: Bind,
  options: { complement?: boolean; filterOnly?: boolean } = {},
): string {
  const keys = [...new Set(node.value.map(tagKey))];
  const outside = (node.op === "$nin") !== Boolean(options.complement);
  if (dialect === "postgres") {
    const has = (some: string[], not: boolean) =>
      `${not ? "NOT " : ""}EXISTS (SELECT 1 FROM "CustomerTag" ct JOIN "Tag" t ON t."id" = ct."tagId" WHERE ct."customerId" = "Customer"."id" AND t."userId" = ${bind(userId)} AND t."key" IN (${some.map((k) => bind(k)).join(", ")}))`;
    if (node.op !== "$all") return has(keys, outside);
    // Every tag: one semi-join each (a tag's key is unique in the tenant); turned round, any missing.
    const each = keys.map((k) => has([k], Boolean(options.complement)));
    return each.length === 1 ? each[0] : `(${each.join(options.complement ? " OR " : " AND ")})`;
  }
  return `${options.filterOnly ? "+" : ""}"id" ${outside ? "NOT IN" : "IN"} (${tagsList(node, userId, bind).select})`;
}
