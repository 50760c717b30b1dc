// The segment rule builder: conditions (field, operator, value) and nested groups, each group with
// its own AND/OR. The rows are Conform field lists: adding or removing a row is Conform's insert or
// remove intent, done in place with JavaScript and by the server without it.
import {
  type FieldMetadata,
  type FormMetadata,
  getCollectionProps,
  getInputProps,
  getSelectProps,
} from "@conform-to/react";
import { Plus, Trash2, X } from "lucide-react";
import { Field, SelectField } from "~/components/forms";
import {
  BUILDER_MAX_GROUP_DEPTH,
  builderOperators,
  isRelativeOperator,
  newConditionRow,
  newGroupRow,
} from "~/lib/segments-builder";
import { FIELD_NAMES, type Logic, SEGMENT_FIELDS, firstOperator, isField } from "~/lib/segments";
import type { BuilderRowInput, SegmentFormInput } from "~/schemas/segment";

type Form = FormMetadata<SegmentFormInput, string[]>;
type LogicMeta = FieldMetadata<Logic | undefined, SegmentFormInput, string[]>;
type RowsMeta = FieldMetadata<BuilderRowInput[] | undefined, SegmentFormInput, string[]>;
type RowMeta = FieldMetadata<BuilderRowInput, SegmentFormInput, string[]>;

const FIELD_OPTIONS = FIELD_NAMES.map((f) => ({ value: f, label: SEGMENT_FIELDS[f].label }));

/** The builder's top level: `conditions` of the segment form. */
export function SegmentBuilder({
  form,
  logic,
  rows,
  describedBy,
}: {
  form: Form;
  logic: LogicMeta;
  rows: RowsMeta;
  describedBy?: string;
}) {
  return <GroupEditor form={form} logic={logic} rows={rows} path={[]} describedBy={describedBy} />;
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
  path,
  onRemove,
  describedBy,
}: {
  form: Form;
  logic: LogicMeta;
  rows: RowsMeta;
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
            <RowEditor form={form} row={row} path={childPath} remove={remove} />
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
  path,
  remove,
}: {
  form: Form;
  row: RowMeta;
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
        <GroupEditor form={form} logic={fields.logic} rows={fields.children} path={path} onRemove={remove} />
      </>
    );
  }

  const label = `condition ${path.map((n) => n + 1).join(".")}`;
  const field = fields.field.value;
  const type = isField(field) ? SEGMENT_FIELDS[field].type : "number";
  const op = fields.op.value;
  // "In the last N days" and "more than N days ago" take a number of days, not a date.
  const days = type === "date" && isRelativeOperator(op);
  const { key: fieldKey, ...fieldProps } = getSelectProps(fields.field);
  const { key: opKey, ...opProps } = getSelectProps(fields.op);
  const { key: valueKey, ...valueProps } = getInputProps(fields.value, {
    type: type === "date" && !days ? "date" : "text",
  });
  return (
    <div
      className="grid gap-2 rounded-lg border border-slate-200 bg-white p-3 sm:grid-cols-[1fr_1fr_1fr_auto] sm:items-end"
      data-testid="rule-condition"
    >
      {kind}
      <SelectField
        key={fieldKey}
        label="Field"
        options={FIELD_OPTIONS}
        selectProps={{
          ...fieldProps,
          "aria-label": `Field of ${label}`,
          onChange: (e) => {
            // A new field starts at the first operator of its type; a value of the other type is cleared.
            const next = e.currentTarget.value;
            if (!isField(next)) return;
            form.update({ name: fields.op.name, value: firstOperator(next) });
            if (days || !isField(field) || SEGMENT_FIELDS[field].type !== SEGMENT_FIELDS[next].type) {
              form.update({ name: fields.value.name, value: "" });
            }
          },
        }}
      />
      <SelectField
        key={opKey}
        label="Operator"
        options={builderOperators(isField(field) ? field : "totalSpend", op)}
        selectProps={{
          ...opProps,
          "aria-label": `Operator of ${label}`,
          onChange: (e) => {
            // A date and a number of days do not convert: switching between them clears the value.
            if (type === "date" && isRelativeOperator(e.currentTarget.value) !== days) {
              form.update({ name: fields.value.name, value: "" });
            }
          },
        }}
      />
      <Field
        key={valueKey}
        label={days ? "Days" : "Value"}
        inputProps={{
          ...valueProps,
          inputMode: days ? "numeric" : type === "date" ? undefined : "decimal",
          placeholder: days
            ? "Number of days"
            : field === "totalSpend"
              ? "Amount in ₹"
              : field === "visits"
                ? "Number of visits"
                : undefined,
          "aria-label": `Value of ${label}`,
        }}
      />
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
