// /orders/new and /orders/edit/{id} (spec §2, §5): customer, status, notes, item rows, tax, and the
// running subtotal and total. One zod schema (app/schemas/order.ts) checks the form as the user types
// and again on the server. Without JavaScript the form still works: the customer is typed as an
// e-mail or id, and "Add item" / "Remove" are submit buttons that come back with the rows changed.
import { Combobox, ComboboxInput, ComboboxOption, ComboboxOptions } from "@headlessui/react";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data } from "@remix-run/node";
import { Form, Link, useActionData, useFetcher, useLoaderData, useNavigation, useParams } from "@remix-run/react";
import { ArrowLeft, Plus, Search, Trash2 } from "lucide-react";
import { useEffect, useMemo, useRef, useState } from "react";
import { toast } from "sonner";
import { ApiError } from "~/lib/api.server";
import { BRAND } from "~/lib/brand";
import { formatPaise } from "~/lib/money";
import { MAX_ITEMS, ORDER_STATUSES, customerName, subtotalPaise, toPaise, toQuantity, totalPaise } from "~/lib/orders";
import {
  ORDER_MESSAGES,
  OrderSchema,
  OrderUpdateSchema,
  emptyOrderItem,
  normalizeQuantityText,
  orderFormPayload,
  orderFieldErrors,
  orderFormValues,
  type OrderFormItem,
  type OrderFormValues,
} from "~/schemas/order";
import { requireUser } from "~/services/auth.server";
import {
  createOrder,
  findCustomerByRef,
  getOrder,
  updateOrder,
  type CustomerOption,
  type OrderDto,
} from "~/services/orders.server";
import { redirectWithFlash } from "~/services/session.server";
import type { loader as optionsLoader } from "~/routes/orders-customer-options";
import { LoadFailed } from "~/components/error-boundary";

export const meta: MetaFunction = ({ params }) => [{ title: `${params.id ? "Edit Order" : "Create Order"} · ${BRAND}` }];

function valuesOf(order: OrderDto): OrderFormValues {
  return {
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
}

export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  if (params.id) {
    try {
      const order = await getOrder(user.id, params.id);
      return { order, customer: order.customer, values: valuesOf(order) };
    } catch (error) {
      if (error instanceof ApiError && error.status === 404) {
        return data({ order: null, customer: null, values: null }, { status: 404 });
      }
      throw error;
    }
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
  return { order: null, customer, values };
}

type ActionResult = {
  values: OrderFormValues;
  customer: CustomerOption | null;
  fields: Record<string, string>;
  message: string | null;
  /** Changes on every answer, so the form takes the answer's values. */
  nonce: number;
};

export async function action({ request, params }: ActionFunctionArgs) {
  const user = await requireUser(request);
  const form = await request.formData();
  const values = orderFormValues(form);
  const intent = String(form.get("intent") ?? "save");
  const editing = Boolean(params.id);
  const nonce = Date.now();

  let existing: OrderDto | null = null;
  if (editing) {
    try {
      existing = await getOrder(user.id, params.id ?? "");
    } catch (error) {
      if (error instanceof ApiError) {
        return data<ActionResult>(
          { values, customer: null, fields: {}, message: `Failed to save order: ${error.message}`, nonce },
          { status: error.status },
        );
      }
      throw error;
    }
    values.customerId = existing.customerId;
  }

  // The customer: chosen in the picker (customerId), or typed as an e-mail or id without JavaScript.
  let customer: CustomerOption | null = existing?.customer ?? null;
  if (!editing) {
    const ref = values.customerId || values.customer;
    customer = ref ? await findCustomerByRef(user.id, ref) : null;
    values.customerId = customer?._id ?? "";
    if (customer) values.customer = customer.email;
  }

  // The no-JavaScript row buttons: answer with the rows changed, nothing saved.
  if (intent === "add-item") {
    if (values.items.length < MAX_ITEMS) values.items.push(emptyOrderItem());
    return data<ActionResult>({ values, customer, fields: {}, message: null, nonce });
  }
  const remove = /^remove-item:(\d+)$/.exec(intent);
  if (remove) {
    if (values.items.length > 1) values.items.splice(Number(remove[1]), 1);
    return data<ActionResult>({ values, customer, fields: {}, message: null, nonce });
  }

  const payload = orderFormPayload(values);
  values.items = payload.items.map((item, i) => ({ ...values.items[i], quantity: item.quantity }));
  const parsed = editing ? OrderUpdateSchema.safeParse({ ...payload, customerId: undefined }) : OrderSchema.safeParse(payload);
  if (!parsed.success) {
    const fields = orderFieldErrors(parsed.error);
    if (!editing && !customer && (values.customer || values.customerId)) fields.customerId = ORDER_MESSAGES.customer;
    return data<ActionResult>({ values, customer, fields, message: firstMessage(fields), nonce }, { status: 400 });
  }
  try {
    if (editing) await updateOrder(user.id, params.id ?? "", { ...parsed.data, customerId: undefined });
    else await createOrder(user.id, { ...parsed.data, customerId: values.customerId });
  } catch (error) {
    const message = error instanceof ApiError ? error.message : "Unknown error";
    if (!(error instanceof ApiError)) console.error(error);
    return data<ActionResult>(
      { values, customer, fields: error instanceof ApiError ? (error.fields ?? {}) : {}, message: `Failed to save order: ${message}`, nonce },
      { status: error instanceof ApiError ? error.status : 500 },
    );
  }
  return redirectWithFlash(request, "/orders", {
    kind: "toast",
    type: "success",
    message: editing ? "Order updated successfully" : "Order created successfully",
  });
}

/** The message to lead with: the customer first, then item names, then the rest in form order. */
function firstMessage(fields: Record<string, string>): string | null {
  if (fields.customerId) return fields.customerId;
  const names = Object.keys(fields).find((k) => /^items\.\d+\.name$/.test(k));
  if (names) return fields[names];
  return Object.values(fields)[0] ?? null;
}

function useHydrated() {
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);
  return hydrated;
}

