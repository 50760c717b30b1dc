// A segment as createSegment() and updateSegment() take one, for the segment service tests
// (segments.server.test.ts, segment-references.server.test.ts): a name, no description, and the
// rule tree of the `conditions` JSON (a test's own, so an invalid one throws).
import { parsedTree } from "../../tests/helpers/segment-trees";

export function segmentInput(name: string, conditions: unknown) {
  return { name, description: "", tree: parsedTree(conditions) };
}
