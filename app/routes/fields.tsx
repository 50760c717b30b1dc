// /fields: the customer fields beyond the fixed record (docs/decisions/0041-custom-fields-and-tags.md).
// The built-in ones first (marked, not editable), then the user's own in their order, each with its
// label, name, type, choices and default. An own field is renamed (?rename=<name> opens its label
// in the row), moved up or down, retired (after a confirmation that says its values are kept) or
// restored, and deleted (after a confirmation that says how many customers hold a value, which goes
// too). The Add a field form suggests the name from the label. Links, dialogs driven by the address
// and plain form posts throughout, so all of it works without JavaScript; on a phone the rows are
// cards (ResponsiveTable).
import { parseWithZod } from "@conform-to/zod/v4";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { ConfirmDialog } from "~/components/confirm-dialog";
import { RouteErrorBoundary } from "~/components/error-boundary";
import { ColumnHeader, ListTable } from "~/components/list-table";
import { allowMethods, ApiError, keepAllowHeader } from "~/lib/api.server";
import { BRAND } from "~/lib/brand";
import { type FieldDefinition } from "~/lib/custom-fields";
import { replyRefused, replyUnfinished } from "~/lib/forms.server";
import { formatCount } from "~/lib/numbers";
import { invariantResponse, orRespond, refusedWith } from "~/lib/responses";
import { AddFieldFormSchema, FieldRowFormSchema, RenameFieldFormSchema } from "~/schemas/field-form";
import { requireUser } from "~/services/auth.server";
import {
  createField,
  deleteField,
  fieldDefinitions,
  fieldValueCount,
  updateField,
} from "~/services/custom-fields.server";
import { redirectWithFlash } from "~/services/session.server";
import { AddFieldForm } from "~/components/fields/add-field-form";
import { FieldRow, type FieldFormReply } from "~/components/fields/field-row";

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

/** Which form an answer is for: the intent it was sent with. */
function replyFor(reply: FieldFormReply, intent: string) {
  return reply?.initialValue?.intent === intent ? (reply as never) : undefined;
}

export default function Fields() {
  const { fields, deleting, retiring, renaming } = useLoaderData<typeof loader>();
  const reply = useActionData<typeof action>() as FieldFormReply;
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

export function ErrorBoundary() {
  return <RouteErrorBoundary backTo="/fields" fallback={LOAD_FAILED} />;
}
