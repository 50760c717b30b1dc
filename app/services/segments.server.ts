// Segments: rule-based audiences of one tenant. Every function takes the tenant first and scopes
// every query to it; another tenant's segment is "not found". Audiences are evaluated in the
// database (app/models/segments/audience/); the rows are app/models/segments/. A tree's conditions
// on the customer's fields are checked against the tenant's fields when it is saved or previewed
// (an unknown field, or an operator its type does not take, is a 400 naming the path); a stored
// segment whose field was deleted since still counts (no customer has a value of it) and says so.
import { ApiError, notFound } from "~/lib/api.server";
import { isoFromEpochMs } from "~/lib/dates";
import { isId, newId } from "~/lib/id";
import { paiseToRupees } from "~/lib/money";
import { checkTreeFields, segmentFieldWarnings } from "~/lib/segment-fields";
import { type Conditions, type Logic, type SegmentNode, fieldNamesOf, toConditions, topLogic } from "~/lib/segments";
import { parseConditions } from "~/lib/segment-parse";
import { AUDIENCE_SAMPLE_SIZE, duplicateNameWarning } from "~/lib/segment-descriptions";
// The door is imported under another name: segmentAudience() below is this service's audience page.
import { segmentAudience as audiences } from "~/models/segments/audience/store.server";
import type { AudienceRow, AudienceTuple, CompiledWhere } from "~/models/segments/audience/rows";
import type { SegmentConditionsRow, SegmentRow } from "~/models/segments/rows";
import { storedSegments } from "~/models/segments/store.server";
import { fieldCatalog } from "~/services/custom-fields.server";
import { notify } from "~/services/notifications.server";
import {
  checkIncluders,
  countResolvedConditions,
  segmentReferenceNotes,
  segmentsIncluding,
  withSegmentReference,
  withSegmentReferences,
} from "~/services/segment-references.server";
import type { CustomerContactDto } from "~/services/orders.server";

export type SegmentDto = {
  _id: string;
  id: string;
  name: string;
  description: string;
  logicType: Logic;
  conditions: Conditions;
  createdAt: string;
  updatedAt: string;
};

export type SegmentWithCount = SegmentDto & { customerCount: number };

/** A saved segment, with what the user should know about it (a name another segment has). */
export type SavedSegment = SegmentWithCount & { warnings: string[] };

/** A customer as audience lists show it (docs/rules.md#payloads, "Audience customer"). */
export type AudienceCustomer = CustomerContactDto & {
  totalSpend: number;
  visits: number;
  lastActive: string | null;
};

export type SegmentWriteInput = { name: string; description: string; tree: SegmentNode };

// Written out like the tuple's twin below: a spread object takes JSON.stringify's slow path (see
// toCustomerDto in customers.server.ts).
function audienceCustomer(row: AudienceRow): AudienceCustomer {
  return {
    _id: row.id,
    id: row.id,
    firstName: row.firstName,
    lastName: row.lastName,
    email: row.email,
    phone: row.phone,
    totalSpend: paiseToRupees(row.totalSpendPaise),
    visits: row.visits,
    lastActive: row.lastActive === null ? null : isoFromEpochMs(Number(row.lastActive)),
  };
}

/** audienceCustomer from a sample row in column order (the preview's raw rows, no object in between). */
function audienceCustomerFromTuple(t: AudienceTuple): AudienceCustomer {
  return {
    _id: t[0],
    id: t[0],
    firstName: t[1],
    lastName: t[2],
    email: t[3],
    phone: t[4],
    totalSpend: paiseToRupees(t[5]),
    visits: t[6],
    lastActive: t[7] === null ? null : isoFromEpochMs(Number(t[7])),
  };
}

/** The stored tree; a row is only ever written from a validated tree. */
export function segmentTree(segment: SegmentConditionsRow): SegmentNode {
  const parsed = parseConditions(JSON.parse(segment.conditions));
  if (!parsed.ok)
    throw new Error(`Segment ${segment.id} has stored conditions that no longer validate: ${parsed.message}`);
  return parsed.tree;
}

/**
 * A tree from a caller (the API, the form, the live preview) with its field conditions checked
 * against the tenant's fields and their values made their fields' (`"7"` a number, `"yes"` true, a
 * choice as the field spells it). An unknown field, or an operator or a value its type does not
 * take, is a 400 naming the path: `conditions.field:tier.$gt: operator "$gt" does not apply to a
 * choice field`.
 */
export async function checkedSegmentTree(userId: string, tree: SegmentNode): Promise<SegmentNode> {
  if (fieldNamesOf(tree).length === 0) return tree;
  const checked = checkTreeFields(tree, await fieldCatalog(userId));
  if (!checked.ok) throw new ApiError("bad_request", checked.message, { conditions: checked.message });
  return checked.tree;
}

