// The order payload of spec §3/§7, one zod schema for the order form (server and live validation in
// the browser) and for POST/PUT /api/orders. Amounts are rupees here; the service stores paise.
// The amount a caller sends is ignored: the server computes the subtotal from the items.
import { z } from "zod";
import {
  DEFAULT_ORDER_STATUS,
  MAX_ITEMS,
  MAX_ORDER_TOTAL_PAISE,
  MAX_QUANTITY,
  ORDER_STATUSES,
  isPaiseStep,
  normalizeStatus,
  subtotalPaise,
  toPaise,
  toQuantity,
} from "~/lib/orders";
import { formatPaise } from "~/lib/money";

export const ORDER_MESSAGES = {
  customer: "Please select a customer",
  itemNames: "Please fill in all item names",
  items: "Add at least one item",
  tooManyItems: `An order can have at most ${MAX_ITEMS} items`,
  quantity: "Quantity must be at least 1",
  quantityWhole: "Quantity must be a whole number",
  quantityMax: `Quantity must be at most ${MAX_QUANTITY.toLocaleString("en-IN")}`,
  quantityNumber: "Quantity must be a number",
  price: "Price must be 0 or more",
  priceNumber: "Price must be a number",
  priceStep: "Price can have at most 2 decimal places",
  tax: "Tax must be 0 or more",
  taxNumber: "Tax must be a number",
  taxStep: "Tax can have at most 2 decimal places",
  status: `Status must be one of ${ORDER_STATUSES.join(", ")}`,
  total: `The order total must be at most ${formatPaise(MAX_ORDER_TOTAL_PAISE)}`,
  customerFixed: "The customer cannot be changed when editing",
} as const;

/** Numbers may arrive as numbers (JSON) or as text (forms); blank text is "missing". */
const numeric = (message: string) =>
  z.preprocess(
    (v) => (typeof v === "string" ? (v.trim() === "" ? undefined : Number(v.trim())) : v),
    z.number({ error: message }).refine(Number.isFinite, message),
  );

const money = (numberMessage: string, minMessage: string, stepMessage: string) =>
  numeric(numberMessage)
    .pipe(z.number().min(0, minMessage).max(MAX_ORDER_TOTAL_PAISE / 100, ORDER_MESSAGES.total))
    .refine(isPaiseStep, stepMessage);

const text = (max: number) =>
  z.preprocess((v) => (v === null || v === undefined ? "" : v), z.string().trim().max(max, `At most ${max} characters`));

export const OrderItemSchema = z.object({
  name: z.preprocess(
    (v) => (v === null || v === undefined ? "" : v),
    z.string({ error: ORDER_MESSAGES.itemNames }).trim().min(1, ORDER_MESSAGES.itemNames).max(200, "At most 200 characters"),
  ),
  description: text(1000),
  quantity: numeric(ORDER_MESSAGES.quantityNumber).pipe(
    z.number().int(ORDER_MESSAGES.quantityWhole).min(1, ORDER_MESSAGES.quantity).max(MAX_QUANTITY, ORDER_MESSAGES.quantityMax),
  ),
  price: money(ORDER_MESSAGES.priceNumber, ORDER_MESSAGES.price, ORDER_MESSAGES.priceStep),
});

/** customerId may come as customerId, or as customer (an id or an object with _id or id). */
function customerIdOf(raw: Record<string, unknown>): unknown {
  if (raw.customerId !== undefined && raw.customerId !== null && raw.customerId !== "") return raw.customerId;
  const c = raw.customer;
  if (typeof c === "string") return c;
  if (c && typeof c === "object") {
    const o = c as Record<string, unknown>;
    return o._id ?? o.id;
  }
  return undefined;
}

const customerIdField = z.preprocess(
  (v) => (typeof v === "string" ? v.trim() : v),
  z.string({ error: ORDER_MESSAGES.customer }).min(1, ORDER_MESSAGES.customer).max(100, ORDER_MESSAGES.customer),
);

