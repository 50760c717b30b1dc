// The segment rule builder: conditions (field, operator, value) and nested groups, each group with
// its own AND/OR. The rows are Conform field lists: adding or removing a row is Conform's insert or
// remove intent, done in place with JavaScript and by the server without it. A row's field is one
// of the customer's figures or fields or its tags (builderFields()); its operators and its value's
// input follow the field's type. Without JavaScript a new field's operators come with the next
// answer of the server ("Update fields and preview").
import {
  type FieldMetadata,
  type FormMetadata,
  getCollectionProps,
  getInputProps,
  getSelectProps,
} from "@conform-to/react";
import { Plus, Trash2, X } from "lucide-react";
import { Field, SelectField } from "~/components/forms";
import { BUILDER_MAX_GROUP_DEPTH, newConditionRow, newGroupRow } from "~/lib/segments-builder";
import {
  type BuilderField,
  CHOICES_SEPARATOR,
  type ValueInput,
  baseOperator,
  fieldOperators,
  firstFieldOperator,
  valueInputOf,
  windowOfOperator,
} from "~/lib/segment-builder-fields";
import type { Logic } from "~/lib/segments";
import type { BuilderRowInput, SegmentFormInput } from "~/schemas/segment";

type Form = FormMetadata<SegmentFormInput, string[]>;
type LogicMeta = FieldMetadata<Logic | undefined, SegmentFormInput, string[]>;
type RowsMeta = FieldMetadata<BuilderRowInput[] | undefined, SegmentFormInput, string[]>;
type RowMeta = FieldMetadata<BuilderRowInput, SegmentFormInput, string[]>;

/** The field a row names: one offered, or (a hand-made post, a field gone) a text field of that key. */
function fieldOf(fields: readonly BuilderField[], key: unknown): BuilderField {
  const found = fields.find((f) => f.key === key);
  if (found) return found;
  const name = typeof key === "string" && key !== "" ? key : "totalSpend";
  return fields.find((f) => f.key === name) ?? { key: name, label: name, group: "Fields", type: "text", choices: [] };
}

/** The builder's top level: `conditions` of the segment form; `fields`, what its rows may test. */
export function SegmentBuilder({
  form,
  logic,
  rows,
  fields,
  describedBy,
}: {
  form: Form;
  logic: LogicMeta;
  rows: RowsMeta;
  fields: readonly BuilderField[];
  describedBy?: string;
}) {
  return <GroupEditor form={form} logic={logic} rows={rows} fields={fields} path={[]} describedBy={describedBy} />;
}

/** The logic a group's rows combine with; a group posted without one combines with AND. */
const logicOf = (value: unknown): Logic => (value === "OR" ? "OR" : "AND");

function LogicToggle({ meta, label }: { meta: LogicMeta; label: string }) {
  const current = logicOf(meta.value);
  // Plain radios, with or without JavaScript: Conform reads the checked one from the form, and an
  // update of the rows (Use AI) gives them a new key, so they mount again with the new value.
  const radios = getCollectionProps(meta, { type: "radio", options: ["AND", "OR"] });
  return (
    <fieldset
      className="inline-flex rounded-lg border border-slate-300 bg-white p-0.5 text-xs font-semibold"
      aria-label={label}
    >
      {radios.map(({ key, ...radio }) => {
        const l = radio.value;
        return (
          <label
            key={l}
            className={`cursor-pointer rounded-md px-3 py-1 has-[:focus-visible]:ring-2 has-[:focus-visible]:ring-primary/40 ${
              current === l ? "bg-primary text-white" : "text-slate-600 hover:bg-slate-100"
            }`}
          >
            {/* A group posted without a logic combines with AND, so AND starts checked. */}
            <input key={key} {...radio} className="sr-only" defaultChecked={logicOf(meta.initialValue) === l} />
            {l}
          </label>
        );
      })}
    </fieldset>
  );
}

