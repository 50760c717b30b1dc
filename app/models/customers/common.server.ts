// The customers' functions whose body is the same on both engines: the writes and counts through
// Prisma, which db() runs on whichever engine DATABASE_URL names. Both engine objects spread them.
import { db } from "~/db/prisma.server";
import { Prisma, type Customer } from "~/generated/prisma/client";
import type { CustomersStore } from "./contract";
import { DuplicateCustomerEmail, type CustomerRow } from "./rows";

function duplicateOr(error: unknown): unknown {
  return error instanceof Prisma.PrismaClientKnownRequestError && error.code === "P2002"
    ? new DuplicateCustomerEmail()
    : error;
}

function toRow(c: Customer): CustomerRow {
  return {
    ...c,
    lastActive: c.lastActive === null ? null : c.lastActive.getTime(),
    createdAt: c.createdAt.getTime(),
    updatedAt: c.updatedAt.getTime(),
  };
}

export const commonCustomers = {
  async insertCustomer(id, userId, fields, tx = db()) {
    try {
      return toRow(await tx.customer.create({ data: { id, userId, ...fields } }));
    } catch (error) {
      throw duplicateOr(error);
    }
  },

  async customerBelongsToUser(userId, id, tx = db()) {
    const row = await tx.customer.findFirst({ where: { id, userId }, select: { id: true } });
    return row !== null;
  },

  async updateCustomerRow(id, fields, tx = db()) {
    try {
      return toRow(await tx.customer.update({ where: { id }, data: fields }));
    } catch (error) {
      throw duplicateOr(error);
    }
  },

  async deleteOrdersOfCustomer(userId, customerId, tx = db()) {
    const orders = await tx.order.deleteMany({ where: { userId, customerId } });
    return orders.count;
  },

  async deleteCustomerRow(userId, id, tx = db()) {
    return (await tx.customer.deleteMany({ where: { id, userId } })).count === 1;
  },

  async countOrdersOfCustomer(userId, customerId) {
    return db().order.count({ where: { userId, customerId } });
  },

  async addToNewCustomerCount(userId, n) {
    const user = await db().user.update({
      where: { id: userId },
      data: { newCustomersSinceNotice: { increment: n } },
      select: { newCustomersSinceNotice: true },
    });
    return user.newCustomersSinceNotice;
  },

  async resetNewCustomerCount(userId) {
    await db().user.update({ where: { id: userId }, data: { newCustomersSinceNotice: 0 } });
  },
} satisfies Partial<CustomersStore>;
