// A segment's conditions on what a customer did (~/lib/segment-activity) as SQL over "Customer"
// (./where.ts writes the rest of the tree around them), values always bound. Each is a test of the
// customer's id (or e-mail) against a list of the tenant's rows, IN / NOT IN on SQLite and EXISTS /
// NOT EXISTS on PostgreSQL, as the field conditions are (./values.ts says why each engine gets its
// form). So every test is true or false for every customer, never NULL, and its complement is
// exactly the other form.
//
// - Order and engagement figures read "CustomerActivity" by its tenant-first index of the figure.
//   A customer without a row has 0 orders and an average of 0, and no dates: a test that 0 passes
//   ("fewer than 3 orders") is written as "not among those who fail it", so they are in it.
// - A window ("in the last 30 days") counts the tenant's counting orders, or its delivered
//   messages, from the window's first day (IST) on. Orders are reached by their (userId, id)
//   index: ids begin with their creation second (~/lib/id), so the window's orders are a range of
//   it from a day before the window (an id is made just before its row), then tested exactly on
//   "createdAt". Delivered messages have no index by tenant and date: the window reads the
//   tenant's delivery rows (measured in `npm run bench` before it is made faster).
// - A product bought is an order item of that name, without case, in a counting order: the
//   `lower("name")` index of "OrderItem" (each engine folds case its own way, both sides alike).
// - Consent reads as app/services/consent.server.ts says: the recorded status, unless a newer
//   unsubscribe, complaint or suppression by hand of the customer's address withdrew it.
// - Suppressed: the customer's address is on the tenant's suppression list (its primary key).
import {
  type ActivityConditionNode,
  type ActivityKey,
  type ActivityOperator,
  figureHolds,
} from "~/lib/segment-activity";
import { istDateDaysAgo, istDayStart, toComparison } from "~/lib/segment-dates";
import { rupeesToPaise } from "~/lib/money";
import type { Dialect } from "~/models/segments/audience/rows";
import type { Bind, CustomerList } from "~/models/segments/audience/values";

const OP_SQL: Record<ActivityOperator, string> = { $gt: ">", $gte: ">=", $lt: "<", $lte: "<=", $eq: "=", $ne: "<>" };

const DAY_MS = 86_400_000;

/** The figure columns of "CustomerActivity" and what a customer without a row has. */
const FIGURES: Partial<
  Record<ActivityKey, { column: string; absent: number | null; time: "timestamp" | "ms" | null }>
> = {
  orderCount: { column: "orderCount", absent: 0, time: null },
  averageOrderValue: { column: "averageOrderPaise", absent: 0, time: null },
  firstOrderDate: { column: "firstOrderAt", absent: null, time: "timestamp" },
  lastOrderDate: { column: "lastOrderAt", absent: null, time: "timestamp" },
  lastOpenDate: { column: "lastOpenAt", absent: null, time: "ms" },
  lastClickDate: { column: "lastClickAt", absent: null, time: "ms" },
};

/** Where a window of the last `days` days begins (the start of that IST day), in ms. */
function windowStart(node: ActivityConditionNode, now: number): number {
  return istDayStart(node.since ?? istDateDaysAgo(node.withinDays ?? 0, now));
}

/** The smallest id a row made at `ms` can have: its second, then zeros. */
function idFloor(ms: number): string {
  return Math.max(0, Math.floor(ms / 1000))
    .toString(16)
    .padStart(8, "0")
    .concat("0".repeat(16));
}

/**
 * A list of the tenant's customers (a SELECT of their ids), whether the condition holds outside it,
 * and on PostgreSQL the column to tie to "Customer"."id" (null: the SELECT is tied already).
 */
type IdList = { select: string; outside: boolean; correlate: string | null };

/**
 * A condition whose customers are those in (or, `outside`, not in) a list of ids: `"id" IN (…)` on
 * SQLite, `EXISTS (… AND <correlate> = "Customer"."id")` on PostgreSQL.
 */
function inList(list: IdList, dialect: Dialect, complement: boolean, filterOnly: boolean): string {
  const outside = list.outside !== complement;
  if (dialect === "postgres") {
    const tie = list.correlate ? ` AND ${list.correlate} = "Customer"."id"` : "";
    return `${outside ? "NOT " : ""}EXISTS (${list.select}${tie})`;
  }
  return `${filterOnly ? "+" : ""}"id" ${outside ? "NOT IN" : "IN"} (${list.select})`;
}

/** A number compared on a figure column, or on an aggregate of a window. */
function numberTest(key: ActivityKey, value: number): number {
  return key === "averageOrderValue" || key === "spendWithinDays" ? rupeesToPaise(value) : value;
}

/** The figure's bound for a date condition: the same instants lastActive's dates mean (~/lib/segments). */
function dateTest(node: ActivityConditionNode, now: number): { op: ActivityOperator; ms: number } {
  const c = toComparison(
    { kind: "condition", field: "lastActiveDate", op: node.op as "$gt", value: node.value as string },
    now,
  );
  return { op: c.op, ms: c.value };
}