export default function OrderFormRoute() {
  const loaded = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const params = useParams();
  if (!loaded.values) {
    return (
      <LoadFailed message="Failed to load order data. Please try again." backTo="/orders" />
    );
  }
  return (
    <OrderForm
      key={result?.nonce ?? "initial"}
      editing={Boolean(params.id)}
      orderId={params.id ?? null}
      initial={result?.values ?? loaded.values}
      initialCustomer={result ? result.customer : loaded.customer}
      serverFields={result?.fields ?? {}}
      serverMessage={result?.message ?? null}
    />
  );
}

type FormProps = {
  editing: boolean;
  orderId: string | null;
  initial: OrderFormValues;
  initialCustomer: CustomerOption | null;
  serverFields: Record<string, string>;
  serverMessage: string | null;
};

function OrderForm({ editing, orderId, initial, initialCustomer, serverFields, serverMessage }: FormProps) {
  const hydrated = useHydrated();
  const navigation = useNavigation();
  const saving = navigation.state === "submitting" && navigation.formData?.get("intent") === "save";
  const [values, setValues] = useState<OrderFormValues>(initial);
  const [customer, setCustomer] = useState<CustomerOption | null>(initialCustomer);
  const [touched, setTouched] = useState<Set<string>>(() => new Set(Object.keys(serverFields)));
  const [submitted, setSubmitted] = useState(Object.keys(serverFields).length > 0);

  useEffect(() => {
    if (serverMessage) toast.error(serverMessage);
  }, [serverMessage]);

  // Live validation with the same schema the server uses.
  const clientFields = useMemo(() => {
    const payload = orderFormPayload(values);
    const parsed = editing ? OrderUpdateSchema.safeParse(payload) : OrderSchema.safeParse(payload);
    return parsed.success ? {} : orderFieldErrors(parsed.error);
  }, [values, editing]);
  const errorOf = (key: string): string | undefined => {
    if (!hydrated) return serverFields[key];
    return submitted || touched.has(key) ? clientFields[key] : undefined;
  };
  const touch = (key: string) => setTouched((t) => (t.has(key) ? t : new Set(t).add(key)));

  const subtotal = subtotalPaise(
    values.items.map((i) => {
      const price = Number(i.price);
      return { quantity: toQuantity(i.quantity), pricePaise: Number.isFinite(price) && price >= 0 ? toPaise(price) : 0 };
    }),
  );
  const taxNumber = Number(values.tax);
  const taxPaise = Number.isFinite(taxNumber) && taxNumber >= 0 ? toPaise(taxNumber) : 0;

  // Fields are checked as the user types in them (not on leaving them, which would shift the
  // layout under a click on the submit button), and all of them once a save is tried.
  const setItem = (index: number, change: Partial<OrderFormItem>) => {
    setValues((v) => ({ ...v, items: v.items.map((item, i) => (i === index ? { ...item, ...change } : item)) }));
    for (const field of Object.keys(change)) touch(`items.${index}.${field}`);
  };
  const addItem = () => setValues((v) => (v.items.length >= MAX_ITEMS ? v : { ...v, items: [...v.items, emptyOrderItem()] }));
  const removeItem = (index: number) =>
    setValues((v) => (v.items.length <= 1 ? v : { ...v, items: v.items.filter((_, i) => i !== index) }));

  const onSubmit = (event: React.FormEvent<HTMLFormElement>) => {
    const submitter = (event.nativeEvent as SubmitEvent).submitter as HTMLButtonElement | null;
    if (submitter && submitter.value !== "save") return;
    setSubmitted(true);
    const message = firstMessage(clientFields);
    if (message) {
      event.preventDefault();
      toast.error(message);
    }
  };

  const customerError = errorOf("customerId");
  const bannerMessage = hydrated ? null : serverMessage;

  return (
    <div className="mx-auto max-w-4xl space-y-4">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <div>
          <h2 className="text-2xl font-bold text-slate-900">{editing ? "Edit Order" : "Create Order"}</h2>
          <p className="text-slate-600">{editing ? "Change the order's status, items or tax" : "Record a new order for a customer"}</p>
        </div>
        <Link to={editing && orderId ? `/orders/${orderId}` : "/orders"} className="btn-secondary">
          <ArrowLeft className="h-4 w-4" aria-hidden="true" /> Back
        </Link>
      </div>

      {bannerMessage ? (
        <p role="alert" className="rounded-lg border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-700">{bannerMessage}</p>
      ) : null}

      <Form method="post" noValidate onSubmit={onSubmit} className="space-y-4">
        <section className="card grid gap-4 p-6 sm:grid-cols-2">
          <div className="sm:col-span-2">
            {editing ? (
              <FixedCustomer customer={customer} editing={editing} />
            ) : hydrated ? (
              <CustomerPicker
                customer={customer}
                invalid={Boolean(customerError)}
                onChange={(c) => {
                  setCustomer(c);
                  setValues((v) => ({ ...v, customerId: c?._id ?? "", customer: c?.email ?? "" }));
                  touch("customerId");
                }}
              />
            ) : (
              <>
                <label htmlFor="customer" className="label">Customer</label>
                <input
                  id="customer"
                  name="customer"
                  type="text"
                  defaultValue={values.customer}
                  placeholder="Customer's e-mail or ID"
                  className="input"
                  aria-invalid={Boolean(customerError)}
                  aria-describedby={customerError ? "customerId-error" : "customer-help"}
                />
                <p id="customer-help" className="mt-1 text-xs text-slate-500">Type the customer&apos;s e-mail address or ID.</p>
              </>
            )}
            {editing || hydrated ? (
              <input type="hidden" name="customerId" value={editing ? values.customerId : (customer?._id ?? "")} />
            ) : null}
            {customerError ? <p id="customerId-error" className="field-error">{customerError}</p> : null}
          </div>

          <div>
            <label htmlFor="status" className="label">Status</label>
            <select
              id="status"
              name="status"
              value={values.status}
              onChange={(e) => setValues((v) => ({ ...v, status: e.target.value }))}
              className="input"
            >
              {ORDER_STATUSES.map((s) => (
                <option key={s} value={s}>{s}</option>
              ))}
            </select>
          </div>

          <div>
            <label htmlFor="tax" className="label">Tax (₹)</label>
            <input
              id="tax"
              name="tax"
              type="number"
              inputMode="decimal"
              min={0}
              step={0.01}
              value={values.tax}
              onChange={(e) => {
                setValues((v) => ({ ...v, tax: e.target.value }));
                touch("tax");
              }}
              className="input"
              aria-invalid={Boolean(errorOf("tax"))}
            />
            {errorOf("tax") ? <p className="field-error">{errorOf("tax")}</p> : null}
          </div>

          <div className="sm:col-span-2">
            <label htmlFor="notes" className="label">Notes</label>
            <textarea
              id="notes"
              name="notes"
              rows={3}
              value={values.notes}
              onChange={(e) => {
                setValues((v) => ({ ...v, notes: e.target.value }));
                touch("notes");
              }}
              className="input"
              aria-invalid={Boolean(errorOf("notes"))}
            />
            {errorOf("notes") ? <p className="field-error">{errorOf("notes")}</p> : null}
          </div>
        </section>

        <section className="card p-6" aria-labelledby="items-heading">
          <div className="mb-4 flex items-center justify-between">
            <h3 id="items-heading" className="font-semibold text-slate-900">Items</h3>
            <button
              type="submit"
              name="intent"
              value="add-item"
              formNoValidate
              className="btn-secondary"
              onClick={(e) => {
                if (!hydrated) return;
                e.preventDefault();
                addItem();
              }}
              disabled={values.items.length >= MAX_ITEMS}
            >
              <Plus className="h-4 w-4" aria-hidden="true" /> Add Item
            </button>
          </div>
          {errorOf("items") ? <p className="field-error mb-3">{errorOf("items")}</p> : null}
          <ol className="space-y-4">
            {values.items.map((item, index) => (
              <ItemRow
                key={index}
                index={index}
                item={item}
                canRemove={values.items.length > 1}
                hydrated={hydrated}
                errorOf={errorOf}
                onChange={(change) => setItem(index, change)}
                onRemove={() => removeItem(index)}
              />
            ))}
          </ol>

          <dl className="ml-auto mt-6 max-w-xs space-y-2 border-t border-slate-100 pt-4 text-sm">
            <div className="flex justify-between">
              <dt className="text-slate-600">Subtotal</dt>
              <dd className="tabular-nums" data-testid="form-subtotal">{formatPaise(subtotal)}</dd>
            </div>
            <div className="flex justify-between">
              <dt className="text-slate-600">Tax</dt>
              <dd className="tabular-nums" data-testid="form-tax">{formatPaise(taxPaise)}</dd>
            </div>
            <div className="flex justify-between border-t border-slate-100 pt-2 text-base font-semibold text-slate-900">
              <dt>Total</dt>
              <dd className="tabular-nums" data-testid="form-total">{formatPaise(totalPaise(subtotal, taxPaise))}</dd>
            </div>
          </dl>
        </section>

        <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
          <Link to={editing && orderId ? `/orders/${orderId}` : "/orders"} className="btn-secondary">Cancel</Link>
          <button type="submit" name="intent" value="save" className="btn-primary" disabled={saving}>
            {editing ? "Update Order" : "Create Order"}
          </button>
        </div>
      </Form>
    </div>
  );
}

