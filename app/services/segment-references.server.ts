// Segments that include other segments: `{ "inSegment": { "$eq": "<id>" } }` (is in) and `$ne` (is
// not in), docs/rules.md#segment-membership. The parser knows only the id; before an audience is
// counted, paged or snapshotted, each reference is read here, in the tenant's own segments, and
// given the tree of the segment it names (its own references read in turn), as that segment's
// rules stand at that moment. "Is in" is that tree in the condition's place, so the count shapes of
// an ordinary tree apply; "is not in" keeps the node with the tree as its target.
//
// A tree from a caller (saving, the live preview) is held to the rules: the segment must exist,
// must not include itself through any chain, and chains are at most MAX_SEGMENT_NESTING deep, with
// at most MAX_RESOLVED_CONDITIONS conditions in all; a 400 says which. Saving a segment checks the
// segments that include it too (checkIncluders()), so the limits hold for every stored segment. A
// stored segment is read leniently: a segment deleted since (only possible in a race with the
// delete's check) or a loop made by two saves at once holds nobody, and the segment's page says
// so; a launch reads strictly and refuses such a segment (app/services/campaigns/drafts.server.ts).
import { ApiError } from "~/lib/api.server";
import { IN_SEGMENT_KEY, type SegmentNode, type SegmentRefNode, countConditions, distinctInTree } from "~/lib/segments";
import { parseConditions } from "~/lib/segment-parse";
import { storedSegments } from "~/models/segments/store.server";

/** How deep segments may include segments that include segments. */
export const MAX_SEGMENT_NESTING = 5;
/** The most conditions a tree may hold once the segments it includes are counted in. */
export const MAX_RESOLVED_CONDITIONS = 500;

/** The ids of the segments a tree refers to, each once, in order of appearance. */
export function referencedSegmentIds(tree: SegmentNode): string[] {
  return distinctInTree(tree, (node) => (node.kind === "segment" ? node.segmentId : undefined));
}

type Known = { name: string; tree: SegmentNode | null };

/** The tenant's segments by id (read once per call, only when some tree refers to one). */
async function segmentsById(userId: string, override?: { id: string; tree: SegmentNode }): Promise<Map<string, Known>> {
  const rows = await storedSegments.segmentConditionsOfUser(userId);
  const byId = new Map<string, Known>();
  for (const row of rows) {
    const parsed = parseConditions(JSON.parse(row.conditions));
    byId.set(row.id, { name: row.name, tree: parsed.ok ? parsed.tree : null });
  }
  // A segment being saved is read with the rules it is about to have.
  const saved = override ? byId.get(override.id) : undefined;
  if (override && saved) byId.set(override.id, { ...saved, tree: override.tree });
  return byId;
}

export type ReferenceOptions = {
  /** Refuse with a 400 what the rules forbid (a caller's tree), instead of reading it as holding nobody. */
  strict?: boolean;
  /** The segment the tree is saved as: a reference to it, through any chain, is a loop. */
  selfId?: string;
};

function refused(message: string): ApiError {
  return new ApiError("bad_request", message, { conditions: message });
}

/**
 * One tree with its references set (see the top of this file), against the tenant's segments
 * `known`; `reached` collects the ids of every segment it includes, through any chain.
 */
function resolveTree(
  tree: SegmentNode,
  known: ReadonlyMap<string, Known>,
  options: ReferenceOptions,
  reached: Set<string> = new Set(),
): SegmentNode {
  const strict = options.strict ?? false;
  const path: string[] = options.selfId ? [options.selfId] : [];
  let conditions = countConditions(tree);
  const nameOf = (id: string) => `"${known.get(id)?.name ?? id}"`;
  const resolve = (node: SegmentNode): SegmentNode => {
    if (node.kind === "group") return { ...node, children: node.children.map(resolve) };
    if (node.kind !== "segment") return node;
    const target = known.get(node.segmentId);
    if (path.includes(node.segmentId)) {
      if (!strict) return hollow(node);
      const loop = [...path.slice(path.indexOf(node.segmentId)), node.segmentId].map(nameOf).join(" → ");
      throw refused(`conditions.${IN_SEGMENT_KEY}: a segment cannot include itself (${loop})`);
    }
    if (!target || target.tree === null) {
      if (!strict) return hollow(node);
      throw refused(`conditions.${IN_SEGMENT_KEY}: there is no segment with the id ${node.segmentId}`);
    }
    // The limits hold every segment when it is saved, and every segment that includes it
    // (checkIncluders()); a stored chain is read whole.
    if (strict && path.length >= MAX_SEGMENT_NESTING + (options.selfId ? 1 : 0)) {
      throw refused(`conditions.${IN_SEGMENT_KEY}: segments may include segments at most ${MAX_SEGMENT_NESTING} deep`);
    }
    conditions += countConditions(target.tree) - 1;
    if (strict && conditions > MAX_RESOLVED_CONDITIONS) {
      throw refused(
        `conditions: at most ${MAX_RESOLVED_CONDITIONS} conditions are allowed, counting those of the segments it includes`,
      );
    }
    reached.add(node.segmentId);
    path.push(node.segmentId);
    const inner = resolve(target.tree);
    path.pop();
    // Is in: the segment's own tree in this place. Is not in: the node, with the tree to negate.
    return node.op === "$eq" ? inner : { ...node, target: { name: target.name, tree: inner } };
  };
  return resolve(tree);
}

