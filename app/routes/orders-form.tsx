// /orders/new and /orders/edit/{id}: customer, status, notes, item rows, tax, and the running subtotal
// and total. One zod schema (app/schemas/order.ts) checks the form in the browser and on the server.
// Without JavaScript the form still works: the customer is typed as an e-mail or id, and "Add Item" /
// "Remove" are Conform's insert and remove intents, which the server answers with the rows changed.
import {
  Combobox,
  ComboboxInput,
  ComboboxOption,
  ComboboxOptions,
  Description,
  Field as HeadlessField,
  Label,
} from "@headlessui/react";
import {
  getFormProps,
  getInputProps,
  getSelectProps,
  getTextareaProps,
  useForm,
  type FieldMetadata,
} from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useFetcher, useLoaderData, useNavigation } from "@remix-run/react";
import { ArrowLeft, Plus, Search, Trash2 } from "lucide-react";
import { useEffect, useRef, useState } from "react";
import { toast } from "sonner";
import { RouteErrorBoundary } from "~/components/error-boundary";
import { ErrorList, Field, FormAlert, LIVE_VALIDATION, SelectField, TextareaField } from "~/components/forms";
import { allowMethods, ApiError, keepAllowHeader } from "~/lib/api.server";
import { BRAND } from "~/lib/brand";
import { replyRefused, replyUnfinished } from "~/lib/forms.server";
import { orRespond } from "~/lib/responses";
import { formatPaise } from "~/lib/money";
import { MAX_ITEMS, ORDER_STATUSES, customerName, subtotalPaise, toPaise, toQuantity, totalPaise } from "~/lib/orders";
import {
  OrderFormSchema,
  OrderFormUpdateSchema,
  emptyOrderItem,
  normalizeQuantityText,
  type OrderFormItem,
  type OrderFormValues,
} from "~/schemas/order";
import type { loader as optionsLoader } from "~/routes/orders-customer-options";
import { requireUser } from "~/services/auth.server";
import { createOrder, findCustomerByRef, getOrder, updateOrder, type CustomerOption } from "~/services/orders.server";
import { redirectWithFlash } from "~/services/session.server";

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

/** Rupees typed in an input, as paise for the running totals; anything that is not an amount counts as 0. */
function paiseOf(value: unknown): number {
  const n = typeof value === "string" && value.trim() !== "" ? Number(value) : NaN;
  return Number.isFinite(n) && n >= 0 ? toPaise(n) : 0;
}

function useHydrated() {
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);
  return hydrated;
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

          <dl className="ml-auto mt-6 max-w-xs space-y-2 border-t border-slate-100 pt-4 text-sm">
            <div className="flex justify-between">
              <dt className="text-slate-600">Subtotal</dt>
              <dd className="tabular-nums" data-testid="form-subtotal">
                {formatPaise(subtotal)}
              </dd>
            </div>
            <div className="flex justify-between">
              <dt className="text-slate-600">Tax</dt>
              <dd className="tabular-nums" data-testid="form-tax">
                {formatPaise(taxPaise)}
              </dd>
            </div>
            <div className="flex justify-between border-t border-slate-100 pt-2 text-base font-semibold text-slate-900">
              <dt>Total</dt>
              <dd className="tabular-nums" data-testid="form-total">
                {formatPaise(totalPaise(subtotal, taxPaise))}
              </dd>
            </div>
          </dl>
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

function FixedCustomer({ customer }: { customer: CustomerOption | null }) {
  return (
    <div>
      <p className="label">Customer</p>
      <div className="rounded-lg border border-slate-200 bg-slate-50 px-3 py-2 text-sm" data-testid="fixed-customer">
        <span className="font-medium text-slate-900">{customerName(customer)}</span>
        {customer?.email ? <span className="text-slate-500"> · {customer.email}</span> : null}
      </div>
      <p className="mt-1 text-xs text-slate-500">The customer cannot be changed when editing.</p>
    </div>
  );
}

/**
 * A searchable customer picker: asks the server for matches as the user types (scales to any size).
 * The choice is the form's customerId (a hidden input), checked again each time it changes.
 */
