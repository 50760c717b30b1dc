// What the audience's tests on a real database (./store.server.test.ts, ./count-shapes.server.test.ts)
// set up alike: a rule tree from the editor's JSON, and customers of a tenant with the fields a
// segment tests (spend in paise, visits, last active in ms), written through Prisma.
import { db } from "~/db/prisma.server";
import { newId } from "~/lib/id";
import { parsedTree } from "../../../../tests/helpers/segment-trees";

/** A customer as the audience's rules see them. */
export type Row = { id: string; totalSpendPaise: number; visits: number; lastActive: number | null };

/** The rule tree of the editor's JSON (a test's own, so an invalid one throws). */
export const tree = parsedTree;

/** Writes the tenant's customers with these figures (and made-up names and addresses); returns them with their ids. */
export async function insertCustomers(userId: string, rows: Omit<Row, "id">[]): Promise<Row[]> {
  const withIds = rows.map((r) => ({ ...r, id: newId() }));
  await db().customer.createMany({
    data: withIds.map((r, i) => ({
      id: r.id,
      userId,
      firstName: `First${i}`,
      lastName: `Last${i}`,
      email: `c${i}-${r.id}@example.com`,
      totalSpendPaise: r.totalSpendPaise,
      visits: r.visits,
      lastActive: r.lastActive === null ? null : new Date(r.lastActive),
    })),
  });
  return withIds;
}