/**
 * The trees with every segment they refer to read and set (see the top of this file), in the
 * same order. Trees without references are returned as they are, without a query.
 */
export async function withSegmentReferences(
  userId: string,
  trees: readonly SegmentNode[],
  options: ReferenceOptions = {},
): Promise<SegmentNode[]> {
  if (trees.every((tree) => referencedSegmentIds(tree).length === 0)) return [...trees];
  const known = await segmentsById(userId);
  return trees.map((tree) => resolveTree(tree, known, options));
}

/**
 * Whether saving segment `id` with `tree` keeps every segment that includes it (through any chain)
 * within the limits: each is read strictly with the new rules in place. A 400 names the first that
 * would not be: 'conditions: the segment "A" includes this one: segments may include segments at
 * most 5 deep'.
 */
export async function checkIncluders(userId: string, id: string, tree: SegmentNode): Promise<void> {
  const known = await segmentsById(userId, { id, tree });
  for (const [otherId, other] of known) {
    if (otherId === id || other.tree === null || referencedSegmentIds(other.tree).length === 0) continue;
    const reached = new Set<string>();
    resolveTree(other.tree, known, { selfId: otherId }, reached);
    if (!reached.has(id)) continue;
    try {
      resolveTree(other.tree, known, { strict: true, selfId: otherId });
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      throw refused(
        `conditions: the segment "${other.name}" includes this one: ${error.message.replace(/^conditions[^:]*: /, "")}`,
      );
    }
  }
}

/** A reference that holds nobody: its segment is gone, or it closes a loop. */
function hollow(node: SegmentRefNode): SegmentRefNode {
  return { ...node, target: null };
}

/** The conditions a resolved tree compiles, those of the segments it includes counted in. */
export function countResolvedConditions(tree: SegmentNode): number {
  if (tree.kind === "group") return tree.children.reduce((n, c) => n + countResolvedConditions(c), 0);
  if (tree.kind === "segment" && tree.target) return countResolvedConditions(tree.target.tree);
  return 1;
}

/** withSegmentReferences() of one tree. */
export async function withSegmentReference(
  userId: string,
  tree: SegmentNode,
  options: ReferenceOptions = {},
): Promise<SegmentNode> {
  const [resolved] = await withSegmentReferences(userId, [tree], options);
  return resolved;
}

/**
 * The names of the tenant's segments a tree refers to, by id (for its conditions in words), and a
 * warning when one of them no longer exists.
 */
export async function segmentReferenceNotes(
  userId: string,
  tree: SegmentNode,
): Promise<{ names: Record<string, string>; warnings: string[] }> {
  const ids = referencedSegmentIds(tree);
  if (ids.length === 0) return { names: {}, warnings: [] };
  const rows = await storedSegments.segmentNamesOfUser(userId);
  const names: Record<string, string> = {};
  for (const row of rows) if (ids.includes(row.id)) names[row.id] = row.name;
  const missing = ids.filter((id) => !(id in names)).length;
  const warnings =
    missing === 0
      ? []
      : [
          missing === 1
            ? "Uses a deleted segment: nobody is in it"
            : `Uses ${missing} deleted segments: nobody is in them`,
        ];
  return { names, warnings };
}

/** The names of the tenant's other segments that include this one, oldest first. */
export async function segmentsIncluding(userId: string, id: string): Promise<string[]> {
  const rows = await storedSegments.segmentConditionsOfUser(userId);
  return rows
    .filter((row) => {
      if (row.id === id || !row.conditions.includes(id)) return false;
      const parsed = parseConditions(JSON.parse(row.conditions));
      return parsed.ok && referencedSegmentIds(parsed.tree).includes(id);
    })
    .map((row) => row.name);
}
