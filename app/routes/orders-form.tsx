// /orders/new and /orders/edit/{id}: customer, status, notes, item rows, tax, and the running subtotal
// and total. One zod schema (app/schemas/order.ts) checks the form in the browser and on the server.
// Without JavaScript the form still works: the customer is typed as an e-mail or id, and "Add Item" /
// "Remove" are Conform's insert and remove intents, which the server answers with the rows changed.
import { getFormProps, getInputProps, getSelectProps, getTextareaProps, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { ArrowLeft, Plus } from "lucide-react";
import { useEffect } from "react";
import { toast } from "sonner";
import { RouteErrorBoundary } from "~/components/error-boundary";
import { CustomerPicker, FixedCustomer } from "~/components/orders/customer-picker";
import { ItemRow, OrderTotals, paiseOf } from "~/components/orders/order-items";
import { ErrorList, Field, FormAlert, LIVE_VALIDATION, SelectField, TextareaField } from "~/components/forms";
import { allowMethods, ApiError, keepAllowHeader } from "~/lib/api.server";
import { BRAND } from "~/lib/brand";
import { replyRefused, replyUnfinished } from "~/lib/forms.server";
import { orRespond } from "~/lib/responses";
import { MAX_ITEMS, ORDER_STATUSES, subtotalPaise, toQuantity } from "~/lib/orders";
import { OrderFormSchema, OrderFormUpdateSchema, emptyOrderItem, type OrderFormValues } from "~/schemas/order";
import { requireUser } from "~/services/auth.server";
import { createOrder, findCustomerByRef, getOrder, updateOrder } from "~/services/orders.server";
import { redirectWithFlash } from "~/services/session.server";
import { useHydrated } from "~/components/hydrated";

// A 405 keeps its Allow header on the rendered page (app/lib/api.server.ts).
export const headers = keepAllowHeader;

export const meta: MetaFunction = ({ params }) => [
  { title: `${params.id ? "Edit Order" : "Create Order"} · ${BRAND}` },
];

const LOAD_FAILED = "Failed to load order data. Please try again.";
const STATUS_OPTIONS = ORDER_STATUSES.map((s) => ({ value: s, label: s }));

/** The form's schema: the customer is required when creating and fixed when editing. */
const schemaFor = (editing: boolean) => (editing ? OrderFormUpdateSchema : OrderFormSchema);
/** The order form's fields are read as text by the schema itself (numbers, blanks, a quantity of "abc"). */
const parseOrderForm = (formData: FormData, editing: boolean) =>
  parseWithZod(formData, { schema: schemaFor(editing), disableAutoCoercion: true });

export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  if (params.id) {
    const order = await orRespond(getOrder(user.id, params.id), LOAD_FAILED);
    const values: OrderFormValues = {
      customerId: order.customerId,
      customer: order.customer?.email ?? "",
      status: order.status,
      notes: order.notes,
      tax: String(order.tax),
      items: order.items.map((i) => ({
        name: i.name,
        description: i.description,
        quantity: String(i.quantity),
        price: String(i.price),
      })),
    };
    return { orderId: order._id, customer: order.customer, values };
  }
  // /orders/new?customerId=…: start with that customer chosen (from the customer screens).
  const preset = new URL(request.url).searchParams.get("customerId");
  const customer = preset ? await findCustomerByRef(user.id, preset) : null;
  const values: OrderFormValues = {
    customerId: customer?._id ?? "",
    customer: customer?.email ?? "",
    status: "Pending",
    notes: "",
    tax: "0",
    items: [emptyOrderItem()],
  };
  return { orderId: null, customer, values };
}

export async function action({ request, params }: ActionFunctionArgs) {
  allowMethods(request, "GET", "POST");
  const user = await requireUser(request);
  const formData = await request.formData();
  const editing = Boolean(params.id);
  if (!editing) {
    // The customer chosen in the picker, or typed as an e-mail or id without JavaScript; one that is
    // not the user's counts as none.
    const ref = String(formData.get("customerId") || formData.get("customer") || "").trim();
    const customer = ref ? await findCustomerByRef(user.id, ref) : null;
    formData.set("customerId", customer?._id ?? "");
  }
  const submission = parseOrderForm(formData, editing);
  if (submission.status !== "success") {
    return replyUnfinished(submission, submission.error ? firstMessage(submission.error) : undefined);
  }
  const order = submission.value;
  try {
    if (params.id) await updateOrder(user.id, params.id, { ...order, customerId: undefined });
    else await createOrder(user.id, { ...order, customerId: order.customerId ?? "" });
  } catch (error) {
    return replyRefused(
      submission,
      error,
      `Failed to save order: ${error instanceof ApiError ? error.message : "Unknown error"}`,
    );
  }
  return redirectWithFlash(request, "/orders", {
    kind: "toast",
    type: "success",
    message: editing ? "Order updated successfully" : "Order created successfully",
  });
}

/** The message to lead with: the customer first, then item names, then the rest in form order. */
function firstMessage(errors: Record<string, string[] | null | undefined>): string | undefined {
  const first = (key: string | undefined) => (key ? (errors[key]?.[0] ?? undefined) : undefined);
  const keys = Object.keys(errors).filter((k) => errors[k]?.length);
  return (
    first(keys.find((k) => k === "customerId")) ??
    first(keys.find((k) => /^items\[\d+\]\.name$/.test(k))) ??
    first(keys[0])
  );
}

