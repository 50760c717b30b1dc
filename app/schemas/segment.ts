// Segment payloads, shared by the /api routes and the segment form. The conditions are the
// Mongo-style mapping, checked against the whitelist of fields and operators; a bad tree is refused
// with a message that names the bad part. The form's builder rows are turned into that mapping and
// judged by the same schema, so the form refuses exactly what the API refuses.
import { z } from "zod";
import { type BuilderRow, MESSAGES, rowsToConditions, validateConditions } from "~/lib/segments-builder";
import { CHOICES_SEPARATOR } from "~/lib/segment-builder-fields";
import { type SegmentNode, topLogic } from "~/lib/segments";
import { parseConditions } from "~/lib/segment-parse";
import { ACTIVITY_KEYS, isActivityKey } from "~/lib/segment-activity";
import { multiLine, singleLine } from "~/schemas/text";

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

const name = singleLine(z.string({ message: MESSAGES.nameRequired }).trim(), "Name")
  .min(1, MESSAGES.nameRequired)
  .max(120, "At most 120 characters");
const description = multiLine(z.string().trim(), "Description").max(1000, "At most 1000 characters");
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
  return tree.kind === "group" && tree.children.every((c) => c.kind !== "group");
}

export type SegmentInput = z.infer<typeof SegmentInputSchema>;

export const PreviewInputSchema = z.object({ conditions: ConditionsSchema });

export const AudienceQuerySchema = z.object({
  limit: z.coerce
    .number()
    .int("limit must be a whole number")
    .min(1, "limit must be at least 1")
    .max(1000, "limit must be at most 1000")
    .default(100),
  cursor: z
    .string()
    .regex(/^[0-9a-f]{24}$/, "cursor must be a customer id")
    .optional(),
});

// The segment form. Conform posts the builder as nested lists: `conditions.logic`, then for each
// row `conditions.children[i].kind` and either `.field`, `.op`, `.value` or `.logic` and its own
// `.children[j]…`. Field, operator and value stay text until the conditions schema judges them.

/** A builder row as the form holds it before parsing (a value may be missing). */
export type BuilderRowInput =
  | { kind: "condition"; field?: string; op?: string; value?: string | string[]; window?: string }
  | { kind: "group"; logic?: "AND" | "OR"; children?: BuilderRowInput[] };

const ConditionRowSchema = z
  .object({
    kind: z.literal("condition"),
    field: z.string().default(""),
    op: z.string().default(""),
    // A multiple select (the choices of "is any of") posts each chosen one: they are kept one per line.
    value: z
      .union([z.string(), z.array(z.string())])
      .default("")
      .transform((v) => (Array.isArray(v) ? v.join(CHOICES_SEPARATOR) : v)),
    // The "in the last N days" of an activity row (orders, spend, messages received) is its own
    // input; it rides on the operator (`$gte:within:30`), as the rows of an opened segment hold it.
    window: z.string().optional(),
  })
  .transform(({ window, ...row }) => {
    const days = window?.trim() ?? "";
    // Only a key that takes a window folds it: a window input left from the row's previous field
    // (a field changed without JavaScript) is dropped.
    const takesWindow = isActivityKey(row.field) && ACTIVITY_KEYS[row.field].window !== "none";
    if (!takesWindow || days === "" || row.op.includes(":within:")) return row;
    return { ...row, op: `${row.op}:within:${days}` };
  });

const GroupRowSchema = z.object({
  kind: z.literal("group"),
  logic: logicType.default("AND"),
  children: z.lazy(() => BuilderRowListSchema),
});

const BuilderRowListSchema: z.ZodType<BuilderRow[], BuilderRowInput[] | undefined> = z
  .array(
    z.discriminatedUnion("kind", [ConditionRowSchema, GroupRowSchema], {
      message: "Each row must be a condition or a group",
    }),
  )
  .default([]);

/**
 * The builder's rows, judged first with the builder's own messages (a missing or non-numeric
 * value…) and then, as the API's conditions mapping, by ConditionsSchema.
 */
export const BuilderConditionsSchema = z
  .object({ logic: logicType.default("AND"), children: BuilderRowListSchema })
  // The mapping goes on as unknown input: judging it is ConditionsSchema's job, as for the API.
  .transform((rows, ctx): unknown => {
    const problem = validateConditions(rows);
    if (problem) {
      ctx.addIssue({ code: "custom", message: problem });
      return z.NEVER;
    }
    return rowsToConditions(rows);
  })
  .pipe(ConditionsSchema);

/** The segment form: name, description and the builder's rows, refused with the builder's messages. */
export const SegmentFormSchema = z
  .object({
    name,
    description: description.default(""),
    conditions: BuilderConditionsSchema,
  })
  .transform((input) => ({
    name: input.name,
    description: input.description,
    tree: input.conditions,
    logicType: topLogic(input.conditions),
  }));

export type SegmentFormInput = z.input<typeof SegmentFormSchema>;
