// What a message's merge tags read of its recipients (app/lib/merge-tags.ts), read for a batch of
// them at once by the delivery engine: their customer rows, their custom field values and their
// last order. The SQL text is the same on both engines but for how a list of ids is bound
// (`ids`): SQLite reads a JSON array, PostgreSQL an array.

/** A recipient's customer row. */
export type RecipientRow = {
  id: string;
  firstName: string;
  lastName: string;
  email: string;
  phone: string;
  address: string;
  company: string;
  totalSpendPaise: number;
  visits: number;
};

/**
 * One field value of a recipient, as stored (text), with its field's type: null for a built-in
 * field (no CustomField row) or a value of a field deleted since.
 */
export type RecipientFieldRow = { customerId: string; name: string; value: string; type: string | null };

/** A recipient's newest order (createdAt in ms). */
export type RecipientOrderRow = {
  customerId: string;
  createdAt: number;
  amountPaise: number;
  taxPaise: number;
  status: string;
};

/** `p(n)` names parameter n; `ids(n)` is the membership test of parameter n, a list of customer ids. */
export function recipientStatements(p: (n: number) => string, ids: (n: number) => string) {
  return {
    customers: `SELECT "id", "firstName", "lastName", "email", "phone", "address", "company", "totalSpendPaise", "visits"
      FROM "Customer" WHERE "userId" = ${p(1)} AND "id" ${ids(2)}`,
    fields: `SELECT v."customerId", v."name", v."value", f."type" FROM "CustomerFieldValue" v
      LEFT JOIN "CustomField" f ON f."userId" = v."userId" AND f."name" = v."name"
      WHERE v."userId" = ${p(1)} AND v."customerId" ${ids(2)}`,
    // The newest order of each: the (customerId, createdAt, id) index gives each one's first row.
    lastOrders: `SELECT o."customerId", o."createdAt", o."amountPaise", o."taxPaise", o."status" FROM "Order" o
      WHERE o."userId" = ${p(1)} AND o."customerId" ${ids(2)} AND o."id" = (
        SELECT x."id" FROM "Order" x WHERE x."userId" = o."userId" AND x."customerId" = o."customerId"
        ORDER BY x."createdAt" DESC, x."id" DESC LIMIT 1)`,
  };
}
