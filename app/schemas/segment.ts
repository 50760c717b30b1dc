// Segment payloads (spec §7), shared by the /api routes and the segment form. The conditions are
// the Mongo-style mapping, checked against the whitelist of fields and operators; a bad tree is
// refused with a message that names the bad part.
import { z } from "zod";
import { MESSAGES, builderToTree, validateConditions, type BuilderGroup } from "~/lib/segments-builder";
import { type SegmentNode, parseConditions, topLogic } from "~/lib/segments";

/** The condition tree: in, the mapping; out, the validated tree. */
export const ConditionsSchema = z.unknown().transform((value, ctx): SegmentNode => {
  if (value === undefined || value === null) {
    ctx.addIssue({ code: "custom", message: "conditions are required" });
    return z.NEVER;
  }
  const parsed = parseConditions(value);
  if (!parsed.ok) {
    ctx.addIssue({ code: "custom", message: parsed.message });
    return z.NEVER;
  }
  return parsed.tree;
});

const name = z
  .string({ message: MESSAGES.nameRequired })
  .trim()
  .min(1, MESSAGES.nameRequired)
  .max(120, "At most 120 characters");
const description = z.string().trim().max(1000, "At most 1000 characters");
const logicType = z.enum(["AND", "OR"], { message: "logicType must be AND or OR" });

/**
 * POST /api/segments and PUT /api/segments/{id}. With several conditions at the top level given
 * as one mapping (`{ totalSpend: {...}, visits: {...} }`), logicType says how they combine.
 */
export const SegmentInputSchema = z
  .object({
    name,
    description: description.default(""),
    conditions: ConditionsSchema,
    logicType: logicType.optional(),
  })
  .transform((input) => {
    let tree = input.conditions;
    if (input.logicType === "OR" && tree.kind === "group" && tree.logic === "AND" && isImplicitTopLevel(tree)) {
      tree = { ...tree, logic: "OR" };
    }
    return { name: input.name, description: input.description, tree, logicType: topLogic(tree) };
  });

/** Several fields in one mapping parse as an AND group of plain conditions. */
function isImplicitTopLevel(tree: SegmentNode): boolean {
  return tree.kind === "group" && tree.children.every((c) => c.kind === "condition");
}

export type SegmentInput = z.infer<typeof SegmentInputSchema>;

export const PreviewInputSchema = z.object({ conditions: ConditionsSchema });

export const AudienceQuerySchema = z.object({
  limit: z.coerce.number().int("limit must be a whole number").min(1, "limit must be at least 1").max(1000, "limit must be at most 1000").default(100),
  cursor: z
    .string()
    .regex(/^[0-9a-f]{24}$/, "cursor must be a customer id")
    .optional(),
});

/** The segment form: name, description and the builder, validated with spec §5's messages. */
export const SegmentFormSchema = z
  .object({
    name: z.string().trim().max(120, "At most 120 characters"),
    description: description,
    builder: z.custom<BuilderGroup>(),
  })
  .superRefine((value, ctx) => {
    if (value.name === "") ctx.addIssue({ code: "custom", path: ["name"], message: MESSAGES.nameRequired });
    const problem = validateConditions(value.builder);
    if (problem) ctx.addIssue({ code: "custom", path: ["conditions"], message: problem });
  })
  .transform((value) => {
    const tree = builderToTree(value.builder);
    return { name: value.name, description: value.description, tree, logicType: topLogic(tree) };
  });
