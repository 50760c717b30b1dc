// A field definition as the Fields screen and /api/fields take it (docs/decisions/0041-custom-fields-and-tags.md):
// POST `{ name, label, type, choices?, defaultValue? }`, PATCH `{ label?, choices?, defaultValue?,
// retired?, position? }`. The name and type of a field never change; its default is checked against
// its type by the service (it needs the field's choices).
import { z } from "zod";
import {
  type FieldDefinition,
  FIELD_TYPES,
  fieldNameProblem,
  MAX_CHOICE_LENGTH,
  MAX_CHOICES,
  MAX_FIELD_LABEL,
} from "~/lib/custom-fields";
import { singleLine } from "~/schemas/text";

export const FIELD_MESSAGES = {
  label: "Label is required",
  type: `Type must be one of: ${FIELD_TYPES.join(", ")}`,
  choices: "A choice field needs at least one choice",
  choicesOnlyForChoice: "Only a choice field has choices",
  duplicateChoice: "Each choice may appear only once",
} as const;

const label = singleLine(z.string({ message: FIELD_MESSAGES.label }).trim(), "Label")
  .min(1, FIELD_MESSAGES.label)
  .max(MAX_FIELD_LABEL, `Label must be at most ${MAX_FIELD_LABEL} characters`);

const choices = z
  .array(
    singleLine(z.string({ message: "Each choice must be text" }).trim(), "Choice")
      .min(1, "A choice must not be empty")
      .max(MAX_CHOICE_LENGTH, `A choice must be at most ${MAX_CHOICE_LENGTH} characters`),
    { message: "choices must be a list of text" },
  )
  .max(MAX_CHOICES, `At most ${MAX_CHOICES} choices`)
  .refine((list) => new Set(list.map((c) => c.toLowerCase())).size === list.length, FIELD_MESSAGES.duplicateChoice);

const defaultValue = z.union([z.string(), z.number(), z.boolean(), z.null()]).optional();

export const NewFieldSchema = z
  .object({
    name: z
      .string({ message: "Name is required" })
      .trim()
      .superRefine((value, ctx) => {
        const problem = fieldNameProblem(value);
        if (problem) ctx.addIssue({ code: "custom", message: problem });
      }),
    label,
    type: z.enum(FIELD_TYPES, { message: FIELD_MESSAGES.type }),
    choices: choices.optional(),
    defaultValue,
  })
  .superRefine((value, ctx) => {
    if (value.type === "choice" && (value.choices ?? []).length === 0) {
      ctx.addIssue({ code: "custom", path: ["choices"], message: FIELD_MESSAGES.choices });
    }
    if (value.type !== "choice" && (value.choices ?? []).length > 0) {
      ctx.addIssue({ code: "custom", path: ["choices"], message: FIELD_MESSAGES.choicesOnlyForChoice });
    }
  });

export const FieldChangeSchema = z.object({
  label: label.optional(),
  choices: choices.optional(),
  defaultValue,
  retired: z.boolean({ message: "retired must be true or false" }).optional(),
  position: z.number({ message: "position must be a whole number from 1" }).int().min(1).max(10_000).optional(),
});

export type NewFieldInput = z.infer<typeof NewFieldSchema>;
export type FieldChangeInput = z.infer<typeof FieldChangeSchema>;

/**
 * A new field as its input describes it, before it has a default: what the default given with it is
 * read against (its type and choices), on the Fields screen as in the service.
 */
export function newFieldDraft({ name, label, type, choices = [] }: NewFieldInput): FieldDefinition {
  return { name, label, type, choices, defaultValue: null, builtIn: false, retired: false };
}