function FixedCustomer({ customer, editing }: { customer: CustomerOption | null; editing: boolean }) {
  return (
    <div>
      <p className="label">Customer</p>
      <div className="rounded-lg border border-slate-200 bg-slate-50 px-3 py-2 text-sm" data-testid="fixed-customer">
        <span className="font-medium text-slate-900">{customerName(customer)}</span>
        {customer?.email ? <span className="text-slate-500"> · {customer.email}</span> : null}
      </div>
      {editing ? <p className="mt-1 text-xs text-slate-500">The customer cannot be changed when editing.</p> : null}
    </div>
  );
}

/** A searchable customer picker: asks the server for matches as the user types (scales to any size). */
function CustomerPicker({
  customer,
  invalid,
  onChange,
}: {
  customer: CustomerOption | null;
  invalid: boolean;
  onChange: (c: CustomerOption | null) => void;
}) {
  const fetcher = useFetcher<typeof optionsLoader>();
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

  return (
    <Combobox
      value={customer}
      by="_id"
      onChange={(c: CustomerOption | null) => onChange(c)}
      onClose={() => setQuery("")}
      immediate
    >
      <label htmlFor="customer-picker" className="label">Customer</label>
      <div className="relative">
        <Search className="pointer-events-none absolute left-3 top-1/2 h-4 w-4 -translate-y-1/2 text-slate-400" aria-hidden="true" />
        <ComboboxInput
          id="customer-picker"
          className="input pl-9"
          placeholder="Search customers by name or e-mail"
          autoComplete="off"
          aria-invalid={invalid}
          aria-describedby={invalid ? "customerId-error" : undefined}
          displayValue={(c: CustomerOption | null) => (c ? `${customerName(c)} (${c.email})` : "")}
          onChange={(e) => {
            setQuery(e.target.value);
            search(e.target.value);
          }}
          onFocus={() => {
            if (!fetcher.data && fetcher.state === "idle") load(`/orders/customer-options?q=${encodeURIComponent(query)}`);
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
            <ComboboxOption key={c._id} value={c} className="cursor-pointer px-4 py-2 text-sm data-[focus]:bg-primary-light/60 data-[selected]:font-semibold">
              <div className="text-slate-900">{customerName(c)}</div>
              <div className="text-xs text-slate-500">{c.email}</div>
            </ComboboxOption>
          ))
        )}
      </ComboboxOptions>
    </Combobox>
  );
}

