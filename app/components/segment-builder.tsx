// The segment rule builder: conditions (field, operator, value) and nested groups, each group with
// its own AND/OR. Every control is a plain form field named by its path, so the builder posts
// without JavaScript; the add/remove buttons are submit buttons the server answers with the
// changed builder, and with JavaScript they change the state in place.
import { Plus, Trash2, X } from "lucide-react";
import {
  type BuilderCondition,
  type BuilderGroup,
  type NodePath,
  BUILDER_MAX_GROUP_DEPTH,
  addCondition,
  addGroup,
  removeNode,
  setLogic,
  updateCondition,
} from "~/lib/segments-builder";
import { FIELD_NAMES, type Logic, SEGMENT_FIELDS, type SegmentField, operatorsFor } from "~/lib/segments";

type Props = {
  root: BuilderGroup;
  onChange: (next: BuilderGroup) => void;
  /** With JavaScript the buttons edit the state; without it they submit the form. */
  interactive: boolean;
};

const pathText = (path: NodePath) => path.join(".");
const fieldName = (path: NodePath, key: string) => `n.${pathText(path)}.${key}`;

export function SegmentBuilder({ root, onChange, interactive }: Props) {
  const act = (e: React.MouseEvent, next: BuilderGroup) => {
    if (!interactive) return;
    e.preventDefault();
    onChange(next);
  };
  return <GroupEditor group={root} path={[]} root={root} onChange={onChange} act={act} />;
}

function LogicToggle({ name, logic, label, onPick }: { name: string; logic: Logic; label: string; onPick: (l: Logic) => void }) {
  return (
    <fieldset className="inline-flex rounded-lg border border-slate-300 bg-white p-0.5 text-xs font-semibold" aria-label={label}>
      {(["AND", "OR"] as const).map((l) => (
        <label
          key={l}
          className={`cursor-pointer rounded-md px-3 py-1 ${logic === l ? "bg-primary text-white" : "text-slate-600 hover:bg-slate-100"}`}
        >
          <input type="radio" className="sr-only" name={name} value={l} checked={logic === l} onChange={() => onPick(l)} />
          {l}
        </label>
      ))}
    </fieldset>
  );
}

function GroupEditor({
  group,
  path,
  root,
  onChange,
  act,
}: {
  group: BuilderGroup;
  path: NodePath;
  root: BuilderGroup;
  onChange: (next: BuilderGroup) => void;
  act: (e: React.MouseEvent, next: BuilderGroup) => void;
}) {
  const isRoot = path.length === 0;
  const where = pathText(path);
  return (
    <div
      className={isRoot ? "space-y-3" : "space-y-3 rounded-xl border border-dashed border-primary/40 bg-primary-light/20 p-3"}
      data-testid={isRoot ? "rule-root" : "rule-group"}
      role="group"
      aria-label={isRoot ? "Conditions" : `Group ${where}`}
    >
      <div className="flex flex-wrap items-center justify-between gap-2">
        <div className="flex items-center gap-2 text-sm text-slate-600">
          <span>{isRoot ? "Customers matching" : "Group matching"}</span>
          <LogicToggle
            name={isRoot ? "logic" : fieldName(path, "logic")}
            logic={group.logic}
            label={isRoot ? "Combine conditions with" : `Combine group ${where} with`}
            onPick={(l) => onChange(setLogic(root, path, l))}
          />
          <span className="hidden sm:inline">{group.logic === "AND" ? "all of these" : "any of these"}</span>
        </div>
        {isRoot ? null : (
          <button
            type="submit"
            name="intent"
            value={`remove:${where}`}
            formNoValidate
            className="btn-ghost text-xs text-red-600 hover:bg-red-50"
            onClick={(e) => act(e, removeNode(root, path))}
          >
            <X className="h-4 w-4" aria-hidden="true" /> Remove group
          </button>
        )}
      </div>
      {isRoot ? null : <input type="hidden" name={fieldName(path, "kind")} value="group" />}

      {group.children.length === 0 ? (
        <p className="rounded-lg border border-slate-200 bg-white px-3 py-2 text-sm text-slate-500">No conditions in this group yet.</p>
      ) : null}

      {group.children.map((child, i) => {
        const childPath = [...path, i];
        return (
          <div key={child.id}>
            {i > 0 ? (
              <div className="mb-2 flex items-center gap-2" aria-hidden="true">
                <span className="h-px flex-1 bg-slate-200" />
                <span className="rounded-full bg-slate-100 px-2 py-0.5 text-[11px] font-bold tracking-wide text-slate-500">{group.logic}</span>
                <span className="h-px flex-1 bg-slate-200" />
              </div>
            ) : null}
            {child.kind === "condition" ? (
              <ConditionRow condition={child} path={childPath} root={root} onChange={onChange} act={act} />
            ) : (
              <>
                <input type="hidden" name={fieldName(childPath, "kind")} value="group" />
                <GroupEditor group={child} path={childPath} root={root} onChange={onChange} act={act} />
              </>
            )}
          </div>
        );
      })}

      <div className="flex flex-wrap gap-2">
        <button
          type="submit"
          name="intent"
          value={`add-condition:${where}`}
          formNoValidate
          className="btn-secondary text-xs"
          onClick={(e) => act(e, addCondition(root, path))}
        >
          <Plus className="h-4 w-4" aria-hidden="true" /> {isRoot ? "Add condition" : "Add condition to group"}
        </button>
        {path.length < BUILDER_MAX_GROUP_DEPTH ? (
          <button
            type="submit"
            name="intent"
            value={`add-group:${where}`}
            formNoValidate
            className="btn-secondary text-xs"
            onClick={(e) => act(e, addGroup(root, path))}
          >
            <Plus className="h-4 w-4" aria-hidden="true" /> {isRoot ? "Add group" : "Add nested group"}
          </button>
        ) : null}
      </div>
    </div>
  );
}

