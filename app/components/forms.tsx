// The one way a form field is drawn: a label, the control, and the field's errors under it,
// wired for screen readers (aria-invalid, aria-describedby). Every form in the product builds its
// fields from these, with the props Conform's getInputProps / getTextareaProps / getSelectProps give
// (docs/architecture.md, "Forms").
import { getZodConstraint, parseWithZod } from "@conform-to/zod/v4";
import { useId } from "react";
import type { $ZodType } from "zod/v4/core";

export type ListOfErrors = Array<string | null | undefined> | null | undefined;

/** The messages of one field (or of the whole form), one per line; nothing when there are none. */
export function ErrorList({
  id,
  errors,
  className = "field-error",
}: {
  id?: string;
  errors?: ListOfErrors;
  className?: string;
}) {
  const shown = errors?.filter((e): e is string => Boolean(e));
  if (!shown?.length) return null;
  // One message is the common case: a <p> keeps the text exactly the message for tests and readers.
  if (shown.length === 1) {
    return (
      <p id={id} className={className}>
        {shown[0]}
      </p>
    );
  }
  return (
    <ul id={id} className={className}>
      {shown.map((e) => (
        <li key={e}>{e}</li>
      ))}
    </ul>
  );
}

/** Errors that belong to the form as a whole (a refused save), announced as an alert. */
export function FormAlert({ id, errors }: { id?: string; errors?: ListOfErrors }) {
  const shown = errors?.filter((e): e is string => Boolean(e));
  if (!shown?.length) return null;
  return (
    <div id={id} role="alert" className="rounded-lg border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-700">
      {shown.length === 1 ? shown[0] : shown.map((e) => <p key={e}>{e}</p>)}
    </div>
  );
}

type LabelProps = {
  /** The visible label. */
  label: React.ReactNode;
  /** Marks the label with a red asterisk (the control gets aria-required). */
  required?: boolean;
  /** A line of help under the control, linked with aria-describedby. */
  hint?: React.ReactNode;
  errors?: ListOfErrors;
  className?: string;
};

/** Ids for a control, its hint and its errors; the control's own id wins when it has one. */
function useFieldIds(id: string | undefined, hasHint: boolean, errors: ListOfErrors) {
  const fallback = useId();
  const controlId = id ?? fallback;
  const errorId = errors?.some(Boolean) ? `${controlId}-error` : undefined;
  const hintId = hasHint ? `${controlId}-hint` : undefined;
  const describedBy = [errorId, hintId].filter(Boolean).join(" ") || undefined;
  return { controlId, errorId, hintId, describedBy };
}

function FieldLabel({ htmlFor, label, required }: { htmlFor: string; label: React.ReactNode; required?: boolean }) {
  return (
    <label htmlFor={htmlFor} className="label">
      {label}
      {required ? (
        <span className="text-red-600" aria-hidden>
          {" "}
          *
        </span>
      ) : null}
    </label>
  );
}

function FieldFooter({
  hint,
  hintId,
  errors,
  errorId,
}: {
  hint?: React.ReactNode;
  hintId?: string;
  errors?: ListOfErrors;
  errorId?: string;
}) {
  return (
    <>
      {errorId ? <ErrorList id={errorId} errors={errors} /> : null}
      {hint ? (
        <p id={hintId} className="mt-1 text-xs text-slate-500">
          {hint}
        </p>
      ) : null}
    </>
  );
}

/** What a labelled control is given after its own props: its id and how it is described to screen readers. */
type ControlAria = {
  id: string;
  "aria-invalid": true | undefined;
  "aria-describedby": string | undefined;
  "aria-required": true | undefined;
};

/**
 * A field above its control: the label, the control (drawn by `control`, which spreads the ids and
 * aria attributes it is given after its own props) and the errors and hint under it.
 */
function LabelledField({
  id,
  label,
  required,
  hint,
  errors,
  className,
  control,
}: LabelProps & { id: string | undefined; control: (aria: ControlAria) => React.ReactNode }) {
  const { controlId, errorId, hintId, describedBy } = useFieldIds(id, Boolean(hint), errors);
  return (
    <div className={className}>
      <FieldLabel htmlFor={controlId} label={label} required={required} />
      {control({
        id: controlId,
        "aria-invalid": errorId ? true : undefined,
        "aria-describedby": describedBy,
        "aria-required": required || undefined,
      })}
      <FieldFooter hint={hint} hintId={hintId} errors={errors} errorId={errorId} />
    </div>
  );
}

