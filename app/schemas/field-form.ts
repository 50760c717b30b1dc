// The Fields screen's forms (app/routes/fields.tsx): a new field as a person types it, a new label,
// and the row buttons (move, retire, restore, delete). A new field's rules are NewFieldSchema's
// (app/schemas/custom-field.ts) and its default is read as the service reads it (readFieldValue),
// so the browser says as it is typed what the server says on submit, in the same words.
import { z } from "zod";
import { fieldNameFrom, isFieldType, readFieldValue } from "~/lib/custom-fields";
import { FieldChangeSchema, NewFieldSchema, newFieldDraft, type NewFieldInput } from "~/schemas/custom-field";

export const FIELD_FORM_MESSAGES = {
  name: "Name is required: the label gives none, so type one",
} as const;

/** The choices textarea: one a line, blank lines left out. */
export function choicesFromText(text: string | undefined): string[] {
  return (text ?? "")
    .split(/\r?\n/)
    .map((c) => c.trim())
    .filter((c) => c !== "");
}

/** The Add field form's inputs as typed (Conform sends an empty input as undefined). */
export const AddFieldInputsSchema = z.object({
  intent: z.literal("add"),
  label: z.string().optional(),
  name: z.string().optional(),
  type: z.string().optional(),
  choices: z.string().optional(),
  defaultValue: z.string().optional(),
});

/**
 * The Add field form read as /api reads a new field: a name left empty is the one the label
 * suggests (fieldNameFrom), choices count only for a choice field, the default is checked against
 * the type and choices. Each problem is put under its input.
 */
export const AddFieldFormSchema = AddFieldInputsSchema.transform((form, ctx): NewFieldInput => {
  const label = form.label ?? "";
  const typedName = form.name?.trim() ?? "";
  const name = typedName || fieldNameFrom(label) || "";
  const defaultValue = form.defaultValue?.trim() || undefined;
  const parsed = NewFieldSchema.safeParse({
    name,
    label,
    type: form.type,
    choices: form.type === "choice" ? choicesFromText(form.choices) : undefined,
    defaultValue,
  });
  if (!parsed.success) {
    const seen = new Set<string>();
    for (const issue of parsed.error.issues) {
      const input = String(issue.path[0] ?? "");
      // One message an input: the first (a name left empty when the label gives none says so).
      if (seen.has(input)) continue;
      seen.add(input);
      if (input === "name" && !name) {
        // Without a label the label's own message says what to do.
        if (label.trim()) ctx.addIssue({ code: "custom", path: ["name"], message: FIELD_FORM_MESSAGES.name });
        continue;
      }
      ctx.addIssue({ code: "custom", path: [input], message: issue.message });
    }
    return z.NEVER;
  }
  const field = parsed.data;
  if (field.defaultValue !== undefined && isFieldType(field.type)) {
    const result = readFieldValue(newFieldDraft(field), field.defaultValue);
    if (!result.ok) {
      ctx.addIssue({ code: "custom", path: ["defaultValue"], message: `Default ${result.message}` });
      return z.NEVER;
    }
  }
  return field;
});

const fieldName = z.string({ message: "Choose a field" }).trim().min(1, "Choose a field").max(100);

/** A field's new label (the row's Rename form). */
export const RenameFieldFormSchema = z.object({
  intent: z.literal("rename"),
  name: fieldName,
  label: FieldChangeSchema.shape.label.unwrap(),
});

/** A row's buttons and confirmations: move up or down, retire, restore, delete. */
export const FieldRowFormSchema = z.discriminatedUnion("intent", [
  z.object({ intent: z.literal("move"), name: fieldName, direction: z.enum(["up", "down"]) }),
  z.object({ intent: z.literal("retire"), name: fieldName }),
  z.object({ intent: z.literal("restore"), name: fieldName }),
  z.object({ intent: z.literal("delete"), name: fieldName }),
]);

export type FieldRowForm = z.infer<typeof FieldRowFormSchema>;
