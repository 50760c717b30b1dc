// A recipient's values as the merge tags read them (customer.*, last_order.*), made the same way
// for the preview of one customer (merge-values.server.ts) and for a batch of recipients of a
// campaign (the delivery engine reads them on its own connection, once per batch): what the
// preview shows is what is sent.
import { apiFieldValue, type FieldType, type FieldValues, isBuiltInField, BUILT_IN_FIELDS } from "~/lib/custom-fields";
import { NAME_FALLBACK } from "~/lib/campaigns";
import type { MergeValues } from "~/lib/merge-tags";
import { paiseToRupees } from "~/lib/money";
import { totalPaise } from "~/lib/orders";
import type { AnyConnection } from "~/models/transaction/store.server";
import { mergeValues, type RecipientFieldRow, type RecipientRow } from "~/models/merge-values/store.server";

export type RecipientValues = Pick<MergeValues, "customer" | "last_order">;

/** What the values are made of: the customer's record (amounts in rupees), fields and newest order. */
export type RecipientSource = Omit<RecipientRow, "id" | "totalSpendPaise"> & {
  totalSpend: number;
  fields: FieldValues;
  lastOrder: { createdAt: number; amount: number; total: number; status: string } | null;
};

/** A customer's full name as {NAME} always gave it: trimmed, "Customer" when empty. */
export const fullName = (first: string, last: string) => `${first} ${last}`.trim() || NAME_FALLBACK;

export function recipientValues(r: RecipientSource): RecipientValues {
  const last = r.lastOrder;
  return {
    customer: {
      ...r.fields,
      name: fullName(r.firstName, r.lastName),
      first_name: r.firstName,
      last_name: r.lastName,
      email: r.email,
      phone: r.phone,
      address: r.address,
      company: r.company,
      total_spend: r.totalSpend,
      visits: r.visits,
    },
    last_order: last
      ? {
          amount: last.amount,
          total: last.total,
          date: new Date(last.createdAt).toISOString().slice(0, 10),
          status: last.status,
        }
      : null,
  };
}

/**
 * A recipient whose customer was deleted since the launch: the name, address and phone their
 * delivery row kept (the sent message and its view-in-browser copy read the same).
 */
export function keptRecipientValues(row: { name: string; email: string; phone: string }): RecipientValues {
  const [first = "", ...rest] = row.name.trim().split(/\s+/);
  const last = rest.join(" ");
  return {
    customer: { name: fullName(first, last), first_name: first, last_name: last, email: row.email, phone: row.phone },
    last_order: null,
  };
}

const BUILT_IN_TYPES = new Map<string, FieldType>(BUILT_IN_FIELDS.map((f) => [f.name, f.type]));

/** A stored value as a tag reads it; undefined for a value of a field deleted since. */
function fieldValue(row: RecipientFieldRow): string | number | boolean | undefined {
  const type = (row.type as FieldType | null) ?? (isBuiltInField(row.name) ? BUILT_IN_TYPES.get(row.name) : undefined);
  return type === undefined ? undefined : apiFieldValue(type, row.value);
}

/** What a template reads beyond the customer's own columns (each is one more read per batch). */
export type ValuesNeeded = { fields: boolean; lastOrder: boolean };

/**
 * The values of a batch of the tenant's recipients, by customer id (a customer deleted since the
 * launch is missing: the caller uses the delivery row's name and address).
 */
export async function batchRecipientValues(
  connection: AnyConnection,
  userId: string,
  customerIds: readonly string[],
  needed: ValuesNeeded,
): Promise<Map<string, RecipientValues>> {
  const ids = [...new Set(customerIds)];
  const [rows, fieldRows, orders] = await Promise.all([
    mergeValues.recipients(connection, userId, ids),
    needed.fields ? mergeValues.recipientFields(connection, userId, ids) : [],
    needed.lastOrder ? mergeValues.lastOrders(connection, userId, ids) : [],
  ]);
  const fieldsOf = new Map<string, FieldValues>();
  for (const row of fieldRows) {
    const value = fieldValue(row);
    if (value === undefined) continue;
    const fields = fieldsOf.get(row.customerId) ?? {};
    fields[row.name] = value;
    fieldsOf.set(row.customerId, fields);
  }
  const orderOf = new Map(orders.map((o) => [o.customerId, o]));
  const values = new Map<string, RecipientValues>();
  for (const row of rows) {
    const order = orderOf.get(row.id);
    values.set(
      row.id,
      recipientValues({
        ...row,
        totalSpend: paiseToRupees(row.totalSpendPaise),
        fields: fieldsOf.get(row.id) ?? {},
        lastOrder: order
          ? {
              createdAt: order.createdAt,
              amount: paiseToRupees(order.amountPaise),
              total: paiseToRupees(totalPaise(order.amountPaise, order.taxPaise)),
              status: order.status,
            }
          : null,
      }),
    );
  }
  return values;
}
