// /customers/new and /customers/edit/{id} (docs/rules.md#customer-form): one form titled Add New
// Customer or Edit Customer. firstName, lastName and email are required (e-mail input type); phone, address,
// company and notes are optional. Under them the Fields section has an input of the right kind for
// each built-in field and each of the user's own that is not retired (a new customer's start with
// the fields' defaults; an input left empty clears the value), and Tags, typed separated by commas.
// It submits and validates on the server without JavaScript; with JavaScript each field is checked
// as it is typed, by the same zod schema (made from the user's fields, app/schemas/customer-form.ts).
import {
  type FieldMetadata,
  getFormProps,
  getInputProps,
  getSelectProps,
  getTextareaProps,
  useForm,
} from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { ArrowLeft, Save } from "lucide-react";
import { useEffect, useMemo } from "react";
import { toast } from "sonner";
import { allowMethods, keepAllowHeader } from "~/lib/api.server";
import { RouteErrorBoundary } from "~/components/error-boundary";
import { Field, FormAlert, liveChecks, SelectField, TextareaField } from "~/components/forms";
import { SubmitButton } from "~/components/submit-button";
import { BRAND } from "~/lib/brand";
import type { FieldDefinition } from "~/lib/custom-fields";
import { timeZoneNames } from "~/lib/dates";
import { replyRefused, replyUnfinished } from "~/lib/forms.server";
import { orRespond } from "~/lib/responses";
import { CUSTOMER_FIELDS, type CustomerField } from "~/schemas/customer";
import {
  customerExtrasFrom,
  customerFormSchema,
  type CustomerFormValues,
  fieldInputValues,
} from "~/schemas/customer-form";
import { requireUser } from "~/services/auth.server";
import { fieldDefinitions } from "~/services/custom-fields.server";
import { createCustomer, getCustomer, updateCustomer } from "~/services/customers.server";
import { listTags } from "~/services/tags.server";
import { redirectWithFlash } from "~/services/session.server";

// A 405 keeps its Allow header on the rendered page (app/lib/api.server.ts).
export const headers = keepAllowHeader;

export const meta: MetaFunction<typeof loader> = ({ data: d }) => [
  { title: `${d?.customer ? "Edit Customer" : "Add New Customer"} · ${BRAND}` },
];

const LOAD_FAILED = "Failed to load customer data. Please try again.";
const SAVE_FAILED = "Failed to save customer. Please try again.";

/**
 * The runtime's zone names use a few old spellings (CLDR's "Asia/Calcutta"); the list offers the
 * names people know today. Either spelling is accepted when typed.
 */
const CURRENT_ZONE_NAMES: Record<string, string> = {
  "Asia/Calcutta": "Asia/Kolkata",
  "Asia/Saigon": "Asia/Ho_Chi_Minh",
  "Asia/Katmandu": "Asia/Kathmandu",
  "Asia/Rangoon": "Asia/Yangon",
  "Europe/Kiev": "Europe/Kyiv",
  "Atlantic/Faeroe": "Atlantic/Faroe",
  "America/Godthab": "America/Nuuk",
  "America/Buenos_Aires": "America/Argentina/Buenos_Aires",
  "America/Indianapolis": "America/Indiana/Indianapolis",
  "America/Louisville": "America/Kentucky/Louisville",
  "Pacific/Ponape": "Pacific/Pohnpei",
  "Pacific/Truk": "Pacific/Chuuk",
};

/** The time zone input's suggestions. */
function zoneSuggestions(): string[] {
  return [...new Set(timeZoneNames().map((z) => CURRENT_ZONE_NAMES[z] ?? z))].sort();
}

/** The fields the form shows: the built-in ones and the user's own, not retired. */
async function formFields(userId: string): Promise<FieldDefinition[]> {
  return (await fieldDefinitions(userId)).filter((f) => !f.retired);
}

