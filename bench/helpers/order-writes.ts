// An order written while the customer's order figures are kept (docs/decisions/0041-custom-fields-and-tags.md),
// on either engine (bench/sections/sqlite/order-writes.ts, bench/sections/postgres/order-writes.ts):
// the p99 of creating an order through the orders service as it is ("after": the customer's totals
// and the CustomerActivity figures rewritten in the order's transaction) beside the same order
// written as it was before the figures existed ("before": the same model calls in the same
// transaction, the customer's totals applied, no figures), in turn, one at a time, on customers of
// the seeded tenant. Goal: after ≤ 1.10 × before, measured in the same run on the same database.
// The figures of the customers the "before" writes touched are brought up to date at the end.
import type { BenchGoal, BenchSection } from "../harness/types.ts";
import { stats } from "./latency-stats.ts";

const RUNS = Number(process.env.BENCH_ORDER_WRITES ?? 1500);
const WARMUP = 50;

export async function measureOrderWrites(options: {
  engine: "sqlite" | "postgres";
  userId: string;
  customerIds: readonly string[];
  log: (message: string) => void;
}): Promise<BenchSection> {
  const { createOrder } = await import("../../app/services/orders.server.ts");
  const { orders } = await import("../../app/models/orders/store.server.ts");
  const { customerActivity } = await import("../../app/models/customer-activity/store.server.ts");
  const { transaction } = await import("../../app/models/transaction/store.server.ts");
  const { newId } = await import("../../app/lib/id.ts");
  const { userId, customerIds } = options;
  const item = (i: number) => ({ name: `Bench item ${i % 50}`, description: "", quantity: 1 + (i % 3), price: 499 });

  /** The write as it was before the figures: the customer checked, the order and items, the totals. */
  const before = async (customerId: string, i: number) => {
    const it = item(i);
    const amountPaise = it.quantity * it.price * 100;
    await transaction(async (tx) => {
      if (!(await orders.customerOfUserExists(userId, customerId, tx))) throw new Error("no such customer");
      const created = await orders.insertOrderWithItems(
        { id: newId(), userId, customerId, status: "Pending", amountPaise, taxPaise: 0, notes: "" },
        [{ name: it.name, description: it.description, quantity: it.quantity, pricePaise: it.price * 100 }],
        tx,
      );
      const totals = await orders.findCustomerTotals(userId, customerId, tx);
      if (totals) {
        const lastActive =
          !totals.lastActive || totals.lastActive < created.createdAt ? created.createdAt : totals.lastActive;
        await orders.writeCustomerTotals(
          customerId,
          { totalSpendPaise: totals.totalSpendPaise + amountPaise, visits: totals.visits + 1, lastActive },
          tx,
        );
      }
      return orders.orderWithItems(created.id, tx);
    });
  };
  const after = (customerId: string, i: number) =>
    createOrder(userId, { customerId, status: "Pending", tax: 0, notes: "", items: [item(i)] });

  const a: number[] = [];
  const b: number[] = [];
  const touched = new Set<string>();
  options.log(`order writes (${options.engine}): ${RUNS} orders each way, in turn`);
  for (let i = 0; i < RUNS + WARMUP; i++) {
    const one = customerIds[(2 * i) % customerIds.length];
    const other = customerIds[(2 * i + 1) % customerIds.length];
    touched.add(one);
    let t = performance.now();
    await before(one, i);
    const tb = performance.now() - t;
    t = performance.now();
    await after(other, i);
    const ta = performance.now() - t;
    if (i >= WARMUP) {
      b.push(tb);
      a.push(ta);
    }
  }
  for (const id of touched) await transaction((tx) => customerActivity.refreshOrderFigures(userId, id, tx));
  const figures = { runs: RUNS, before: stats(b), after: stats(a) };
  const ratio = Math.round((figures.after.p99 / Math.max(figures.before.p99, 0.001)) * 100) / 100;
  const goals: BenchGoal[] = [
    {
      goal: "order create p99 with the order figures kept, against the same write without them",
      value: ratio,
      limit: 1.1,
      unit: "×",
      met: ratio <= 1.1,
    },
  ];
  return { name: "order-writes", figures: { ...figures, ratio }, goals };
}