/**
 * What the segments list and the detail warn about each segment's fields, by segment id: a field
 * deleted since the segment was saved ("Uses a deleted field: tier"; its conditions match as if
 * nobody had a value), or a condition its field no longer takes. Segments without field conditions
 * cost nothing.
 */
export async function segmentFieldNotes(
  userId: string,
  segments: readonly { id: string; conditions: Conditions }[],
): Promise<Record<string, string[]>> {
  const trees = segments.flatMap((s) => {
    const parsed = parseConditions(s.conditions);
    return parsed.ok && fieldNamesOf(parsed.tree).length > 0 ? [{ id: s.id, tree: parsed.tree }] : [];
  });
  if (trees.length === 0) return {};
  const catalog = await fieldCatalog(userId);
  const notes: Record<string, string[]> = {};
  for (const { id, tree } of trees) {
    const warnings = segmentFieldWarnings(tree, catalog);
    if (warnings.length > 0) notes[id] = warnings;
  }
  return notes;
}

const parsedTrees = new Map<string, SegmentNode>();

/** segmentTree, remembered by the stored condition text (which alone decides the tree). */
function cachedSegmentTree(segment: SegmentConditionsRow): SegmentNode {
  let tree = parsedTrees.get(segment.conditions);
  if (!tree) {
    tree = segmentTree(segment);
    if (parsedTrees.size >= 1000) parsedTrees.clear();
    parsedTrees.set(segment.conditions, tree);
  }
  return tree;
}

function toSegmentDto(segment: SegmentRow): SegmentDto {
  return {
    _id: segment.id,
    id: segment.id,
    name: segment.name,
    description: segment.description,
    logicType: segment.logicType === "OR" ? "OR" : "AND",
    conditions: JSON.parse(segment.conditions) as Conditions,
    createdAt: segment.createdAt.toISOString(),
    updatedAt: segment.updatedAt.toISOString(),
  };
}

async function findSegment(userId: string, id: string): Promise<SegmentRow> {
  if (!isId(id)) throw notFound("Segment");
  const segment = await storedSegments.findSegmentOfUser(userId, id);
  if (!segment) throw notFound("Segment");
  return segment;
}

export type SegmentSort = "date" | "name" | "size";
export type SortDirection = "asc" | "desc";

/** The tenant's segments with their audience sizes, searched by name and sorted. */
export async function listSegments(
  userId: string,
  options: { q?: string; sort?: SegmentSort; dir?: SortDirection; take?: number } = {},
): Promise<SegmentWithCount[]> {
  const q = options.q?.trim();
  const rows = await storedSegments.findSegmentsOfUser(userId, { q: q || undefined, take: options.take ?? 500 });
  const counts = await audiences.sqlAudienceCounts(userId, await withSegmentReferences(userId, rows.map(segmentTree)));
  const list = rows.map((s, i) => ({ ...toSegmentDto(s), customerCount: counts[i] }));
  const sort = options.sort ?? "date";
  const dir = options.dir ?? (sort === "name" ? "asc" : "desc");
  const sign = dir === "asc" ? 1 : -1;
  const collator = new Intl.Collator("en", { sensitivity: "base", numeric: true });
  list.sort((a, b) => {
    const d =
      sort === "name"
        ? collator.compare(a.name, b.name)
        : sort === "size"
          ? a.customerCount - b.customerCount
          : a.createdAt.localeCompare(b.createdAt) || a.id.localeCompare(b.id);
    return d * sign || a.id.localeCompare(b.id);
  });
  return list;
}

/** The four cards of /segments. */
export async function segmentStats(userId: string, segments: SegmentWithCount[]) {
  const campaignsCreated = await storedSegments.countCampaignsOfUser(userId);
  const totalSegments = segments.length;
  const totalAudience = segments.reduce((n, s) => n + s.customerCount, 0);
  return {
    totalSegments,
    totalAudience,
    avgSegmentSize: totalSegments === 0 ? 0 : Math.round(totalAudience / totalSegments),
    campaignsCreated,
  };
}

export async function getSegment(userId: string, id: string): Promise<SegmentDto & { tree: SegmentNode }> {
  const segment = await findSegment(userId, id);
  return { ...toSegmentDto(segment), tree: segmentTree(segment) };
}

/**
 * The user's other segments (all of them but `exceptId`) by id and name: the duplicate-name
 * warning, and the segments a rule may test membership of.
 */
export async function otherSegments(userId: string, exceptId?: string): Promise<{ id: string; name: string }[]> {
  const rows = await storedSegments.segmentNamesOfUser(userId);
  return rows.filter((r) => r.id !== exceptId).map((r) => ({ id: r.id, name: r.name }));
}

