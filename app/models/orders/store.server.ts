// The orders' door: the one file other code imports the orders' functions from. Each runs the
// implementation of the engine DATABASE_URL names (~/db/engine.server).
import { engineDoor } from "~/db/engine.server";
import type { OrdersStore } from "./contract";
import { postgresOrders } from "./postgres.server";
import { sqliteOrders } from "./sqlite.server";

export const orders = engineDoor<OrdersStore>({ sqlite: sqliteOrders, postgres: postgresOrders });

export type {
  CustomerTotalsRow,
  OrderCustomerRow,
  OrderFields,
  OrderItemFields,
  OrderPageRows,
  OrderRow,
  OrderWithItemsRow,
  RecentOrderRow,
} from "./rows";