function GroupEditor({
  form,
  logic,
  rows,
  fields,
  path,
  onRemove,
  describedBy,
}: {
  form: Form;
  logic: LogicMeta;
  rows: RowsMeta;
  fields: readonly BuilderField[];
  path: number[];
  /** The remove button's props (nested groups only). */
  onRemove?: React.ButtonHTMLAttributes<HTMLButtonElement>;
  describedBy?: string;
}) {
  const isRoot = path.length === 0;
  const where = path.join(".");
  const list = rows.getFieldList();
  const combine = logicOf(logic.value);
  return (
    <div
      className={
        isRoot ? "space-y-3" : "space-y-3 rounded-xl border border-dashed border-primary/40 bg-primary-light/20 p-3"
      }
      data-testid={isRoot ? "rule-root" : "rule-group"}
      role="group"
      aria-label={isRoot ? "Conditions" : `Group ${where}`}
      aria-describedby={describedBy}
    >
      <div className="flex flex-wrap items-center justify-between gap-2">
        <div className="flex items-center gap-2 text-sm text-slate-600">
          <span>{isRoot ? "Customers matching" : "Group matching"}</span>
          <LogicToggle meta={logic} label={isRoot ? "Combine conditions with" : `Combine group ${where} with`} />
          <span className="hidden sm:inline">{combine === "AND" ? "all of these" : "any of these"}</span>
        </div>
        {onRemove ? (
          <button type="submit" className="btn-ghost text-xs text-red-600 hover:bg-red-50" {...onRemove}>
            <X className="h-4 w-4" aria-hidden="true" /> Remove group
          </button>
        ) : null}
      </div>

      {list.length === 0 ? (
        <p className="rounded-lg border border-slate-200 bg-white px-3 py-2 text-sm text-slate-500">
          No conditions in this group yet.
        </p>
      ) : null}

      {list.map((row, i) => {
        const childPath = [...path, i];
        const remove = form.remove.getButtonProps({ name: rows.name, index: i });
        return (
          <div key={row.key}>
            {i > 0 ? (
              <div className="mb-2 flex items-center gap-2" aria-hidden="true">
                <span className="h-px flex-1 bg-slate-200" />
                <span className="rounded-full bg-slate-100 px-2 py-0.5 text-[11px] font-bold tracking-wide text-slate-500">
                  {combine}
                </span>
                <span className="h-px flex-1 bg-slate-200" />
              </div>
            ) : null}
            <RowEditor form={form} row={row} fields={fields} path={childPath} remove={remove} />
          </div>
        );
      })}

      <div className="flex flex-wrap gap-2">
        <button
          type="submit"
          className="btn-secondary text-xs"
          {...form.insert.getButtonProps({ name: rows.name, defaultValue: newConditionRow() })}
        >
          <Plus className="h-4 w-4" aria-hidden="true" /> {isRoot ? "Add condition" : "Add condition to group"}
        </button>
        {path.length < BUILDER_MAX_GROUP_DEPTH ? (
          <button
            type="submit"
            className="btn-secondary text-xs"
            {...form.insert.getButtonProps({ name: rows.name, defaultValue: newGroupRow(combine) })}
          >
            <Plus className="h-4 w-4" aria-hidden="true" /> {isRoot ? "Add group" : "Add nested group"}
          </button>
        ) : null}
      </div>
    </div>
  );
}

function RowEditor({
  form,
  row,
  fields: offered,
  path,
  remove,
}: {
  form: Form;
  row: RowMeta;
  fields: readonly BuilderField[];
  path: number[];
  remove: React.ButtonHTMLAttributes<HTMLButtonElement>;
}) {
  const fields = row.getFieldset();
  const kind = (
    <input
      type="hidden"
      name={fields.kind.name}
      value={fields.kind.value === "group" ? "group" : "condition"}
      form={form.id}
    />
  );
  if (fields.kind.value === "group") {
    return (
      <>
        {kind}
        <GroupEditor
          form={form}
          logic={fields.logic}
          rows={fields.children}
          fields={offered}
          path={path}
          onRemove={remove}
        />
      </>
    );
  }

  const label = `condition ${path.map((n) => n + 1).join(".")}`;
  const field = fieldOf(offered, fields.field.value);
  // An opened activity row holds its window on the operator (`$gte:within:30`): the operator shows
  // without it, the window in its own input, and the form folds them together again.
  const postedOp = typeof fields.op.value === "string" ? fields.op.value : "";
  const plainOp = field.window ? baseOperator(postedOp) : postedOp;
  const operators = fieldOperators(field, plainOp || undefined);
  // Without JavaScript a row whose field was just changed still holds the old field's operator:
  // it shows (and posts) the new field's first one.
  const op = operators.some((o) => o.value === plainOp) ? plainOp : operators[0].value;
  const input = valueInputOf(field, op);
  const windowed = field.window === "optional" || field.window === "required";
  const initialOp = typeof fields.op.initialValue === "string" ? fields.op.initialValue : "";
  const initialWindow =
    typeof fields.window.initialValue === "string" ? fields.window.initialValue : windowOfOperator(initialOp);
  // The fields the picker offers: the others, and this row's own (a retired or deleted one too).
  const options = offered
    .filter((f) => !f.status || f.key === field.key)
    .map((f) => ({ value: f.key, label: f.label, group: f.group }));
  if (!options.some((o) => o.value === field.key))
    options.push({ value: field.key, label: field.label, group: field.group });
  const { key: fieldKey, ...fieldProps } = getSelectProps(fields.field);
  const { key: opKey, ...opProps } = getSelectProps(fields.op);
  return (
    <div
      className={`grid gap-2 rounded-lg border border-slate-200 bg-white p-3 sm:items-end ${
        windowed
          ? "sm:grid-cols-[minmax(11rem,1.4fr)_1fr_minmax(5rem,0.8fr)_minmax(7rem,1fr)_auto]"
          : "sm:grid-cols-[1fr_1fr_1fr_auto]"
      }`}
      data-testid="rule-condition"
    >
      {kind}
      <SelectField
        key={fieldKey}
        label="Field"
        options={options}
        selectProps={{
          ...fieldProps,
          "aria-label": `Field of ${label}`,
          onChange: (e) => {
            // A new field starts at the first operator of its type; a value it cannot take is cleared.
            const next = fieldOf(offered, e.currentTarget.value);
            const nextOp = firstFieldOperator(next);
            form.update({ name: fields.op.name, value: nextOp });
            const sameInput = valueInputOf(next, nextOp) === input && next.choices.join() === field.choices.join();
            if (!sameInput || input === "days") form.update({ name: fields.value.name, value: "" });
            if (field.window) form.update({ name: fields.window.name, value: "" });
          },
        }}
      />
      <SelectField
        key={opKey}
        label="Operator"
        options={operators}
        selectProps={{
          ...opProps,
          defaultValue: op,
          "aria-label": `Operator of ${label}`,
          onChange: (e) => {
            // A date and a number of days (or one choice and several) do not convert: the value is cleared.
            if (valueInputOf(field, e.currentTarget.value) !== input)
              form.update({ name: fields.value.name, value: "" });
          },
        }}
      />
      <ValueEditor meta={fields.value} input={input} field={field} label={label} />
      {windowed ? (
        <Field
          key={`${fields.window.key ?? ""}-${field.key}`}
          label={field.window === "required" ? "In the last N days" : "In the last N days (optional)"}
          required={field.window === "required"}
          inputProps={{
            name: fields.window.name,
            type: "text",
            inputMode: "numeric",
            defaultValue: initialWindow,
            placeholder: field.window === "required" ? "Number of days" : "All time",
            "aria-label": `Days of ${label}`,
          }}
        />
      ) : null}
      <button
        type="submit"
        className="btn-ghost justify-self-end text-red-600 hover:bg-red-50"
        aria-label={`Remove ${label}`}
        title="Remove condition"
        {...remove}
      >
        <Trash2 className="h-4 w-4" aria-hidden="true" />
      </button>
    </div>
  );
}

