// /fields: the customer fields beyond the fixed record (docs/decisions/0041-custom-fields-and-tags.md).
// The built-in ones first (marked, not editable), then the user's own in their order, each with its
// label, name, type, choices and default. An own field is renamed (?rename=<name> opens its label
// in the row), moved up or down, retired (after a confirmation that says its values are kept) or
// restored, and deleted (after a confirmation that says how many customers hold a value, which goes
// too). The Add a field form suggests the name from the label. Links, dialogs driven by the address
// and plain form posts throughout, so all of it works without JavaScript; on a phone the rows are
// cards (ResponsiveTable).
import { getFormProps, getInputProps, getSelectProps, getTextareaProps, useForm } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod/v4";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { Archive, ArchiveRestore, ArrowDown, ArrowUp, type LucideIcon, Pencil, Plus, Trash2 } from "lucide-react";
import { useRef } from "react";
import { ConfirmDialog } from "~/components/confirm-dialog";
import { RouteErrorBoundary } from "~/components/error-boundary";
import { Field, FormAlert, LIVE_VALIDATION, liveChecks, SelectField, TextareaField } from "~/components/forms";
import { CardCell, ColumnHeader, ListTable } from "~/components/list-table";
import { ACTIONS_CELL, WIDE_ONLY_CELL } from "~/components/responsive-table";
import { RowRenameForm } from "~/components/row-rename-form";
import { allowMethods, ApiError, keepAllowHeader } from "~/lib/api.server";
import { BRAND } from "~/lib/brand";
import {
  displayFieldValue,
  type FieldDefinition,
  FIELD_TYPE_LABELS,
  FIELD_TYPES,
  fieldNameFrom,
  type FieldType,
} from "~/lib/custom-fields";
import { replyRefused, replyUnfinished } from "~/lib/forms.server";
import { formatCount } from "~/lib/numbers";
import { invariantResponse, orRespond, refusedWith } from "~/lib/responses";
import {
  AddFieldFormSchema,
  AddFieldInputsSchema,
  choicesFromText,
  FieldRowFormSchema,
  RenameFieldFormSchema,
} from "~/schemas/field-form";
import { requireUser } from "~/services/auth.server";
import {
  createField,
  deleteField,
  fieldDefinitions,
  fieldValueCount,
  updateField,
} from "~/services/custom-fields.server";
import { redirectWithFlash } from "~/services/session.server";
import { TitledCard } from "~/components/titled-card";
import { useHydrated } from "~/components/hydrated";
import { useResetAfterPost } from "~/components/reset-after-post";

// A 405 keeps its Allow header on the rendered page (app/lib/api.server.ts).
export const headers = keepAllowHeader;

export const meta: MetaFunction = () => [{ title: `Fields · ${BRAND}` }];

const LOAD_FAILED = "Failed to load the fields. Please try again.";
const CHANGE_FAILED = "Failed to change the field. Please try again.";
const CORRECT_FIELDS = "Please correct the highlighted fields.";

/** The user's own field named in the address (?delete=, ?retire=, ?rename=), with how many customers hold a value. */
async function fieldInAddress(userId: string, own: FieldDefinition[], name: string | null, count: boolean) {
  const field = name ? own.find((f) => f.name === name) : undefined;
  if (!field) return null;
  return { name: field.name, label: field.label, values: count ? await fieldValueCount(userId, field.name) : 0 };
}

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const params = new URL(request.url).searchParams;
  const fields = await fieldDefinitions(user.id);
  const own = fields.filter((f) => !f.builtIn);
  const [deleting, retiring, renaming] = await Promise.all([
    fieldInAddress(user.id, own, params.get("delete"), true),
    fieldInAddress(
      user.id,
      own.filter((f) => !f.retired),
      params.get("retire"),
      true,
    ),
    fieldInAddress(user.id, own, params.get("rename"), false),
  ]);
  return { fields, deleting, retiring, renaming: renaming?.name ?? null };
}

/** A change the service refused (a duplicate name, a bad default): its words under the inputs. */
function refusal(error: unknown) {
  return error instanceof ApiError && !error.fields ? error.message : CORRECT_FIELDS;
}