function ConditionRow({
  condition,
  path,
  root,
  onChange,
  act,
}: {
  condition: BuilderCondition;
  path: NodePath;
  root: BuilderGroup;
  onChange: (next: BuilderGroup) => void;
  act: (e: React.MouseEvent, next: BuilderGroup) => void;
}) {
  const where = pathText(path);
  const type = SEGMENT_FIELDS[condition.field].type;
  const label = `condition ${where.split(".").map((n) => Number(n) + 1).join(".")}`;
  return (
    <div className="grid gap-2 rounded-lg border border-slate-200 bg-white p-3 sm:grid-cols-[1fr_1fr_1fr_auto] sm:items-end" data-testid="rule-condition">
      <input type="hidden" name={fieldName(path, "kind")} value="condition" />
      <div>
        <label className="label text-xs" htmlFor={`field-${where}`}>Field</label>
        <select
          id={`field-${where}`}
          name={fieldName(path, "field")}
          value={condition.field}
          aria-label={`Field of ${label}`}
          className="input"
          onChange={(e) => onChange(updateCondition(root, path, { field: e.target.value as SegmentField }))}
        >
          {FIELD_NAMES.map((f) => (
            <option key={f} value={f}>{SEGMENT_FIELDS[f].label}</option>
          ))}
        </select>
      </div>
      <div>
        <label className="label text-xs" htmlFor={`op-${where}`}>Operator</label>
        <select
          id={`op-${where}`}
          name={fieldName(path, "op")}
          value={condition.op}
          aria-label={`Operator of ${label}`}
          className="input"
          onChange={(e) => onChange(updateCondition(root, path, { op: e.target.value as BuilderCondition["op"] }))}
        >
          {operatorsFor(condition.field).map((o) => (
            <option key={o.value} value={o.value}>{o.label}</option>
          ))}
        </select>
      </div>
      <div>
        <label className="label text-xs" htmlFor={`value-${where}`}>Value</label>
        <input
          id={`value-${where}`}
          name={fieldName(path, "value")}
          type={type === "date" ? "date" : "text"}
          inputMode={type === "date" ? undefined : "decimal"}
          value={condition.value}
          placeholder={condition.field === "totalSpend" ? "Amount in ₹" : condition.field === "visits" ? "Number of visits" : undefined}
          aria-label={`Value of ${label}`}
          className="input"
          onChange={(e) => onChange(updateCondition(root, path, { value: e.target.value }))}
        />
      </div>
      <button
        type="submit"
        name="intent"
        value={`remove:${where}`}
        formNoValidate
        className="btn-ghost justify-self-end text-red-600 hover:bg-red-50"
        aria-label={`Remove ${label}`}
        title="Remove condition"
        onClick={(e) => act(e, removeNode(root, path))}
      >
        <Trash2 className="h-4 w-4" />
      </button>
    </div>
  );
}