export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const [fields, tags] = await Promise.all([formFields(user.id), listTags(user.id)]);
  const extras = {
    fields,
    tagNames: tags.map((t) => t.name),
    timeZones: fields.some((f) => f.name === "time_zone") ? zoneSuggestions() : [],
  };
  if (!params.id) return { customer: null, values: { fields: fieldInputValues(fields, null) }, ...extras };
  const c = await orRespond(getCustomer(user.id, params.id), LOAD_FAILED);
  const values = {
    ...(Object.fromEntries(CUSTOMER_FIELDS.map((f) => [f, c[f]])) as Record<CustomerField, string>),
    fields: fieldInputValues(fields, c.fields),
    tags: c.tags.join(", "),
  };
  return { customer: { id: c.id }, values, ...extras };
}

export async function action({ request, params }: ActionFunctionArgs) {
  allowMethods(request, "GET", "POST");
  const user = await requireUser(request);
  const fields = await formFields(user.id);
  const formData = await request.formData();
  const submission = parseWithZod(formData, { schema: customerFormSchema(fields) });
  if (submission.status !== "success") return replyUnfinished(submission, "Please correct the highlighted fields.");
  const { fields: typed, tags, ...record } = submission.value;
  const input = { ...record, ...customerExtrasFrom(formData, fields, { fields: typed, tags }) };
  try {
    if (params.id) await updateCustomer(user.id, params.id, input);
    else await createCustomer(user.id, input);
  } catch (error) {
    return replyRefused(submission, error, SAVE_FAILED);
  }
  return redirectWithFlash(request, "/customers", {
    kind: "toast",
    type: "success",
    message: params.id ? "Customer updated successfully" : "Customer created successfully",
  });
}

export default function CustomerForm() {
  const { customer, values, fields: customFields, tagNames, timeZones } = useLoaderData<typeof loader>();
  const lastResult = useActionData<typeof action>();
  const navigation = useNavigation();
  const saving = navigation.state === "submitting";
  const editing = Boolean(customer);
  const schema = useMemo(() => customerFormSchema(customFields), [customFields]);
  const [form, fields] = useForm<CustomerFormValues>({
    id: "customer-form",
    lastResult,
    defaultValue: values,
    ...liveChecks(schema),
  });
  const fieldset = fields.fields.getFieldset();

  useEffect(() => {
    if (lastResult?.error?.[""]?.includes(SAVE_FAILED)) toast.error(SAVE_FAILED);
  }, [lastResult]);

  return (
    <div className="mx-auto max-w-3xl space-y-4">
      <div className="flex items-center gap-3">
        <Link to={customer ? `/customers/${customer.id}` : "/customers"} className="btn-ghost" aria-label="Back">
          <ArrowLeft className="h-5 w-5" aria-hidden />
        </Link>
        <h2 className="text-2xl font-bold text-slate-900">{editing ? "Edit Customer" : "Add New Customer"}</h2>
      </div>
      <FormAlert id={form.errorId} errors={form.errors} />
      <Form method="post" className="card space-y-6 p-6" {...getFormProps(form)}>
        <div className="grid gap-4 sm:grid-cols-2">
          <Field
            label="First Name"
            required
            inputProps={{ ...getInputProps(fields.firstName, { type: "text" }), autoComplete: "given-name" }}
            errors={fields.firstName.errors}
          />
          <Field
            label="Last Name"
            required
            inputProps={{ ...getInputProps(fields.lastName, { type: "text" }), autoComplete: "family-name" }}
            errors={fields.lastName.errors}
          />
          <Field
            label="Email"
            required
            inputProps={{ ...getInputProps(fields.email, { type: "email" }), autoComplete: "email" }}
            errors={fields.email.errors}
          />
          <Field
            label="Phone"
            inputProps={{ ...getInputProps(fields.phone, { type: "tel" }), autoComplete: "tel" }}
            errors={fields.phone.errors}
          />
          <Field
            label="Company"
            inputProps={{ ...getInputProps(fields.company, { type: "text" }), autoComplete: "organization" }}
            errors={fields.company.errors}
          />
          <TextareaField
            className="sm:col-span-2"
            label="Address"
            textareaProps={{ ...getTextareaProps(fields.address), autoComplete: "street-address" }}
            errors={fields.address.errors}
          />
          <TextareaField
            className="sm:col-span-2"
            label="Notes"
            textareaProps={{ ...getTextareaProps(fields.notes), autoComplete: "off" }}
            errors={fields.notes.errors}
          />
        </div>
        <section className="space-y-4 border-t border-slate-100 pt-6" aria-labelledby="fields-heading">
          <div className="flex flex-wrap items-baseline justify-between gap-2">
            <h3 id="fields-heading" className="font-semibold text-slate-900">
              Fields
            </h3>
            <Link to="/fields" className="text-sm font-medium text-primary hover:underline">
              Manage fields
            </Link>
          </div>
          <div className="grid gap-4 sm:grid-cols-2">
            {customFields.map((f) => (
              <FieldInput key={f.name} field={f} meta={fieldset[f.name]} />
            ))}
            <Field
              className="sm:col-span-2"
              label="Tags"
              hint={
                tagNames.length > 0
                  ? `Separate tags with commas. Your tags: ${tagNames.slice(0, TAGS_SHOWN).join(", ")}${tagNames.length > TAGS_SHOWN ? ` and ${tagNames.length - TAGS_SHOWN} more` : ""}.`
                  : "Separate tags with commas."
              }
              inputProps={{
                ...getInputProps(fields.tags, { type: "text" }),
                autoComplete: "off",
                placeholder: "VIP, Trade fair 2026",
              }}
              errors={fields.tags.errors}
            />
          </div>
          {timeZones.length > 0 ? (
            <datalist id={TIME_ZONE_LIST}>
              {timeZones.map((z) => (
                <option key={z} value={z} />
              ))}
            </datalist>
          ) : null}
        </section>
        <div className="flex flex-wrap justify-end gap-2">
          <Link to="/customers" className="btn-secondary">
            Cancel
          </Link>
          <SubmitButton className="btn-primary" busy={saving} busyLabel="Saving..." icon={Save}>
            {editing ? "Update Customer" : "Save Customer"}
          </SubmitButton>
        </div>
      </Form>
    </div>
  );
}

