// Segment trees for property tests (fast-check): any AND/OR nesting of the given conditions, as a
// segment's `conditions` JSON. Each test gives the conditions it probes (values near the bounds it
// cares about) and how deep the trees go.
import fc, { type OneOfConstraints } from "fast-check";
import { parseConditions } from "~/lib/segment-parse";
import type { SegmentNode } from "~/lib/segments";

type Conditions = Record<string, unknown>;

export function segmentTreeArb(
  conditionArb: fc.Arbitrary<Conditions>,
  depth: OneOfConstraints = { depthSize: "small", withCrossShrink: true },
): fc.Arbitrary<Conditions> {
  return fc.letrec<{ node: Conditions }>((tie) => ({
    node: fc.oneof(
      depth,
      conditionArb,
      fc
        .record({
          logic: fc.constantFrom("$and", "$or"),
          children: fc.array(tie("node"), { minLength: 1, maxLength: 4 }),
        })
        .map(({ logic, children }): Conditions => ({ [logic]: children })),
    ),
  })).node;
}

/** The rule tree of a segment's `conditions` JSON (a test's own, so an invalid one throws). */
export function parsedTree(conditions: unknown): SegmentNode {
  const parsed = parseConditions(conditions);
  if (!parsed.ok) throw new Error(parsed.message);
  return parsed.tree;
}
