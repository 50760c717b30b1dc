// Customers for the tests of search and sort over many rows (app/models/customers/search.server.test.ts,
// app/services/customer-search.server.test.ts, customer-sort.server.test.ts), written in one batch
// as a seed or an import writes them: searchable and counted with it.
import { type SeedCustomer, seedStore } from "./store.server";

/** Customer number `n`, its id made from it: no contact details, no spend, no visits unless `over` says. */
export function seedCustomer(
  n: number,
  over: Pick<SeedCustomer, "firstName" | "lastName" | "email"> & Partial<SeedCustomer>,
): SeedCustomer {
  return {
    id: n.toString(16).padStart(24, "0"),
    phone: "",
    address: "",
    company: "",
    notes: "",
    totalSpendPaise: 0,
    visits: 0,
    lastActive: null,
    createdAt: 0,
    ...over,
  };
}

/** Writes the tenants' customers in one batch each on a seed connection; resolves with how many went in. */
export async function seedCustomers(batches: [userId: string, customers: SeedCustomer[]][]): Promise<number> {
  const seed = await seedStore.openSeedConnection();
  try {
    let written = 0;
    for (const [userId, customers] of batches) {
      await seedStore.seedStartingPoint(seed, userId);
      written += (await seedStore.insertSeedCustomers(seed, userId, customers)).length;
    }
    return written;
  } finally {
    await seedStore.closeSeedConnection(seed);
  }
}
