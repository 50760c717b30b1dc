// Segment trees for property tests (fast-check): any AND/OR nesting of the given conditions, as a
// segment's `conditions` JSON. Each test gives the conditions it probes (values near the bounds it
// cares about) and how deep the trees go.
import fc, { type OneOfConstraints } from "fast-check";

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
