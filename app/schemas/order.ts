// The order payload (docs/rules.md#order-form and #payloads), one zod schema for the order form (server
// and live validation in the browser) and for POST/PUT /api/orders. Amounts are rupees here; the service
// stores paise.
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
import { multiLine, singleLine } from "~/schemas/text";

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
    .pipe(
      z
        .number()
        .min(0, minMessage)
        .max(MAX_ORDER_TOTAL_PAISE / 100, ORDER_MESSAGES.total),
    )
    .refine(isPaiseStep, stepMessage);

/** Optional multi-line text (notes, an item's description). */
const text = (max: number, label: string) =>
  z.preprocess(
    (v) => (v === null || v === undefined ? "" : v),
    multiLine(z.string().trim(), label).max(max, `At most ${max} characters`),
  );

export const OrderItemSchema = z.object({
  name: z.preprocess(
    (v) => (v === null || v === undefined ? "" : v),
    singleLine(z.string({ error: ORDER_MESSAGES.itemNames }).trim(), "Item name")
      .min(1, ORDER_MESSAGES.itemNames)
      .max(200, "At most 200 characters"),
  ),
  description: text(1000, "Description"),
  quantity: numeric(ORDER_MESSAGES.quantityNumber).pipe(
    z
      .number()
      .int(ORDER_MESSAGES.quantityWhole)
      .min(1, ORDER_MESSAGES.quantity)
      .max(MAX_QUANTITY, ORDER_MESSAGES.quantityMax),
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
      .object(
        {
          customerId,
          status: z.preprocess(
            (v) => (v === undefined || v === null || v === "" ? DEFAULT_ORDER_STATUS : (normalizeStatus(v) ?? v)),
            z.enum(ORDER_STATUSES, { error: ORDER_MESSAGES.status }),
          ),
          notes: text(2000, "Notes"),
          tax: z.preprocess(
            (v) => (v === undefined || v === null || v === "" ? 0 : v),
            money(ORDER_MESSAGES.taxNumber, ORDER_MESSAGES.tax, ORDER_MESSAGES.taxStep),
          ),
          items: z
            .array(OrderItemSchema, { error: ORDER_MESSAGES.items })
            .min(1, ORDER_MESSAGES.items)
            .max(MAX_ITEMS, ORDER_MESSAGES.tooManyItems),
        },
        { error: "The order must be a JSON object" },
      )
      .superRefine((order, ctx) => {
        const subtotal = subtotalPaise(
          order.items.map((i) => ({ quantity: i.quantity, pricePaise: toPaise(i.price) })),
        );
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

/** The order form's values as text, the way its inputs hold them. */
export type OrderFormItem = { name: string; description: string; quantity: string; price: string };
export type OrderFormValues = {
  /** The customer chosen in the picker. */
  customerId: string;
  /** Without JavaScript: the customer's e-mail or id typed by hand; the server resolves it into customerId. */
  customer: string;
  status: string;
  notes: string;
  tax: string;
  items: OrderFormItem[];
};

export const emptyOrderItem = (): OrderFormItem => ({ name: "", description: "", quantity: "1", price: "0" });

/**
 * The order form's fields (as Conform reads them from the form) to the order payload: the customer
 * is customerId alone (the typed `customer` box counts only once the server has resolved it), and a
 * quantity that is not a whole number of at least 1 becomes one, as the quantity input does.
 */
function fromForm(form: OrderFormValues): unknown {
  // Typed as the form it reads (so Conform knows the field names), checked as anything.
  const raw: unknown = form;
  if (!raw || typeof raw !== "object" || Array.isArray(raw)) return raw;
  const { customer: _typed, ...order } = raw as Record<string, unknown>;
  const items = Array.isArray(order.items)
    ? order.items.map((item: unknown) =>
        item && typeof item === "object"
          ? { ...item, quantity: toQuantity((item as Record<string, unknown>).quantity) }
          : item,
      )
    : order.items;
  return { ...order, items };
}

/** The order form when creating: the same rules as the API, on the form's fields. */
export const OrderFormSchema = z.preprocess(fromForm, OrderSchema);
/** The order form when editing (the customer is fixed and not sent). */
export const OrderFormUpdateSchema = z.preprocess(fromForm, OrderUpdateSchema);

/** The quantity input's rule: a non-numeric value becomes 1 (decimals are cut), shown when the field is left. */
export function normalizeQuantityText(value: string): string {
  return String(toQuantity(value));
}