export function Field({
  inputProps,
  ...field
}: LabelProps & { inputProps: React.InputHTMLAttributes<HTMLInputElement> }) {
  return (
    <LabelledField
      {...field}
      id={inputProps.id}
      control={(aria) => <input className="input" {...inputProps} {...aria} />}
    />
  );
}

export function TextareaField({
  textareaProps,
  ...field
}: LabelProps & { textareaProps: React.TextareaHTMLAttributes<HTMLTextAreaElement> }) {
  return (
    <LabelledField
      {...field}
      id={textareaProps.id}
      control={(aria) => <textarea className="input" rows={3} {...textareaProps} {...aria} />}
    />
  );
}

/** A choice of a select; options with a `group` are listed under it (an <optgroup>), in the order given. */
export type SelectOption = { value: string; label: string; disabled?: boolean; group?: string };

/** The options as they are drawn: runs of one group become an <optgroup>. */
function SelectOptions({ options }: { options: readonly SelectOption[] }) {
  const runs: { group?: string; options: SelectOption[] }[] = [];
  for (const o of options) {
    const last = runs[runs.length - 1];
    if (last && last.group === o.group) last.options.push(o);
    else runs.push({ group: o.group, options: [o] });
  }
  const draw = (o: SelectOption) => (
    <option key={o.value} value={o.value} disabled={o.disabled}>
      {o.label}
    </option>
  );
  return (
    <>
      {runs.map((run, i) =>
        run.group === undefined ? (
          run.options.map(draw)
        ) : (
          <optgroup key={`${run.group}-${i}`} label={run.group}>
            {run.options.map(draw)}
          </optgroup>
        ),
      )}
    </>
  );
}

export function SelectField({
  selectProps,
  options,
  placeholder,
  ...field
}: LabelProps & {
  selectProps: React.SelectHTMLAttributes<HTMLSelectElement>;
  options: readonly SelectOption[];
  /** A first, empty choice (e.g. "Select a customer"). */
  placeholder?: string;
}) {
  return (
    <LabelledField
      {...field}
      id={selectProps.id}
      control={(aria) => (
        <select className="input" {...selectProps} {...aria}>
          {placeholder !== undefined ? <option value="">{placeholder}</option> : null}
          <SelectOptions options={options} />
        </select>
      )}
    />
  );
}

export function CheckboxField({
  label,
  hint,
  errors,
  className,
  inputProps,
}: Omit<LabelProps, "required"> & { inputProps: React.InputHTMLAttributes<HTMLInputElement> }) {
  const { controlId, errorId, hintId, describedBy } = useFieldIds(inputProps.id, Boolean(hint), errors);
  return (
    <div className={className}>
      <div className="flex items-center gap-2">
        <input
          className="h-4 w-4 rounded border-slate-300 text-primary focus:ring-primary/30"
          {...inputProps}
          type="checkbox"
          id={controlId}
          aria-invalid={errorId ? true : undefined}
          aria-describedby={describedBy}
        />
        <label htmlFor={controlId} className="text-sm text-slate-700">
          {label}
        </label>
      </div>
      <FieldFooter hint={hint} hintId={hintId} errors={errors} errorId={errorId} />
    </div>
  );
}

/**
 * When Conform checks a form in the browser: a field is first checked when it loses focus, and
 * from then on as the user types; the server checks everything again on submit.
 */
export const LIVE_VALIDATION = { shouldValidate: "onBlur", shouldRevalidate: "onInput" } as const;

/**
 * useForm's checks of a form whose fields `schema` reads, as the server reads them: its inputs carry
 * the schema's constraints, and the browser checks them with it as LIVE_VALIDATION says.
 */
export function liveChecks<Schema extends $ZodType>(schema: Schema) {
  return {
    constraint: getZodConstraint(schema),
    onValidate: ({ formData }: { formData: FormData }) => parseWithZod(formData, { schema }),
    ...LIVE_VALIDATION,
  };
}
