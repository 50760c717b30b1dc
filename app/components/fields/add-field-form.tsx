// The Fields screen's Add a field form (app/routes/fields.tsx): label, name (suggested from the
// label), type, choices and default, checked as typed and again by the server.
import { getInputProps, getSelectProps, getTextareaProps, useForm } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod/v4";
import { Plus } from "lucide-react";
import { useRef } from "react";
import { Field, FormAlert, LIVE_VALIDATION, SelectField, TextareaField } from "~/components/forms";
import { FIELD_TYPE_LABELS, FIELD_TYPES, fieldNameFrom, type FieldType } from "~/lib/custom-fields";
import { AddFieldFormSchema, AddFieldInputsSchema, choicesFromText } from "~/schemas/field-form";
import { IntentForm, usePostingIntent } from "~/components/intent-form";
import { SubmitButton } from "~/components/submit-button";
import { TitledCard } from "~/components/titled-card";
import { useHydrated } from "~/components/hydrated";
import { useResetAfterPost } from "~/components/reset-after-post";
import type { FieldFormReply } from "~/components/fields/field-row";

const TYPE_OPTIONS = FIELD_TYPES.map((t) => ({ value: t, label: FIELD_TYPE_LABELS[t] }));

const YES_NO_OPTIONS = [
  { value: "yes", label: "Yes" },
  { value: "no", label: "No" },
];

/** The Add a field form: label, name (suggested from the label), type, choices, default. */
export function AddFieldForm({ reply }: { reply: FieldFormReply }) {
  const adding = usePostingIntent("add");
  const [form, inputs] = useForm({
    id: "add-field",
    lastResult: reply as never,
    defaultValue: { type: "text" },
    constraint: getZodConstraint(AddFieldInputsSchema),
    onValidate: ({ formData }) => parseWithZod(formData, { schema: AddFieldFormSchema }),
    ...LIVE_VALIDATION,
  });
  // The name follows the label until the user types a name of their own.
  const suggested = useRef(fieldNameFrom(String(inputs.label.initialValue ?? "")) ?? "");
  // A choice field's default is picked from the choices typed, which takes a script; without one
  // (and until the page's script runs) it is typed.
  const scripted = useHydrated();
  // After a field was added (the action redirected: no reply), the form starts empty again.
  useResetAfterPost(adding, reply, () => {
    form.reset();
    suggested.current = "";
  });
  const type = (FIELD_TYPES as readonly string[]).includes(String(inputs.type.value))
    ? (inputs.type.value as FieldType)
    : "text";
  const defaultProps = { ...getInputProps(inputs.defaultValue, { type: "text" }), autoComplete: "off" };
  // A yes/no or choice field's default is picked from a list; any other is typed.
  const defaultOptions =
    type === "boolean"
      ? YES_NO_OPTIONS
      : type === "choice" && scripted
        ? choicesFromText(String(inputs.choices.value ?? "")).map((c) => ({ value: c, label: c }))
        : null;

  return (
    <TitledCard
      headingId="add-field-heading"
      title="Add a field"
      headingClassName="font-semibold text-slate-900"
      id="add"
    >
      <p className="mt-1 text-sm text-slate-600">
        A field of your own for every customer. Its name is how CSV files, segments and the API know it; it cannot be
        changed later.
      </p>
      <IntentForm form={form} intent="add" action="/fields" className="group mt-4 grid gap-4 sm:grid-cols-2">
        <div className="sm:col-span-2">
          <FormAlert id={form.errorId} errors={form.errors} />
        </div>
        <Field
          label="Label"
          required
          inputProps={{
            ...getInputProps(inputs.label, { type: "text" }),
            autoComplete: "off",
            placeholder: "Loyalty tier",
            onInput: (event) => {
              const next = fieldNameFrom(event.currentTarget.value) ?? "";
              const name = event.currentTarget.form?.elements.namedItem("name");
              const current = name instanceof HTMLInputElement ? name.value : "";
              if (current === "" || current === suggested.current) {
                form.update({ name: inputs.name.name, value: next, validated: false });
              }
              suggested.current = next;
            },
          }}
          errors={inputs.label.errors}
        />
        <Field
          label="Name"
          hint="Lowercase letters, digits and _. Left empty, it is made from the label."
          inputProps={{
            ...getInputProps(inputs.name, { type: "text" }),
            autoComplete: "off",
            spellCheck: false,
            placeholder: "loyalty_tier",
            className: "input font-mono",
          }}
          errors={inputs.name.errors}
        />
        <SelectField
          label="Type"
          selectProps={getSelectProps(inputs.type)}
          options={TYPE_OPTIONS}
          errors={inputs.type.errors}
        />
        {/* Only for a choice field: hidden by CSS while another type is chosen, so without JavaScript
            too. Beside the type, over two rows: the default under the type is picked from it. */}
        <TextareaField
          className="sm:row-span-2 group-has-[select[name=type]_option:not([value=choice]):checked]:hidden"
          label="Choices"
          hint="One choice a line."
          textareaProps={{
            ...getTextareaProps(inputs.choices),
            rows: 5,
            autoComplete: "off",
            placeholder: "Gold\nSilver\nBronze",
          }}
          errors={inputs.choices.errors}
        />
        {defaultOptions ? (
          <SelectField
            label="Default"
            hint="What a new customer gets when none is given."
            placeholder="—"
            selectProps={getSelectProps(inputs.defaultValue)}
            options={defaultOptions}
            errors={inputs.defaultValue.errors}
          />
        ) : (
          <Field
            label="Default"
            hint="What a new customer gets when none is given. Optional."
            inputProps={
              type === "number"
                ? { ...defaultProps, type: "number", step: "any" }
                : type === "date"
                  ? { ...defaultProps, type: "date" }
                  : defaultProps
            }
            errors={inputs.defaultValue.errors}
          />
        )}
        <div className="flex justify-end sm:col-span-2">
          <SubmitButton className="btn-primary" busy={adding} busyLabel="Adding..." icon={Plus}>
            Add field
          </SubmitButton>
        </div>
      </IntentForm>
    </TitledCard>
  );
}
