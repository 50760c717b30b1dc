// /customers/new and /customers/edit/{id} (spec §2, §5): one form titled Add New Customer or Edit
// Customer. firstName, lastName and email are required (e-mail input type); phone, address,
// company and notes are optional. It submits and validates on the server without JavaScript; with
// JavaScript each field is checked as it is typed, by the same zod schema.
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { ArrowLeft, Save } from "lucide-react";
import { useEffect, useState } from "react";
import { toast } from "sonner";
import { ApiError, fieldErrors } from "~/lib/api.server";
import { BRAND } from "~/lib/brand";
import { CUSTOMER_FIELDS, CustomerFormSchema, customerFormValues, type CustomerField } from "~/schemas/customer";
import { requireUser } from "~/services/auth.server";
import { createCustomer, getCustomer, updateCustomer } from "~/services/customers.server";
import { redirectWithFlash } from "~/services/session.server";
import { LoadFailed } from "~/components/error-boundary";

export const meta: MetaFunction<typeof loader> = ({ data: d }) => [
  { title: `${d && "customer" in d && d.customer ? "Edit Customer" : "Add New Customer"} · ${BRAND}` },
];

const EMPTY: Record<CustomerField, string> = { firstName: "", lastName: "", email: "", phone: "", address: "", company: "", notes: "" };

export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  if (!params.id) return { customer: null, values: EMPTY, loadFailed: false };
  try {
    const c = await getCustomer(user.id, params.id);
    const values = Object.fromEntries(CUSTOMER_FIELDS.map((f) => [f, c[f]])) as Record<CustomerField, string>;
    return { customer: { id: c.id }, values, loadFailed: false };
  } catch (error) {
    if (error instanceof ApiError) return data({ customer: null, values: EMPTY, loadFailed: true }, { status: error.status });
    throw error;
  }
}

type ActionResult = { message: string; fields: Record<string, string>; values: Record<CustomerField, string> };

export async function action({ request, params }: ActionFunctionArgs) {
  const user = await requireUser(request);
  const values = customerFormValues(await request.formData());
  const parsed = CustomerFormSchema.safeParse(values);
  if (!parsed.success) {
    return data<ActionResult>({ message: "Please correct the highlighted fields.", fields: fieldErrors(parsed.error), values }, { status: 400 });
  }
  try {
    if (params.id) await updateCustomer(user.id, params.id, parsed.data);
    else await createCustomer(user.id, parsed.data);
  } catch (error) {
    if (error instanceof ApiError) {
      return data<ActionResult>(
        { message: "Failed to save customer. Please try again.", fields: error.fields ?? {}, values },
        { status: error.status },
      );
    }
    throw error;
  }
  return redirectWithFlash(request, "/customers", {
    kind: "toast",
    type: "success",
    message: params.id ? "Customer updated successfully" : "Customer created successfully",
  });
}

const FIELDS: { name: CustomerField; label: string; type: string; autoComplete: string; required?: boolean; wide?: boolean; multiline?: boolean }[] = [
  { name: "firstName", label: "First Name", type: "text", autoComplete: "given-name", required: true },
  { name: "lastName", label: "Last Name", type: "text", autoComplete: "family-name", required: true },
  { name: "email", label: "Email", type: "email", autoComplete: "email", required: true },
  { name: "phone", label: "Phone", type: "tel", autoComplete: "tel" },
  { name: "company", label: "Company", type: "text", autoComplete: "organization" },
  { name: "address", label: "Address", type: "text", autoComplete: "street-address", wide: true, multiline: true },
  { name: "notes", label: "Notes", type: "text", autoComplete: "off", wide: true, multiline: true },
];

/** The live check of one field: the schema's message for it, if any. */
function checkField(name: CustomerField, value: string): string | undefined {
  const result = CustomerFormSchema.shape[name].safeParse(value);
  return result.success ? undefined : result.error.issues[0]?.message;
}

export default function CustomerForm() {
  const { customer, values, loadFailed } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const navigation = useNavigation();
  const saving = navigation.state === "submitting";
  const editing = Boolean(customer);
  const [touched, setTouched] = useState<Partial<Record<CustomerField, string | undefined>>>({});

  useEffect(() => {
    if (result) {
      setTouched({});
      if (result.message.startsWith("Failed")) toast.error(result.message);
    }
  }, [result]);

  if (loadFailed) {
    return (
      <LoadFailed message="Failed to load customer data. Please try again." backTo="/customers" backLabel="Back to Customers" />
    );
  }

  const initial = result?.values ?? values;
  const errorOf = (name: CustomerField) => (name in touched ? touched[name] : result?.fields[name]);

  return (
    <div className="mx-auto max-w-3xl space-y-4">
      <div className="flex items-center gap-3">
        <Link to={customer ? `/customers/${customer.id}` : "/customers"} className="btn-ghost" aria-label="Back">
          <ArrowLeft className="h-5 w-5" aria-hidden />
        </Link>
        <h2 className="text-2xl font-bold text-slate-900">{editing ? "Edit Customer" : "Add New Customer"}</h2>
      </div>
      {result ? (
        <p role="alert" className="rounded-lg border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-700">{result.message}</p>
      ) : null}
      <Form method="post" noValidate className="card space-y-6 p-6" key={customer?.id ?? "new"}>
        <div className="grid gap-4 sm:grid-cols-2">
          {FIELDS.map((f) => {
            const error = errorOf(f.name);
            const common = {
              id: f.name,
              name: f.name,
              defaultValue: initial[f.name],
              autoComplete: f.autoComplete,
              className: "input",
              "aria-invalid": Boolean(error),
              "aria-describedby": error ? `${f.name}-error` : undefined,
              "aria-required": f.required || undefined,
              onChange: (event: React.ChangeEvent<HTMLInputElement | HTMLTextAreaElement>) => {
                const value = event.currentTarget.value;
                setTouched((t) => ({ ...t, [f.name]: checkField(f.name, value) }));
              },
            };
            return (
              <div key={f.name} className={f.wide ? "sm:col-span-2" : undefined}>
                <label htmlFor={f.name} className="label">
                  {f.label}
                  {f.required ? <span className="text-red-600" aria-hidden> *</span> : null}
                </label>
                {f.multiline ? <textarea rows={3} {...common} /> : <input type={f.type} {...common} />}
                {error ? <p id={`${f.name}-error`} className="field-error">{error}</p> : null}
              </div>
            );
          })}
        </div>
        <div className="flex flex-wrap justify-end gap-2">
          <Link to="/customers" className="btn-secondary">Cancel</Link>
          <button type="submit" className="btn-primary" disabled={saving}>
            <Save className="h-4 w-4" aria-hidden /> {saving ? "Saving..." : editing ? "Update Customer" : "Save Customer"}
          </button>
        </div>
      </Form>
    </div>
  );
}
