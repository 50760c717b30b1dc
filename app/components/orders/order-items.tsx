// The order form's items (app/routes/orders-form.tsx): one row's fields with its line amount and
// Remove, and the running subtotal, tax and total under them.
import { getInputProps, type FieldMetadata } from "@conform-to/react";
import { Trash2 } from "lucide-react";
import { Field } from "~/components/forms";
import { AmountRow } from "~/components/order-amount";
import { formatPaise } from "~/lib/money";
import { toPaise, toQuantity, totalPaise } from "~/lib/orders";
import { normalizeQuantityText, type OrderFormItem } from "~/schemas/order";

/** Rupees typed in an input, as paise for the running totals; anything that is not an amount counts as 0. */
export function paiseOf(value: unknown): number {
  const n = typeof value === "string" && value.trim() !== "" ? Number(value) : NaN;
  return Number.isFinite(n) && n >= 0 ? toPaise(n) : 0;
}

/** One item of the order: name, description, quantity and price, its amount, and Remove. */
export function ItemRow({
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

/** The running subtotal, tax and total, in rupees. */
export function OrderTotals({ subtotal, taxPaise }: { subtotal: number; taxPaise: number }) {
  return (
    <dl className="ml-auto mt-6 max-w-xs space-y-2 border-t border-slate-100 pt-4 text-sm">
      <AmountRow label="Subtotal" testId="form-subtotal">
        {formatPaise(subtotal)}
      </AmountRow>
      <AmountRow label="Tax" testId="form-tax">
        {formatPaise(taxPaise)}
      </AmountRow>
      <AmountRow label="Total" testId="form-total" total>
        {formatPaise(totalPaise(subtotal, taxPaise))}
      </AmountRow>
    </dl>
  );
}