type ValueMeta = ReturnType<RowMeta["getFieldset"]>["value"];

/** A row's value list as the form holds it: posted (several values) or one per line (opened). */
function listValue(value: unknown): string[] {
  if (Array.isArray(value)) return value.filter((v): v is string => typeof v === "string");
  return typeof value === "string" ? value.split(CHOICES_SEPARATOR).filter((v) => v !== "") : [];
}

const PLACEHOLDERS: Partial<Record<string, string>> = {
  totalSpend: "Amount in ₹",
  visits: "Number of visits",
  orderCount: "Number of orders",
  averageOrderValue: "Amount in ₹",
  spendWithinDays: "Amount in ₹",
  boughtProduct: "Product name, e.g. Saree",
  messagesReceived: "Number of messages",
};

/** The value of a row, in the input its field and operator take. */
function ValueEditor({
  meta,
  input,
  field,
  label,
}: {
  meta: ValueMeta;
  input: ValueInput;
  field: BuilderField;
  label: string;
}) {
  const aria = `Value of ${label}`;
  if (input === "none") {
    // "Is set" and "is empty" take no value: the row posts none.
    return <p className="self-center text-sm text-slate-500 sm:pb-2">No value needed</p>;
  }
  if (input === "choice" || input === "yesno" || input === "choices") {
    const { key, ...props } = getSelectProps(meta);
    const options =
      input === "yesno"
        ? [
            { value: "true", label: "Yes" },
            { value: "false", label: "No" },
          ]
        : field.choices.map((c) => ({ value: c, label: field.choiceLabels?.[c] ?? c }));
    if (input !== "choices") {
      return (
        <SelectField
          key={key}
          label="Value"
          options={options}
          placeholder="Choose…"
          selectProps={{ ...props, "aria-label": aria }}
        />
      );
    }
    // Several choices: a list to pick from (Ctrl or ⌘ for more than one; a phone shows its own picker).
    return (
      <SelectField
        key={key}
        label="Values"
        options={options}
        hint="Pick one or more"
        selectProps={{
          ...props,
          multiple: true,
          size: Math.min(Math.max(options.length, 2), 4),
          defaultValue: listValue(meta.initialValue),
          "aria-label": aria,
        }}
      />
    );
  }
  const days = input === "days";
  const { key, ...props } = getInputProps(meta, { type: input === "date" ? "date" : "text" });
  return (
    <Field
      key={key}
      label={days ? "Days" : input === "tags" ? "Tags" : "Value"}
      hint={input === "tags" ? "Separate tags with commas" : undefined}
      inputProps={{
        ...props,
        inputMode: days ? "numeric" : input === "number" ? "decimal" : undefined,
        placeholder: days
          ? "Number of days"
          : input === "tags"
            ? "vip, trade fair"
            : (PLACEHOLDERS[field.key] ?? (input === "number" ? "A number" : undefined)),
        "aria-label": aria,
      }}
    />
  );
}