/** The names of the user's other segments (all of them but `exceptId`), for the duplicate-name warning. */
export async function otherSegmentNames(userId: string, exceptId?: string): Promise<string[]> {
  return (await otherSegments(userId, exceptId)).map((s) => s.name);
}

async function nameWarnings(userId: string, name: string, exceptId?: string): Promise<string[]> {
  const warning = duplicateNameWarning(name, await otherSegmentNames(userId, exceptId));
  return warning ? [warning] : [];
}

export async function createSegment(userId: string, input: SegmentWriteInput): Promise<SavedSegment> {
  const tree = await checkedSegmentTree(userId, input.tree);
  const audience = await withSegmentReference(userId, tree, { strict: true });
  // Read before the insert, so the new segment is not its own duplicate.
  const warnings = await nameWarnings(userId, input.name);
  const conditions = toConditions(tree);
  const segment = await storedSegments.insertSegment({
    id: newId(),
    userId,
    name: input.name,
    description: input.description,
    logicType: topLogic(tree),
    conditions: JSON.stringify(conditions),
  });
  const customerCount = await audiences.sqlAudienceCount(userId, audience);
  await notify(userId, {
    type: "NEW_SEGMENT",
    title: "New segment created",
    details: `Segment "${segment.name}" was created with ${customerCount.toLocaleString("en-IN")} customer${customerCount === 1 ? "" : "s"}.`,
  });
  return { ...toSegmentDto(segment), customerCount, warnings };
}

export async function updateSegment(userId: string, id: string, input: SegmentWriteInput): Promise<SavedSegment> {
  await findSegment(userId, id);
  const tree = await checkedSegmentTree(userId, input.tree);
  // A segment may not include itself, through any chain of segments, and the segments that include
  // it must stay within the limits with its new rules.
  const audience = await withSegmentReference(userId, tree, { strict: true, selfId: id });
  await checkIncluders(userId, id, tree);
  const warnings = await nameWarnings(userId, input.name, id);
  const segment = await storedSegments.updateSegmentById(id, {
    name: input.name,
    description: input.description,
    logicType: topLogic(tree),
    conditions: JSON.stringify(toConditions(tree)),
  });
  return {
    ...toSegmentDto(segment),
    customerCount: await audiences.sqlAudienceCount(userId, audience),
    warnings,
  };
}

/** How many draft names the delete warning spells out; more are counted. */
const WARNING_NAMES = 5;

/**
 * The warning of deleting a segment that draft campaigns use (they keep their content but lose
 * the segment, so they cannot be launched until another is chosen), or null when none does. Shown
 * in the delete confirmation and answered by DELETE /api/segments/{id} as `warnings`.
 */
export async function segmentDeleteWarning(userId: string, id: string): Promise<string | null> {
  if (!isId(id)) return null;
  const names = await storedSegments.draftCampaignNamesUsingSegment(userId, id);
  if (names.length === 0) return null;
  const quoted = names.slice(0, WARNING_NAMES).map((n) => `"${n || "Unnamed Campaign"}"`);
  if (names.length > WARNING_NAMES) quoted.push(`${names.length - WARNING_NAMES} more`);
  const list = quoted.length === 1 ? quoted[0] : `${quoted.slice(0, -1).join(", ")} and ${quoted[quoted.length - 1]}`;
  return names.length === 1
    ? `Deleting this segment leaves the draft campaign ${list} without a segment: choose another segment before launching it.`
    : `Deleting this segment leaves the draft campaigns ${list} without a segment: choose another segment before launching them.`;
}

/**
 * Deletes the tenant's segment. One that other segments include is refused (409) with their names,
 * so no segment silently loses part of its rules.
 */
export async function deleteSegment(userId: string, id: string): Promise<void> {
  if (!isId(id)) throw notFound("Segment");
  const including = await segmentsIncluding(userId, id);
  if (including.length > 0) {
    const names = including.map((n) => `"${n}"`).join(", ");
    throw new ApiError(
      "conflict",
      including.length === 1
        ? `the segment ${names} includes this segment: remove that condition first`
        : `the segments ${names} include this segment: remove those conditions first`,
    );
  }
  if (!(await storedSegments.deleteSegmentOfUser(userId, id))) throw notFound("Segment");
}

/**
 * The WHERE of a stored segment over "Customer" (tenant first, values bound, in the database's
 * dialect), for the campaign snapshot's one `INSERT … SELECT … FROM "Customer" WHERE …`.
 */
export async function segmentWhere(userId: string, id: string): Promise<CompiledWhere> {
  const segment = await findSegment(userId, id);
  return audiences.audienceWhere(userId, await withSegmentReference(userId, segmentTree(segment)));
}