function CustomerPicker({
  meta,
  initial,
  onPicked,
}: {
  meta: FieldMetadata<string>;
  initial: CustomerOption | null;
  onPicked: () => void;
}) {
  const fetcher = useFetcher<typeof optionsLoader>();
  const [customer, setCustomer] = useState<CustomerOption | null>(initial);
  // Validate once the hidden input holds the new choice, i.e. after the render that wrote it.
  const picked = useRef(onPicked);
  picked.current = onPicked;
  const [changes, setChanges] = useState(0);
  useEffect(() => {
    if (changes > 0) picked.current();
  }, [changes]);
  const [query, setQuery] = useState("");
  const timer = useRef<ReturnType<typeof setTimeout>>();
  const load = fetcher.load;
  const search = (q: string) => {
    clearTimeout(timer.current);
    timer.current = setTimeout(() => load(`/orders/customer-options?q=${encodeURIComponent(q)}`), 200);
  };
  useEffect(() => () => clearTimeout(timer.current), []);
  const options = fetcher.data?.customers ?? [];
  const loading = fetcher.state === "loading";
  const invalid = Boolean(meta.errors?.length);

  // Headless UI's Field links the label and the error to the combobox input (it sets the input's
  // aria-labelledby and aria-describedby itself).
  return (
    <HeadlessField>
      <input type="hidden" name={meta.name} value={customer?._id ?? ""} />
      <Combobox
        value={customer}
        by="_id"
        onChange={(c: CustomerOption | null) => {
          setCustomer(c);
          setChanges((n) => n + 1);
        }}
        onClose={() => setQuery("")}
        immediate
      >
        <Label className="label">Customer</Label>
        <div className="relative">
          <Search
            className="pointer-events-none absolute left-3 top-1/2 h-4 w-4 -translate-y-1/2 text-slate-400"
            aria-hidden="true"
          />
          <ComboboxInput
            id="customer-picker"
            className="input pl-9"
            placeholder="Search customers by name or e-mail"
            autoComplete="off"
            aria-invalid={invalid || undefined}
            displayValue={(c: CustomerOption | null) => (c ? `${customerName(c)} (${c.email})` : "")}
            onChange={(e) => {
              setQuery(e.target.value);
              search(e.target.value);
            }}
            onFocus={() => {
              if (!fetcher.data && fetcher.state === "idle")
                load(`/orders/customer-options?q=${encodeURIComponent(query)}`);
            }}
          />
        </div>
        <ComboboxOptions
          anchor={{ to: "bottom start", gap: 4 }}
          className="z-50 max-h-72 w-[var(--input-width)] overflow-auto rounded-xl border border-slate-200 bg-white py-1 shadow-xl empty:invisible focus:outline-none"
        >
          {options.length === 0 ? (
            <div className="px-4 py-2 text-sm text-slate-500">{loading ? "Searching..." : "No customers found"}</div>
          ) : (
            options.map((c) => (
              <ComboboxOption
                key={c._id}
                value={c}
                className="cursor-pointer px-4 py-2 text-sm data-[focus]:bg-primary-light/60 data-[selected]:font-semibold"
              >
                <div className="text-slate-900">{customerName(c)}</div>
                <div className="text-xs text-slate-500">{c.email}</div>
              </ComboboxOption>
            ))
          )}
        </ComboboxOptions>
      </Combobox>
      {invalid ? (
        <Description as="div">
          <ErrorList errors={meta.errors} />
        </Description>
      ) : null}
    </HeadlessField>
  );
}

function ItemRow({
  meta,
  index,
  onQuantityLeft,
  removeProps,
}: {
  meta: FieldMetadata<OrderFormItem>;
  index: number;
  onQuantityLeft: (name: string, value: string) => void;
  removeProps: React.ButtonHTMLAttributes<HTMLButtonElement>;
}) {
  const row = meta.getFieldset();
  const id = (field: keyof OrderFormItem) => `item-${index}-${field}`;
  const line = toQuantity(row.quantity.value) * paiseOf(row.price.value);
  return (
    <li className="rounded-lg border border-slate-200 p-4" data-testid="item-row">
      <div className="mb-3 flex items-center justify-between">
        <span className="text-sm font-medium text-slate-700">Item {index + 1}</span>
        <div className="flex items-center gap-3">
          <span className="text-sm tabular-nums text-slate-600">{formatPaise(line)}</span>
          <button
            type="submit"
            {...removeProps}
            className="btn-ghost text-red-600 hover:bg-red-50"
            aria-label={`Remove item ${index + 1}`}
            title="Remove item"
          >
            <Trash2 className="h-4 w-4" aria-hidden="true" />
          </button>
        </div>
      </div>
      <div className="grid gap-3 sm:grid-cols-12">
        <Field
          className="sm:col-span-4"
          label="Item Name"
          inputProps={{ ...getInputProps(row.name, { type: "text" }), id: id("name") }}
          errors={row.name.errors}
        />
        <Field
          className="sm:col-span-4"
          label="Description"
          inputProps={{ ...getInputProps(row.description, { type: "text" }), id: id("description") }}
          errors={row.description.errors}
        />
        <Field
          className="sm:col-span-2"
          label="Quantity"
          inputProps={{
            ...getInputProps(row.quantity, { type: "number" }),
            id: id("quantity"),
            inputMode: "numeric",
            min: 1,
            step: 1,
            onBlur: (e) => {
              const normalized = normalizeQuantityText(e.currentTarget.value);
              if (normalized !== e.currentTarget.value) onQuantityLeft(row.quantity.name, normalized);
            },
          }}
          errors={row.quantity.errors}
        />
        <Field
          className="sm:col-span-2"
          label="Price (₹)"
          inputProps={{
            ...getInputProps(row.price, { type: "number" }),
            id: id("price"),
            inputMode: "decimal",
            min: 0,
            step: 0.01,
          }}
          errors={row.price.errors}
        />
      </div>
    </li>
  );
}
