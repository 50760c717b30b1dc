// The rows the seed makes up (app/services/seed.server.ts): customers and their orders, each
// batch written by the engine's implementation (./contract.ts).
import type { CustomerRow } from "~/models/customers/rows";

/** A customer the seed made up; dates as unixepoch milliseconds, money in paise. */
export type SeedCustomer = Omit<CustomerRow, "userId" | "updatedAt">;

export type SeedOrderItem = { id: string; name: string; description: string; quantity: number; pricePaise: number };

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
