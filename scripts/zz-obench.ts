// Scratch measurement (not part of the product): orders list and picker at scale.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
const dir = mkdtempSync(path.join(tmpdir(), "obench-"));
process.env.DATABASE_URL = `file:${path.join(dir, "b.db")}`;
process.env.DATA_DIR = dir;
process.env.SESSION_SECRET = "x".repeat(40);
const { migrateDatabase } = await import("/work/main/app/db/migrate.server.ts");
migrateDatabase(path.join(dir, "b.db"));
const { upsertLocalUser } = await import("/work/main/app/services/users.server.ts");
const { seedTenant } = await import("/work/main/app/services/seed.server.ts");
const orders = await import("/work/main/app/services/orders.server.ts");
const { listCustomers } = await import("/work/main/app/services/customers.server.ts");
const { OrderSchema } = await import("/work/main/app/schemas/order.ts");
const { db, tuneDatabase } = await import("/work/main/app/db.server.ts");
await tuneDatabase();
const user = await upsertLocalUser({ name: "B", email: "b@example.com" });
const N = Number(process.env.N ?? 1_000_000), M = Number(process.env.M ?? 200_000);
const r = await seedTenant(user.id, { customers: N, orders: 0, seed: 1, file: path.join(dir, "b.db") });
console.log("seeded", r);
{
  const Database = (await import("better-sqlite3")).default;
  const { newId } = await import("/work/main/app/lib/id.ts");
  const sq = new Database(path.join(dir, "b.db"));
  const ids = sq.prepare(`SELECT id FROM "Customer" WHERE userId = ?`).pluck().all(user.id) as string[];
  const io = sq.prepare(`INSERT INTO "Order" (id,userId,customerId,status,amountPaise,taxPaise,notes,createdAt,updatedAt) VALUES (?,?,?,?,?,?,?,?,?)`);
  const ii = sq.prepare(`INSERT INTO "OrderItem" (id,orderId,position,name,description,quantity,pricePaise) VALUES (?,?,?,?,?,?,?)`);
  const t0 = Date.now();
  sq.transaction(() => {
    for (let i = 0; i < M; i++) {
      const at = t0 - (M - i) * 60_000;
      const id = newId(new Date(at));
      io.run(id, user.id, ids[(i * 7919) % ids.length], i % 10 === 0 ? "Cancelled" : "Completed", 10000, 1800, "", at, at);
      ii.run(newId(new Date(at)), id, 0, "Tea", "", 1, 10000);
    }
  })();
  sq.close();
  console.log("orders inserted", M, Date.now() - t0, "ms");
}
async function time(label: string, fn: () => Promise<unknown>, n = 30) {
  const ts: number[] = [];
  for (let i = 0; i < n; i++) { const t = performance.now(); await fn(); ts.push(performance.now() - t); }
  ts.sort((a, b) => a - b);
  console.log(label.padEnd(40), "p50", ts[Math.floor(n / 2)].toFixed(1), "p99", ts[n - 1].toFixed(1), "ms");
}
const some = await db().order.findFirstOrThrow({ where: { userId: user.id }, include: { customer: true } });
await time("listOrders 50", () => orders.listOrders(user.id, { limit: 50 }));
const p1 = await orders.listOrders(user.id, { limit: 50 });
await time("listOrders 50 page 2", () => orders.listOrders(user.id, { limit: 50, cursor: p1.nextCursor! }));
await time(`listOrders q=${some.customer.firstName}`, () => orders.listOrders(user.id, { limit: 50, q: some.customer.firstName }), 5);
await time(`listOrders q=full name`, () => orders.listOrders(user.id, { limit: 50, q: `${some.customer.firstName} ${some.customer.lastName}` }), 5);
await time("listOrders q=id suffix", () => orders.listOrders(user.id, { limit: 50, q: some.id.slice(-6) }), 5);
await time("getOrder", () => orders.getOrder(user.id, some.id));
await time("picker q=''", () => listCustomers(user.id, { q: "", limit: 20 }));
await time(`picker q=${some.customer.lastName.slice(0, 4)}`, () => listCustomers(user.id, { q: some.customer.lastName.slice(0, 4), limit: 20 }));
await time("picker q=zzqx", () => listCustomers(user.id, { q: "zzqx", limit: 20 }));
const input = OrderSchema.parse({ customerId: some.customerId, items: [{ name: "A", quantity: 2, price: 10 }, { name: "B", quantity: 1, price: 5 }], tax: 1 });
await time("createOrder", () => orders.createOrder(user.id, input), 100);