function makeOrderSchema<C extends z.ZodType>(customerId: C) {
  return z.preprocess(
    (raw) => {
      if (!raw || typeof raw !== "object" || Array.isArray(raw)) return raw;
      const r = raw as Record<string, unknown>;
      return { ...r, customerId: customerIdOf(r) };
    },
    z
      .object({
        customerId,
        status: z.preprocess(
          (v) => (v === undefined || v === null || v === "" ? DEFAULT_ORDER_STATUS : (normalizeStatus(v) ?? v)),
          z.enum(ORDER_STATUSES, { error: ORDER_MESSAGES.status }),
        ),
        notes: text(2000),
        tax: z.preprocess(
          (v) => (v === undefined || v === null || v === "" ? 0 : v),
          money(ORDER_MESSAGES.taxNumber, ORDER_MESSAGES.tax, ORDER_MESSAGES.taxStep),
        ),
        items: z
          .array(OrderItemSchema, { error: ORDER_MESSAGES.items })
          .min(1, ORDER_MESSAGES.items)
          .max(MAX_ITEMS, ORDER_MESSAGES.tooManyItems),
      }, { error: "The order must be a JSON object" })
      .superRefine((order, ctx) => {
        const subtotal = subtotalPaise(order.items.map((i) => ({ quantity: i.quantity, pricePaise: toPaise(i.price) })));
        if (subtotal + toPaise(order.tax) > MAX_ORDER_TOTAL_PAISE) {
          ctx.addIssue({ code: "custom", path: ["items"], message: ORDER_MESSAGES.total });
        }
      }),
  );
}

/** Creating an order: the customer is required. */
export const OrderSchema = makeOrderSchema(customerIdField);
/** Updating an order: the customer may be left out (it cannot change anyway). */
export const OrderUpdateSchema = makeOrderSchema(customerIdField.optional());

export type OrderInput = z.infer<typeof OrderSchema>;
export type OrderUpdateInput = z.infer<typeof OrderUpdateSchema>;
export type OrderItemInput = z.infer<typeof OrderItemSchema>;

/** The form's values as text, the way inputs hold them. */
export type OrderFormItem = { name: string; description: string; quantity: string; price: string };
export type OrderFormValues = {
  customerId: string;
  /** The no-JavaScript fallback: a customer's e-mail or id typed by hand. */
  customer: string;
  status: string;
  notes: string;
  tax: string;
  items: OrderFormItem[];
};

export const emptyOrderItem = (): OrderFormItem => ({ name: "", description: "", quantity: "1", price: "0" });

/** Reads the order form's fields (items[0].name, items[0].quantity, …) into form values. */
export function orderFormValues(form: FormData): OrderFormValues {
  const str = (k: string) => {
    const v = form.get(k);
    return typeof v === "string" ? v : "";
  };
  const rows = new Map<number, OrderFormItem>();
  for (const key of form.keys()) {
    const m = /^items\[(\d+)\]\.(name|description|quantity|price)$/.exec(key);
    if (!m) continue;
    const index = Number(m[1]);
    if (index >= MAX_ITEMS * 2) continue;
    const row = rows.get(index) ?? { name: "", description: "", quantity: "", price: "" };
    row[m[2] as keyof OrderFormItem] = str(key);
    rows.set(index, row);
  }
  const items = [...rows.entries()].sort((a, b) => a[0] - b[0]).map(([, row]) => row);
  return {
    customerId: str("customerId").trim(),
    customer: str("customer").trim(),
    status: str("status"),
    notes: str("notes"),
    tax: str("tax"),
    items: items.length ? items : [emptyOrderItem()],
  };
}

/** Form values to the payload the schema checks (spec §5: a non-numeric quantity becomes 1). */
export function orderFormPayload(values: OrderFormValues) {
  return {
    customerId: values.customerId,
    status: values.status,
    notes: values.notes,
    tax: values.tax,
    items: values.items.map((i) => ({
      name: i.name,
      description: i.description,
      quantity: normalizeQuantityText(i.quantity),
      price: i.price,
    })),
  };
}

/** Spec §5 on the quantity input: a non-numeric value becomes 1, the minimum is 1. */
export function normalizeQuantityText(value: string): string {
  return String(toQuantity(value));
}

/** Field messages keyed by dotted path (items.0.name), the first per field: for the browser too. */
export function orderFieldErrors(error: z.ZodError): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const issue of error.issues) {
    const key = issue.path.join(".") || "_";
    fields[key] ??= issue.message;
  }
  return fields;
}