/** How many of the user's tags the Tags input's hint names. */
const TAGS_SHOWN = 12;
const TIME_ZONE_LIST = "time-zone-names";
const YES_NO = [
  { value: "true", label: "Yes" },
  { value: "false", label: "No" },
];

/** One field's input, of its type's kind: text, number, date, a list for a choice, Yes/No/— for yes/no. */
function FieldInput({ field, meta }: { field: FieldDefinition; meta: FieldMetadata<string | undefined> | undefined }) {
  if (!meta) return null;
  if (field.type === "choice" || field.type === "boolean") {
    const options = field.type === "boolean" ? [...YES_NO] : field.choices.map((c) => ({ value: c, label: c }));
    // A value that is no longer one of the choices (they were changed since) stays shown, not lost
    // unseen on the next save; saving it asks for one of the choices.
    const held = typeof meta.initialValue === "string" ? meta.initialValue : "";
    if (held && !options.some((o) => o.value === held))
      options.push({ value: held, label: `${held} (no longer a choice)` });
    return (
      <SelectField
        label={field.label}
        placeholder="—"
        selectProps={getSelectProps(meta)}
        options={options}
        errors={meta.errors}
      />
    );
  }
  const props = { ...getInputProps(meta, { type: "text" }), autoComplete: "off" };
  const inputProps =
    field.type === "number"
      ? { ...props, type: "number", step: "any", inputMode: "decimal" as const }
      : field.type === "date"
        ? { ...props, type: "date" }
        : field.name === "time_zone"
          ? { ...props, list: TIME_ZONE_LIST, placeholder: "Asia/Kolkata", spellCheck: false }
          : props;
  return <Field label={field.label} inputProps={inputProps} errors={meta.errors} />;
}

export function ErrorBoundary() {
  return <RouteErrorBoundary backTo="/customers" fallback={LOAD_FAILED} />;
}