export async function action({ request }: ActionFunctionArgs) {
  allowMethods(request, "GET", "POST");
  const user = await requireUser(request);
  const formData = await request.formData();
  const intent = formData.get("intent");

  if (intent === "add") {
    const submission = parseWithZod(formData, { schema: AddFieldFormSchema });
    if (submission.status !== "success") return replyUnfinished(submission, CORRECT_FIELDS);
    let label: string;
    try {
      label = (await createField(user.id, submission.value)).label;
    } catch (error) {
      return replyRefused(submission, error, refusal(error));
    }
    return redirectWithFlash(request, "/fields", { kind: "toast", type: "success", message: `Field "${label}" added` });
  }

  if (intent === "rename") {
    const submission = parseWithZod(formData, { schema: RenameFieldFormSchema });
    if (submission.status !== "success") return replyUnfinished(submission);
    const { name, label } = submission.value;
    // Another user's field, or one deleted meanwhile, is a 404 like any record that is not there.
    await orRespond(updateField(user.id, name, { label }), refusedWith("Rename failed"));
    return redirectWithFlash(request, "/fields", {
      kind: "toast",
      type: "success",
      message: `Field renamed to "${label}"`,
    });
  }

  const parsed = FieldRowFormSchema.safeParse(Object.fromEntries(formData));
  if (!parsed.success)
    return redirectWithFlash(request, "/fields", { kind: "toast", type: "error", message: CHANGE_FAILED });
  const form = parsed.data;
  switch (form.intent) {
    case "move": {
      const own = (await fieldDefinitions(user.id)).filter((f) => !f.builtIn).map((f) => f.name);
      const at = own.indexOf(form.name);
      invariantResponse(at >= 0, "Move failed: Field not found");
      // Positions count from 1: up is the place before this one, down the place after it.
      const position = form.direction === "up" ? at : at + 2;
      if (position >= 1 && position <= own.length) {
        await orRespond(updateField(user.id, form.name, { position }), refusedWith("Move failed"));
      }
      // The list shows the new order; a toast for each step would only be in the way.
      return redirect("/fields");
    }
    case "retire":
    case "restore": {
      const retired = form.intent === "retire";
      const field = await orRespond(
        updateField(user.id, form.name, { retired }),
        refusedWith(retired ? "Retire failed" : "Restore failed"),
      );
      return redirectWithFlash(request, "/fields", {
        kind: "toast",
        type: "success",
        message: retired ? `Field "${field.label}" retired; its values are kept` : `Field "${field.label}" restored`,
      });
    }
    case "delete": {
      const field = fieldLabel(await fieldDefinitions(user.id), form.name);
      const { valuesDeleted } = await orRespond(deleteField(user.id, form.name), refusedWith("Delete failed"));
      return redirectWithFlash(request, "/fields", {
        kind: "toast",
        type: "success",
        message:
          valuesDeleted > 0
            ? `Field "${field}" deleted with ${formatCount(valuesDeleted)} ${valuesDeleted === 1 ? "value" : "values"}`
            : `Field "${field}" deleted`,
      });
    }
  }
}

function fieldLabel(fields: FieldDefinition[], name: string): string {
  return fields.find((f) => f.name === name)?.label ?? name;
}

type Reply = { initialValue?: Record<string, unknown> | null } | undefined;

/** Which form an answer is for: the intent it was sent with. */
function replyFor(reply: Reply, intent: string) {
  return reply?.initialValue?.intent === intent ? (reply as never) : undefined;
}

const TYPE_OPTIONS = FIELD_TYPES.map((t) => ({ value: t, label: FIELD_TYPE_LABELS[t] }));