export default function OrderFormRoute() {
  const { orderId, customer, values } = useLoaderData<typeof loader>();
  const lastResult = useActionData<typeof action>();
  const navigation = useNavigation();
  const hydrated = useHydrated();
  const editing = Boolean(orderId);
  const saving = navigation.state === "submitting";
  const [form, fields] = useForm({
    id: "order-form",
    lastResult,
    defaultValue: values,
    onValidate: ({ formData }) => {
      const submission = parseOrderForm(formData, editing);
      // A save that the browser stops: say why, as the server's answer would.
      const message = submission.status === "error" ? firstMessage(submission.error ?? {}) : undefined;
      if (message) toast.error(message);
      return submission;
    },
    ...LIVE_VALIDATION,
  });
  const items = fields.items.getFieldList();

  useEffect(() => {
    const failed = lastResult?.error?.[""]?.find((m) => m.startsWith("Failed to save order"));
    if (failed) toast.error(failed);
  }, [lastResult]);

  const subtotal = subtotalPaise(
    items.map((item) => {
      const row = item.getFieldset();
      return { quantity: toQuantity(row.quantity.value), pricePaise: paiseOf(row.price.value) };
    }),
  );
  const taxPaise = paiseOf(fields.tax.value);
  const backTo = orderId ? `/orders/${orderId}` : "/orders";

  return (
    <div className="mx-auto max-w-4xl space-y-4">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <div>
          <h2 className="text-2xl font-bold text-slate-900">{editing ? "Edit Order" : "Create Order"}</h2>
          <p className="text-slate-600">
            {editing ? "Change the order's status, items or tax" : "Record a new order for a customer"}
          </p>
        </div>
        <Link to={backTo} className="btn-secondary">
          <ArrowLeft className="h-4 w-4" aria-hidden="true" /> Back
        </Link>
      </div>

      <FormAlert id={form.errorId} errors={form.errors} />

      <Form method="post" className="space-y-4" {...getFormProps(form)}>
        {/* Enter in a field saves the order: the first submit button is the form's default. */}
        <button type="submit" className="hidden" tabIndex={-1} aria-hidden />
        <section className="card grid gap-4 p-6 sm:grid-cols-2">
          <div className="sm:col-span-2">
            {editing ? (
              <FixedCustomer customer={customer} />
            ) : hydrated ? (
              <CustomerPicker
                meta={fields.customerId}
                initial={customer}
                onPicked={() => form.validate({ name: fields.customerId.name })}
              />
            ) : (
              <Field
                label="Customer"
                hint="Type the customer's e-mail address or ID."
                inputProps={{
                  ...getInputProps(fields.customer, { type: "text" }),
                  id: "customer",
                  placeholder: "Customer's e-mail or ID",
                }}
                errors={fields.customerId.errors}
              />
            )}
          </div>

          <SelectField
            label="Status"
            selectProps={{ ...getSelectProps(fields.status), id: "status" }}
            options={STATUS_OPTIONS}
            errors={fields.status.errors}
          />

          <Field
            label="Tax (₹)"
            inputProps={{
              ...getInputProps(fields.tax, { type: "number" }),
              id: "tax",
              inputMode: "decimal",
              min: 0,
              step: 0.01,
            }}
            errors={fields.tax.errors}
          />

          <TextareaField
            className="sm:col-span-2"
            label="Notes"
            textareaProps={{ ...getTextareaProps(fields.notes), id: "notes" }}
            errors={fields.notes.errors}
          />
        </section>

        <section className="card p-6" aria-labelledby="items-heading">
          <div className="mb-4 flex items-center justify-between">
            <h3 id="items-heading" className="font-semibold text-slate-900">
              Items
            </h3>
            <button
              type="submit"
              className="btn-secondary"
              {...form.insert.getButtonProps({ name: fields.items.name, defaultValue: emptyOrderItem() })}
              disabled={items.length >= MAX_ITEMS}
            >
              <Plus className="h-4 w-4" aria-hidden="true" /> Add Item
            </button>
          </div>
          <ErrorList id={fields.items.errorId} errors={fields.items.errors} className="field-error mb-3" />
          <ol className="space-y-4">
            {items.map((item, index) => (
              <ItemRow
                key={item.key}
                meta={item}
                index={index}
                onQuantityLeft={(name, value) => form.update({ name, value })}
                removeProps={{
                  ...form.remove.getButtonProps({ name: fields.items.name, index }),
                  disabled: items.length <= 1,
                }}
              />
            ))}
          </ol>

          <OrderTotals subtotal={subtotal} taxPaise={taxPaise} />
        </section>

        <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
          <Link to={backTo} className="btn-secondary">
            Cancel
          </Link>
          <button type="submit" className="btn-primary" disabled={saving}>
            {editing ? "Update Order" : "Create Order"}
          </button>
        </div>
      </Form>
    </div>
  );
}

export function ErrorBoundary() {
  return <RouteErrorBoundary backTo="/orders" fallback={LOAD_FAILED} />;
}
