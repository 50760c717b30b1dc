// /customers/new and /customers/edit/{id} (docs/rules.md#customer-form): one form titled Add New
// Customer or Edit Customer. firstName, lastName and email are required (e-mail input type); phone, address,
// company and notes are optional. It submits and validates on the server without JavaScript; with
// JavaScript each field is checked as it is typed, by the same zod schema.
import { getFormProps, getInputProps, getTextareaProps, useForm } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod/v4";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { ArrowLeft, Save } from "lucide-react";
import { useEffect } from "react";
import { toast } from "sonner";
import { allowMethods, keepAllowHeader } from "~/lib/api.server";
import { RouteErrorBoundary } from "~/components/error-boundary";
import { Field, FormAlert, LIVE_VALIDATION, TextareaField } from "~/components/forms";
import { BRAND } from "~/lib/brand";
import { replyRefused, replyUnfinished } from "~/lib/forms.server";
import { orRespond } from "~/lib/responses";
import { CUSTOMER_FIELDS, CustomerFormSchema, type CustomerField } from "~/schemas/customer";
import { requireUser } from "~/services/auth.server";
import { createCustomer, getCustomer, updateCustomer } from "~/services/customers.server";
import { redirectWithFlash } from "~/services/session.server";

// A 405 keeps its Allow header on the rendered page (app/lib/api.server.ts).
export const headers = keepAllowHeader;

export const meta: MetaFunction<typeof loader> = ({ data: d }) => [
  { title: `${d?.customer ? "Edit Customer" : "Add New Customer"} · ${BRAND}` },
];

const LOAD_FAILED = "Failed to load customer data. Please try again.";
const SAVE_FAILED = "Failed to save customer. Please try again.";

export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  if (!params.id) return { customer: null, values: null };
  const c = await orRespond(getCustomer(user.id, params.id), LOAD_FAILED);
  const values = Object.fromEntries(CUSTOMER_FIELDS.map((f) => [f, c[f]])) as Record<CustomerField, string>;
  return { customer: { id: c.id }, values };
}

export async function action({ request, params }: ActionFunctionArgs) {
  allowMethods(request, "GET", "POST");
  const user = await requireUser(request);
  const submission = parseWithZod(await request.formData(), { schema: CustomerFormSchema });
  if (submission.status !== "success") return replyUnfinished(submission, "Please correct the highlighted fields.");
  try {
    if (params.id) await updateCustomer(user.id, params.id, submission.value);
    else await createCustomer(user.id, submission.value);
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
  const { customer, values } = useLoaderData<typeof loader>();
  const lastResult = useActionData<typeof action>();
  const navigation = useNavigation();
  const saving = navigation.state === "submitting";
  const editing = Boolean(customer);
  const [form, fields] = useForm({
    id: "customer-form",
    lastResult,
    defaultValue: values,
    constraint: getZodConstraint(CustomerFormSchema),
    onValidate: ({ formData }) => parseWithZod(formData, { schema: CustomerFormSchema }),
    ...LIVE_VALIDATION,
  });

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
        <div className="flex flex-wrap justify-end gap-2">
          <Link to="/customers" className="btn-secondary">
            Cancel
          </Link>
          <button type="submit" className="btn-primary" disabled={saving}>
            <Save className="h-4 w-4" aria-hidden />{" "}
            {saving ? "Saving..." : editing ? "Update Customer" : "Save Customer"}
          </button>
        </div>
      </Form>
    </div>
  );
}

export function ErrorBoundary() {
  return <RouteErrorBoundary backTo="/customers" fallback={LOAD_FAILED} />;
}
