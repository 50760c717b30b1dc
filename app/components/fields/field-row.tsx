// A row of the Fields screen (app/routes/fields.tsx): a field's label with its chip, name, type,
// choices and default, and its actions (rename in the row, move, retire or restore, delete), each a
// link or a form post, so all of it works without JavaScript; on a phone the row is a card.
import { getInputProps, useForm } from "@conform-to/react";
import { Form, Link } from "@remix-run/react";
import { Archive, ArchiveRestore, ArrowDown, ArrowUp, type LucideIcon, Pencil, Trash2 } from "lucide-react";
import { Field, liveChecks } from "~/components/forms";
import { CardCell } from "~/components/list-table";
import { ACTIONS_CELL, WIDE_ONLY_CELL } from "~/components/responsive-table";
import { RowRenameForm } from "~/components/row-rename-form";
import { displayFieldValue, type FieldDefinition, FIELD_TYPE_LABELS } from "~/lib/custom-fields";
import { RenameFieldFormSchema } from "~/schemas/field-form";

/** The action's reply to one of the screen's forms (its values, to tell which form it answers). */
export type FieldFormReply = { initialValue?: Record<string, unknown> | null } | undefined;

/** A built-in or retired field's chip beside its label. */
function StatusChip({ field }: { field: FieldDefinition }) {
  if (field.builtIn)
    return <span className="rounded-full bg-slate-100 px-2 py-0.5 text-xs font-medium text-slate-600">Built-in</span>;
  if (field.retired)
    return <span className="rounded-full bg-amber-100 px-2 py-0.5 text-xs font-medium text-amber-800">Retired</span>;
  return null;
}

/** One field's row: a card on a phone, its label first and its actions on the right. */
export function FieldRow({
  field: f,
  position,
  count,
  renaming,
  reply,
}: {
  field: FieldDefinition;
  /** Its place among the user's own fields (-1 for a built-in one). */
  position: number;
  count: number;
  renaming: boolean;
  reply: FieldFormReply;
}) {
  const choices = f.choices.join(", ");
  return (
    <tr className={f.retired ? "bg-slate-50 text-slate-500" : undefined} data-testid="field-row">
      <td className="px-4 py-3">
        {renaming ? (
          <RenameForm field={f} reply={reply} />
        ) : (
          <>
            <span className="flex flex-wrap items-center gap-2">
              <span className={`font-medium ${f.retired ? "text-slate-500" : "text-slate-900"}`}>{f.label}</span>
              <StatusChip field={f} />
            </span>
            <span className="block font-mono text-xs text-slate-500">{f.name}</span>
          </>
        )}
      </td>
      <CardCell label="Type" className="whitespace-nowrap px-4 py-3">
        {FIELD_TYPE_LABELS[f.type]}
      </CardCell>
      {/* On a phone a card leaves out what the field does not have. */}
      <CardCell label="Choices" className="max-w-xs break-words px-4 py-3" {...(choices ? {} : WIDE_ONLY_CELL)}>
        {choices || <span className="text-slate-400">—</span>}
      </CardCell>
      <CardCell label="Default" className="px-4 py-3" {...(f.defaultValue === null ? WIDE_ONLY_CELL : {})}>
        {f.defaultValue === null ? (
          <span className="text-slate-400">—</span>
        ) : (
          displayFieldValue(f.type, f.defaultValue)
        )}
      </CardCell>
      <td className="whitespace-nowrap px-4 py-3 text-right" {...ACTIONS_CELL}>
        {f.builtIn ? (
          <span className="text-xs text-slate-400">Not editable</span>
        ) : (
          <div className="flex justify-end gap-1">
            <DialogLink open="rename" field={f} title="Rename" icon={Pencil} />
            <RowButton
              fields={{ intent: "move", name: f.name, direction: "up" }}
              label={`Move ${f.label} up`}
              title="Move up"
              disabled={position <= 0}
            >
              <ArrowUp className="h-4 w-4" aria-hidden />
            </RowButton>
            <RowButton
              fields={{ intent: "move", name: f.name, direction: "down" }}
              label={`Move ${f.label} down`}
              title="Move down"
              disabled={position < 0 || position >= count - 1}
            >
              <ArrowDown className="h-4 w-4" aria-hidden />
            </RowButton>
            {f.retired ? (
              <RowButton fields={{ intent: "restore", name: f.name }} label={`Restore ${f.label}`} title="Restore">
                <ArchiveRestore className="h-4 w-4" aria-hidden />
              </RowButton>
            ) : (
              <DialogLink open="retire" field={f} title="Retire" icon={Archive} />
            )}
            <DialogLink open="delete" field={f} title="Delete" icon={Trash2} />
          </div>
        )}
      </td>
    </tr>
  );
}

/**
 * A row's icon link to the page's own form or dialog for the field (?rename=, ?retire=, ?delete=),
 * keeping the scroll position; a delete is drawn in red.
 */
function DialogLink({
  open,
  field,
  title,
  icon: Icon,
}: {
  open: "rename" | "retire" | "delete";
  field: FieldDefinition;
  title: string;
  icon: LucideIcon;
}) {
  return (
    <Link
      to={`?${open}=${encodeURIComponent(field.name)}`}
      preventScrollReset
      className={open === "delete" ? "btn-ghost text-red-600 hover:bg-red-50" : "btn-ghost"}
      aria-label={`${title} ${field.label}`}
      title={title}
    >
      <Icon className="h-4 w-4" aria-hidden />
    </Link>
  );
}

/** A row's icon button that posts at once (move, restore): a form of its own. */
function RowButton({
  fields,
  label,
  title,
  disabled,
  children,
}: {
  fields: Record<string, string>;
  label: string;
  title: string;
  disabled?: boolean;
  children: React.ReactNode;
}) {
  return (
    <Form method="post" action="/fields" preventScrollReset>
      {Object.entries(fields).map(([name, value]) => (
        <input key={name} type="hidden" name={name} value={value} />
      ))}
      <button type="submit" className="btn-ghost" aria-label={label} title={title} disabled={disabled}>
        {children}
      </button>
    </Form>
  );
}

/** The row's label as an input, with Save and Cancel (?rename=<name>). */
function RenameForm({ field, reply }: { field: FieldDefinition; reply: FieldFormReply }) {
  const [form, inputs] = useForm({
    id: `rename-${field.name}`,
    lastResult: reply as never,
    defaultValue: { label: field.label },
    ...liveChecks(RenameFieldFormSchema),
  });
  return (
    <RowRenameForm form={form} page="/fields" keyName="name" rowKey={field.name}>
      <Field
        label={`New label for ${field.name}`}
        inputProps={{ ...getInputProps(inputs.label, { type: "text" }), autoComplete: "off", autoFocus: true }}
        errors={inputs.label.errors}
      />
    </RowRenameForm>
  );
}
