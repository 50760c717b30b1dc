// The rows the seed makes up (app/services/seed.server.ts): customers and their orders, each
// batch written by the engine's implementation (./contract.ts).
import type { CustomerRow } from "~/models/customers/rows";

/** A customer the seed made up; dates as unixepoch milliseconds, money in paise. */
export type SeedCustomer = Omit<CustomerRow, "userId" | "updatedAt">;

export type SeedOrderItem = { id: string; name: string; description: string; quantity: number; pricePaise: number };

/** A field value the seed made up for one of its customers (as app/lib/custom-fields.ts stores it). */
export type SeedFieldValue = {
  customerId: string;
  name: string;
  value: string;
  textKey: string | null;
  numberValue: number | null;
};

/** A tag the seed put on one of its customers. */
export type SeedCustomerTag = { tagId: string; customerId: string };

/** An order the seed made up, with its items in their order. */
export type SeedOrder = {
  id: string;
  customerId: string;
  status: string;
  amountPaise: number;
  taxPaise: number;
  createdAt: number;
  items: SeedOrderItem[];
};