function activityList(node: ActivityConditionNode, userId: string, dialect: Dialect, bind: Bind, now: number): IdList {
  const pg = dialect === "postgres";
  // Whole numbers (counts, paise, milliseconds): bigint on PostgreSQL, which keeps the columns' indexes.
  const whole = (n: number) => (pg ? `${bind(n)}::bigint` : bind(n));
  if (isFigureCondition(node)) return figureList([node], userId, dialect, bind, now);
  switch (node.key) {
    case "orderCount":
    case "spendWithinDays": {
      const from = windowStart(node, now);
      const bound = numberTest(node.key, Number(node.value));
      const absentPasses = figureHolds(0, node.op, bound);
      const agg = node.key === "orderCount" ? "count(*)" : `sum(o."amountPaise" + o."taxPaise")`;
      // Bound in the order they appear (SQLite's `?` are positional); on PostgreSQL the customer's
      // own orders only, so HAVING tests the customer's group.
      const user = bind(userId);
      const firstId = bind(idFloor(from - DAY_MS));
      const since = pg ? `to_timestamp(${bind(from, "float8")} / 1000)` : bind(from);
      const test = `${agg} ${OP_SQL[absentPasses ? NEGATED[node.op] : node.op]} ${whole(bound)}`;
      const own = pg ? `o."customerId" = "Customer"."id" AND ` : "";
      const select = `SELECT o."customerId" FROM "Order" o WHERE ${own}o."userId" = ${user} AND o."id" >= ${firstId}
        AND o."createdAt" >= ${since} AND o."status" <> 'Cancelled' GROUP BY o."customerId" HAVING ${test}`;
      return { select, outside: absentPasses, correlate: null };
    }
    case "messagesReceived": {
      const from = windowStart(node, now);
      const bound = Number(node.value);
      const absentPasses = figureHolds(0, node.op, bound);
      const select = `SELECT d."customerId" FROM "Delivery" d WHERE ${pg ? `d."customerId" = "Customer"."id" AND ` : ""}d."userId" = ${bind(userId)}
        AND d."status" = 'delivered' AND d."updatedAt" >= ${whole(from)}
        GROUP BY d."customerId" HAVING count(*) ${OP_SQL[absentPasses ? NEGATED[node.op] : node.op]} ${whole(bound)}`;
      return { select, outside: absentPasses, correlate: null };
    }
    case "boughtProduct": {
      // CROSS JOIN: SQLite then reads the items of that name first (the name index) and their
      // orders by key; with a plain JOIN it walked every order of the tenant (no statistics on the
      // items' index), 30 times slower at 90,000 orders. PostgreSQL plans the join either way.
      const select = `SELECT o."customerId" FROM "OrderItem" i CROSS JOIN "Order" o
        WHERE lower(i."name") = lower(${bind(String(node.value))}) AND o."id" = i."orderId" AND o."userId" = ${bind(userId)} AND o."status" <> 'Cancelled'`;
      return { select, outside: node.op === "$ne", correlate: `o."customerId"` };
    }
    case "suppressed": {
      // By address: the list's (userId, email) key; customers' addresses are stored lower-cased too.
      const select = `SELECT c2."id" FROM "Customer" c2 JOIN "Suppression" s ON s."userId" = c2."userId" AND s."email" = c2."email"
        WHERE c2."userId" = ${bind(userId)}`;
      return { select, outside: node.value !== true, correlate: `c2."id"` };
    }
    case "consent":
      return consentList(node, userId, dialect, bind);
    default:
      throw new Error(`No SQL for the activity condition ${node.key}`);
  }
}

/** Whether a condition tests one of the figures "CustomerActivity" keeps (not a window of orders). */
export function isFigureCondition(node: ActivityConditionNode): boolean {
  return FIGURES[node.key] !== undefined && node.withinDays === undefined;
}

/**
 * Conditions on one figure, all of which must hold ("last order 60 to 90 days ago" is two), as one
 * list: one range of the figure's index instead of a list each, intersected.
 */
function figureList(
  nodes: readonly ActivityConditionNode[],
  userId: string,
  dialect: Dialect,
  bind: Bind,
  now: number,
): IdList {
  const pg = dialect === "postgres";
  const whole = (n: number) => (pg ? `${bind(n)}::bigint` : bind(n));
  const figure = FIGURES[nodes[0].key];
  if (!figure) throw new Error(`${nodes[0].key} is not a figure of CustomerActivity`);
  const a = `a."${figure.column}"`;
  // Bound in the order they appear: the tenant, then each test.
  const base = `SELECT a."customerId" FROM "CustomerActivity" a WHERE a."userId" = ${bind(userId)}`;
  const { absent } = figure;
  if (figure.time === null) {
    const tests = nodes.map((n) => ({ op: n.op, bound: numberTest(n.key, Number(n.value)) }));
    // A customer without a row has `absent`; when that passes every test, list those who fail one.
    const absentPasses = absent !== null && tests.every((t) => figureHolds(absent, t.op, t.bound));
    const terms = tests.map((t) => `${a} ${OP_SQL[absentPasses ? NEGATED[t.op] : t.op]} ${whole(t.bound)}`);
    return {
      select: `${base} AND (${terms.join(absentPasses ? " OR " : " AND ")})`,
      outside: absentPasses,
      correlate: `a."customerId"`,
    };
  }
  const terms = nodes.map((n) => {
    const { op, ms } = dateTest(n, now);
    const at = figure.time === "timestamp" && pg ? `to_timestamp(${bind(ms, "float8")} / 1000)` : whole(ms);
    return `${a} ${OP_SQL[op]} ${at}`;
  });
  return { select: `${base} AND ${terms.join(" AND ")}`, outside: false, correlate: `a."customerId"` };
}