function ItemRow({
  index,
  item,
  canRemove,
  hydrated,
  errorOf,
  onChange,
  onRemove,
}: {
  index: number;
  item: OrderFormItem;
  canRemove: boolean;
  hydrated: boolean;
  errorOf: (key: string) => string | undefined;
  onChange: (change: Partial<OrderFormItem>) => void;
  onRemove: () => void;
}) {
  const key = (field: keyof OrderFormItem) => `items.${index}.${field}`;
  const name = (field: keyof OrderFormItem) => `items[${index}].${field}`;
  const id = (field: keyof OrderFormItem) => `item-${index}-${field}`;
  const price = Number(item.price);
  const line = toQuantity(item.quantity) * (Number.isFinite(price) && price >= 0 ? toPaise(price) : 0);
  const err = (field: keyof OrderFormItem) => errorOf(key(field));
  return (
    <li className="rounded-lg border border-slate-200 p-4" data-testid="item-row">
      <div className="mb-3 flex items-center justify-between">
        <span className="text-sm font-medium text-slate-700">Item {index + 1}</span>
        <div className="flex items-center gap-3">
          <span className="text-sm tabular-nums text-slate-600">{formatPaise(line)}</span>
          <button
            type="submit"
            name="intent"
            value={`remove-item:${index}`}
            formNoValidate
            disabled={!canRemove}
            className="btn-ghost text-red-600 hover:bg-red-50"
            aria-label={`Remove item ${index + 1}`}
            title="Remove item"
            onClick={(e) => {
              if (!hydrated) return;
              e.preventDefault();
              onRemove();
            }}
          >
            <Trash2 className="h-4 w-4" aria-hidden="true" />
          </button>
        </div>
      </div>
      <div className="grid gap-3 sm:grid-cols-12">
        <div className="sm:col-span-4">
          <label htmlFor={id("name")} className="label">Item Name</label>
          <input
            id={id("name")}
            name={name("name")}
            value={item.name}
            onChange={(e) => onChange({ name: e.target.value })}
            className="input"
            aria-invalid={Boolean(err("name"))}
          />
          {err("name") ? <p className="field-error">{err("name")}</p> : null}
        </div>
        <div className="sm:col-span-4">
          <label htmlFor={id("description")} className="label">Description</label>
          <input
            id={id("description")}
            name={name("description")}
            value={item.description}
            onChange={(e) => onChange({ description: e.target.value })}
            className="input"
            aria-invalid={Boolean(err("description"))}
          />
          {err("description") ? <p className="field-error">{err("description")}</p> : null}
        </div>
        <div className="sm:col-span-2">
          <label htmlFor={id("quantity")} className="label">Quantity</label>
          <input
            id={id("quantity")}
            name={name("quantity")}
            type="number"
            inputMode="numeric"
            min={1}
            step={1}
            value={item.quantity}
            onChange={(e) => onChange({ quantity: e.target.value })}
            onBlur={() => {
              const normalized = normalizeQuantityText(item.quantity);
              if (normalized !== item.quantity) onChange({ quantity: normalized });
            }}
            className="input"
            aria-invalid={Boolean(err("quantity"))}
          />
          {err("quantity") ? <p className="field-error">{err("quantity")}</p> : null}
        </div>
        <div className="sm:col-span-2">
          <label htmlFor={id("price")} className="label">Price (₹)</label>
          <input
            id={id("price")}
            name={name("price")}
            type="number"
            inputMode="decimal"
            min={0}
            step={0.01}
            value={item.price}
            onChange={(e) => onChange({ price: e.target.value })}
            className="input"
            aria-invalid={Boolean(err("price"))}
          />
          {err("price") ? <p className="field-error">{err("price")}</p> : null}
        </div>
      </div>
    </li>
  );
}