/** GET /api/segments/{id}/audience-count. */
export async function segmentAudienceCount(userId: string, id: string): Promise<number> {
  const segment = await findSegment(userId, id);
  return audiences.sqlAudienceCount(userId, await withSegmentReference(userId, segmentTree(segment)));
}

/** A page of a segment's audience in creation order; `nextCursor` is null on the last page. */
export async function segmentAudience(
  userId: string,
  id: string,
  options: { limit: number; cursor?: string },
): Promise<{ customers: AudienceCustomer[]; nextCursor: string | null }> {
  const segment = await findSegment(userId, id);
  const tree = await withSegmentReference(userId, segmentTree(segment));
  const rows = await audiences.sqlAudiencePage(userId, tree, options.limit + 1, options.cursor);
  const page = rows.slice(0, options.limit);
  return {
    customers: page.map(audienceCustomer),
    nextCursor: rows.length > options.limit ? page[page.length - 1].id : null,
  };
}

/**
 * POST /api/segments/preview and the live preview: the count and up to 10 sample customers.
 * `selfId`: the segment being edited, so a rule that would make it include itself is refused.
 */
export async function previewAudience(
  userId: string,
  tree: SegmentNode,
  selfId?: string,
): Promise<{ count: number; customers: AudienceCustomer[] }> {
  const checked = await withSegmentReference(userId, await checkedSegmentTree(userId, tree), {
    strict: true,
    ...(selfId ? { selfId } : {}),
  });
  const { count, rows } = await audiences.sqlAudiencePreviewAs(
    userId,
    checked,
    AUDIENCE_SAMPLE_SIZE,
    audienceCustomerFromTuple,
  );
  return { count, customers: rows };
}

/**
 * The detail screen: the count and the first 10 customers in creation order, the labels of the
 * fields the segment tests (for its conditions in words) and what it warns about them.
 */
export async function segmentOverview(userId: string, id: string) {
  const segment = await getSegment(userId, id);
  const audience = await withSegmentReference(userId, segment.tree);
  const count = await audiences.sqlAudienceCount(userId, audience);
  const rows = count === 0 ? [] : await audiences.sqlAudiencePage(userId, audience, AUDIENCE_SAMPLE_SIZE);
  const names = fieldNamesOf(segment.tree);
  const catalog = names.length > 0 ? await fieldCatalog(userId) : null;
  const fieldLabels: Record<string, string> = {};
  for (const name of names) {
    const field = catalog?.get(name);
    if (field) fieldLabels[name] = field.label;
  }
  const references = await segmentReferenceNotes(userId, segment.tree);
  const warnings = [...(catalog ? segmentFieldWarnings(segment.tree, catalog) : []), ...references.warnings];
  return {
    segment,
    count,
    customers: rows.map(audienceCustomer),
    fieldLabels,
    segmentNames: references.names,
    warnings,
  };
}

/** The tenant's segments that contain one customer (chips on the customer detail), in one query. */
export async function segmentsForCustomer(userId: string, customerId: string): Promise<{ id: string; name: string }[]> {
  if (!isId(customerId)) return [];
  // On every customer detail (GET /api/customers/{id}): each stored condition text is parsed once.
  return segmentsMatchingCustomer(userId, customerId, await storedSegments.segmentConditionsOfUser(userId));
}

/** Which of the tenant's segments (read already, with their conditions) contain the customer, in one query. */
export async function segmentsMatchingCustomer(
  userId: string,
  customerId: string,
  segments: (SegmentConditionsRow & { name: string })[],
): Promise<{ id: string; name: string }[]> {
  if (segments.length === 0) return [];
  const trees = await withSegmentReferences(userId, segments.map(cachedSegmentTree));
  // A query for as many segments as keep its bound values well under the engines' limits (SQLite
  // 32,766): segments that include others carry the included ones' conditions too.
  const matches: boolean[] = [];
  for (const chunk of byConditions(trees, MATCH_CHUNK_CONDITIONS)) {
    matches.push(...(await audiences.sqlMatchesForCustomer(userId, customerId, chunk)));
  }
  return segments.filter((_, i) => matches[i]).map((s) => ({ id: s.id, name: s.name }));
}

/** The most conditions one query of a customer's segments compiles (each binds a few values). */
const MATCH_CHUNK_CONDITIONS = 200;

/** The trees in order, in runs of at most `limit` conditions in all (a larger tree alone). */
function byConditions(trees: readonly SegmentNode[], limit: number): SegmentNode[][] {
  const runs: SegmentNode[][] = [];
  let run: SegmentNode[] = [];
  let size = 0;
  for (const tree of trees) {
    const n = countResolvedConditions(tree);
    if (run.length > 0 && size + n > limit) {
      runs.push(run);
      run = [];
      size = 0;
    }
    run.push(tree);
    size += n;
  }
  if (run.length > 0) runs.push(run);
  return runs;
}