export default function Fields() {
  const { fields, deleting, retiring, renaming } = useLoaderData<typeof loader>();
  const reply = useActionData<typeof action>() as Reply;
  const own = fields.filter((f) => !f.builtIn);

  return (
    <div className="mx-auto max-w-6xl space-y-4">
      <div>
        <h2 className="text-2xl font-bold text-slate-900">Fields</h2>
        <p className="text-slate-600">
          What you keep about each customer besides name and contact details. Fields show on the customer form and page,
          and in CSV files, segments and the API.
        </p>
      </div>

      <section className="card overflow-hidden" aria-label="Customer fields">
        <div className="sm:overflow-x-auto">
          <ListTable
            head={
              <>
                <ColumnHeader>Field</ColumnHeader>
                <ColumnHeader>Type</ColumnHeader>
                <ColumnHeader>Choices</ColumnHeader>
                <ColumnHeader>Default</ColumnHeader>
                <ColumnHeader className="px-4 py-3 text-right">Actions</ColumnHeader>
              </>
            }
          >
            {fields.map((f) => (
              <FieldRow
                key={f.name}
                field={f}
                position={own.findIndex((o) => o.name === f.name)}
                count={own.length}
                renaming={renaming === f.name}
                reply={replyFor(reply, "rename")}
              />
            ))}
            {own.length === 0 ? (
              <tr>
                <td colSpan={5} className="px-4 py-6 text-center text-sm text-slate-500">
                  No fields of your own yet. Add one below: a loyalty tier, a store, a date of joining.
                </td>
              </tr>
            ) : null}
          </ListTable>
        </div>
      </section>

      <AddFieldForm reply={replyFor(reply, "add")} />

      <ConfirmDialog
        open={Boolean(deleting)}
        title="Delete field"
        message={
          deleting ? (
            <p>
              Delete <strong>“{deleting.label}”</strong>? {valuesSentence(deleting.values, "deleted")}
            </p>
          ) : null
        }
        cancelHref="/fields"
        action="/fields"
        fields={{ intent: "delete", name: deleting?.name ?? "" }}
        confirmLabel="Delete"
      />
      <ConfirmDialog
        open={Boolean(retiring)}
        title="Retire field"
        message={
          retiring ? (
            <p>
              Retire <strong>“{retiring.label}”</strong>? It leaves the customer form and new segments.{" "}
              {valuesSentence(retiring.values, "kept")} You can restore it at any time.
            </p>
          ) : null
        }
        cancelHref="/fields"
        action="/fields"
        fields={{ intent: "retire", name: retiring?.name ?? "" }}
        confirmLabel="Retire"
        destructive={false}
      />
    </div>
  );
}

/** "1,234 customers have a value; their values are deleted too." and the like. */
function valuesSentence(values: number, fate: "deleted" | "kept"): string {
  if (values === 0) return "No customer has a value yet.";
  const who = values === 1 ? "1 customer has a value" : `${formatCount(values)} customers have a value`;
  return `${who}; ${values === 1 ? "it is" : "their values are"} ${fate === "kept" ? "kept" : "deleted too"}.`;
}

/** A built-in or retired field's chip beside its label. */
function StatusChip({ field }: { field: FieldDefinition }) {
  if (field.builtIn)
    return <span className="rounded-full bg-slate-100 px-2 py-0.5 text-xs font-medium text-slate-600">Built-in</span>;
  if (field.retired)
    return <span className="rounded-full bg-amber-100 px-2 py-0.5 text-xs font-medium text-amber-800">Retired</span>;
  return null;
}

/** One field's row: a card on a phone, its label first and its actions on the right. */
function FieldRow({
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
  reply: Reply;
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
function RenameForm({ field, reply }: { field: FieldDefinition; reply: Reply }) {
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

const YES_NO_OPTIONS = [
  { value: "yes", label: "Yes" },
  { value: "no", label: "No" },
];

/** The Add a field form: label, name (suggested from the label), type, choices, default. */
function AddFieldForm({ reply }: { reply: Reply }) {
  const navigation = useNavigation();
  const adding = navigation.state === "submitting" && navigation.formData?.get("intent") === "add";
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
      <Form method="post" action="/fields" className="group mt-4 grid gap-4 sm:grid-cols-2" {...getFormProps(form)}>
        <input type="hidden" name="intent" value="add" />
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
          <button type="submit" className="btn-primary" disabled={adding}>
            <Plus className="h-4 w-4" aria-hidden /> {adding ? "Adding..." : "Add field"}
          </button>
        </div>
      </Form>
    </TitledCard>
  );
}

export function ErrorBoundary() {
  return <RouteErrorBoundary backTo="/fields" fallback={LOAD_FAILED} />;
}
