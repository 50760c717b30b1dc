// The customer form (app/routes/customers-form.tsx) with its Fields section and its tags: the seven
// fixed inputs of CustomerFormSchema, an input `fields.<name>` for each field the user's form shows
// (built-in and their own, not retired), and `tags`, typed separated by commas. The schema is made
// from the user's fields, in the browser from the loader's list and on the server from theirs, and
// reads each value as the service does (readFieldValue), naming the field in its message.
import { z } from "zod";
import { apiFieldValue, type FieldDefinition, type FieldValues, readFieldValue } from "~/lib/custom-fields";
import { CustomerFormSchema } from "~/schemas/customer";
import { TagListTextSchema, tagsFromText } from "~/schemas/tag-form";

/** The form's schema for these fields. */
export function customerFormSchema(fields: readonly Pick<FieldDefinition, "name" | "label" | "type" | "choices">[]) {
  const inputs = Object.fromEntries(
    fields.map((field) => [
      field.name,
      z
        .string()
        .optional()
        .superRefine((value, ctx) => {
          const result = readFieldValue({ ...field, defaultValue: null, builtIn: false, retired: false }, value ?? "");
          if (!result.ok) ctx.addIssue({ code: "custom", message: `${field.label} ${result.message}` });
        }),
    ]),
  );
  return CustomerFormSchema.extend({ fields: z.object(inputs).optional(), tags: TagListTextSchema });
}

/** The form's values as its inputs hold them. */
export type CustomerFormValues = z.input<ReturnType<typeof customerFormSchema>>;

/**
 * The inputs' starting values: the customer's values, or for a new customer each field's default;
 * as the inputs hold them (a number as its digits, yes/no as "true"/"false").
 */
export function fieldInputValues(
  fields: readonly FieldDefinition[],
  values: FieldValues | null,
): Record<string, string> {
  const start: Record<string, string> = {};
  for (const field of fields) {
    const value = values
      ? values[field.name]
      : field.defaultValue === null
        ? undefined
        : apiFieldValue(field.type, field.defaultValue);
    if (value !== undefined) start[field.name] = String(value);
  }
  return start;
}

/**
 * What a save writes besides the record: each field whose input the form sent (an empty one
 * clears the value; a field added since the form was opened is left as it is) and the tags typed
 * (replacing the customer's), when the form sent them.
 */
export function customerExtrasFrom(
  form: FormData,
  fields: readonly FieldDefinition[],
  typed: { fields?: Record<string, string | undefined>; tags?: string },
): { fields: Record<string, string | null>; tags?: string[] } {
  const values: Record<string, string | null> = {};
  for (const field of fields) {
    if (form.has(`fields.${field.name}`)) values[field.name] = typed.fields?.[field.name] ?? null;
  }
  return { fields: values, ...(form.has("tags") ? { tags: tagsFromText(typed.tags) } : {}) };
}