/**
 * An activity condition's list of customers (several conditions on one figure, as one), as a tree
 * of it alone is counted from (leafListCountSql() in ./where.ts). Null where no list stands alone:
 * messages received (delivery rows outlive a deleted customer), and on PostgreSQL a list tied to the
 * customer it tests (a window, consent).
 */
export function activityCustomerList(
  nodes: readonly ActivityConditionNode[],
  userId: string,
  dialect: Dialect,
  bind: Bind,
  now: number,
): CustomerList | null {
  const [first] = nodes;
  if (nodes.length > 1 && !nodes.every((n) => isFigureCondition(n) && n.key === first.key)) return null;
  if (first.key === "messagesReceived") return null;
  const list =
    nodes.length > 1 || isFigureCondition(first)
      ? figureList(nodes, userId, dialect, bind, now)
      : activityList(first, userId, dialect, bind, now);
  if (dialect === "postgres" && list.correlate === null) return null;
  return { select: list.select, outside: list.outside, repeats: first.key === "boughtProduct" };
}

/**
 * Several conditions on one figure that must all hold, as one boolean over "Customer" (see
 * figureList); the options as activityConditionSql's.
 */
export function figureConditionsSql(
  nodes: readonly ActivityConditionNode[],
  userId: string,
  dialect: Dialect,
  bind: Bind,
  options: { complement?: boolean; filterOnly?: boolean; now?: number } = {},
): string {
  const list = figureList(nodes, userId, dialect, bind, options.now ?? Date.now());
  return inList(list, dialect, Boolean(options.complement), Boolean(options.filterOnly));
}

const NEGATED: Record<ActivityOperator, ActivityOperator> = {
  $gt: "$lte",
  $gte: "$lt",
  $lt: "$gte",
  $lte: "$gt",
  $eq: "$ne",
  $ne: "$eq",
};

/**
 * The customers whose consent reads as a status (app/services/consent.server.ts): "unsubscribed"
 * when recorded so or withdrawn by a newer unsubscribe, complaint or suppression by hand;
 * "subscribed" when recorded so and not withdrawn since; "never_asked" when nothing is recorded and
 * nothing withdrew it.
 */
function consentList(node: ActivityConditionNode, userId: string, dialect: Dialect, bind: Bind): IdList {
  const pg = dialect === "postgres";
  const withdrawn = `EXISTS (SELECT 1 FROM "Suppression" s WHERE s."userId" = c2."userId" AND s."email" = c2."email"
    AND s."reason" IN ('unsubscribed', 'complained', 'manual')
    AND NOT EXISTS (SELECT 1 FROM "CustomerConsent" k0 WHERE k0."customerId" = c2."id" AND k0."at" > s."createdAt"))`;
  // Bound in the order they appear (SQLite's `?` are positional): the tenant, then the status.
  const user = bind(userId);
  const recorded = (status: string | null) =>
    `EXISTS (SELECT 1 FROM "CustomerConsent" k WHERE k."customerId" = c2."id"${status ? ` AND k."status" = ${bind(status)}` : ""})`;
  const status = String(node.value);
  const test =
    status === "unsubscribed"
      ? `(${recorded("unsubscribed")} OR ${withdrawn})`
      : status === "subscribed"
        ? `(${recorded("subscribed")} AND NOT ${withdrawn})`
        : `(NOT ${recorded(null)} AND NOT ${withdrawn})`;
  const select = `SELECT c2."id" FROM "Customer" c2 WHERE ${pg ? `c2."id" = "Customer"."id" AND ` : ""}c2."userId" = ${user} AND ${test}`;
  return { select, outside: node.op === "$ne", correlate: null };
}

/**
 * An activity condition as a boolean over "Customer". `complement`: the customers it does not hold
 * for (exact: never NULL). `filterOnly`: SQLite's `+"id"`, which drives no index (see compileTree()).
 */
export function activityConditionSql(
  node: ActivityConditionNode,
  userId: string,
  dialect: Dialect,
  bind: Bind,
  options: { complement?: boolean; filterOnly?: boolean; now?: number } = {},
): string {
  const list = activityList(node, userId, dialect, bind, options.now ?? Date.now());
  return inList(list, dialect, Boolean(options.complement), Boolean(options.filterOnly));
}
