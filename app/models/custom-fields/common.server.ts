// The custom fields' Prisma calls, one body for both engines (db() is PostgreSQL's client there).
// Only the read of one customer's values, on every customer detail, is each engine's own.
import { db } from "~/db/prisma.server";
import { isUniqueViolation } from "~/db/unique-violation.server";
import type { Prisma } from "~/generated/prisma/client";
import { newId } from "~/lib/id";
import { inTransaction, type Tx } from "~/models/transaction/store.server";
import type { CustomFieldsStore } from "./contract";
import { DuplicateFieldName } from "./rows";

/** The tenant's fields in their order: by position, then as they were made. */
const FIELD_ORDER = [{ position: "asc" }, { createdAt: "asc" }] satisfies Prisma.CustomFieldOrderByWithRelationInput[];

/** The tenant's field of this name, or undefined. */
async function fieldNamed(userId: string, name: string) {
  return (await db().customField.findUnique({ where: { userId_name: { userId, name } } })) ?? undefined;
}

export const commonCustomFields = {
  async listFields(userId) {
    return db().customField.findMany({ where: { userId }, orderBy: FIELD_ORDER });
  },

  async findField(userId, name) {
    return fieldNamed(userId, name);
  },

  async createField(userId, field) {
    try {
      return await db().$transaction(async (tx) => {
        const last = await tx.customField.aggregate({ where: { userId }, _max: { position: true } });
        return tx.customField.create({
          data: {
            id: newId(),
            userId,
            name: field.name,
            label: field.label,
            type: field.type,
            choices: JSON.stringify(field.choices),
            defaultValue: field.defaultValue,
            position: (last._max.position ?? 0) + 1,
          },
        });
      });
    } catch (error) {
      if (isUniqueViolation(error)) throw new DuplicateFieldName(field.name);
      throw error;
    }
  },

  async updateField(userId, name, change) {
    const data: Prisma.CustomFieldUpdateManyMutationInput = {};
    if (change.label !== undefined) data.label = change.label;
    if (change.choices !== undefined) data.choices = JSON.stringify(change.choices);
    if (change.defaultValue !== undefined) data.defaultValue = change.defaultValue;
    if (change.retired !== undefined) data.retiredAt = change.retired ? new Date() : null;
    const { count } = await db().customField.updateMany({ where: { userId, name }, data });
    if (count === 0) return undefined;
    return fieldNamed(userId, name);
  },

  async orderFields(userId, names) {
    await db().$transaction(async (tx) => {
      const fields = await tx.customField.findMany({
        where: { userId },
        orderBy: FIELD_ORDER,
        select: { name: true },
      });
      const known = new Set(fields.map((f) => f.name));
      const first = names.filter((n) => known.has(n));
      const order = [...new Set(first), ...fields.map((f) => f.name).filter((n) => !first.includes(n))];
      for (let i = 0; i < order.length; i++) {
        await tx.customField.updateMany({ where: { userId, name: order[i] }, data: { position: i + 1 } });
      }
    });
  },

  async deleteField(userId, name) {
    return db().$transaction(async (tx) => {
      const { count } = await tx.customField.deleteMany({ where: { userId, name } });
      if (count === 0) return false;
      await tx.customerFieldValue.deleteMany({ where: { userId, name } });
      return true;
    });
  },

  async countValues(userId, name) {
    return db().customerFieldValue.count({ where: { userId, name } });
  },

  async readValuesOfCustomers(userId, customerIds) {
    if (customerIds.length === 0) return [];
    return db().customerFieldValue.findMany({
      where: { userId, customerId: { in: [...customerIds] } },
      select: { customerId: true, name: true, value: true },
    });
  },

  async writeCustomerValues(userId, customerId, writes, tx?: Tx) {
    // Nothing to write takes no transaction.
    if (writes.set.length + writes.clear.length === 0) return;
    const work = async (t: Tx) => {
      if (writes.clear.length > 0) {
        await t.customerFieldValue.deleteMany({ where: { userId, customerId, name: { in: writes.clear } } });
      }
      for (const { name, stored } of writes.set) {
        const data = { value: stored.value, textKey: stored.textKey, numberValue: stored.numberValue };
        await t.customerFieldValue.upsert({
          where: { customerId_name: { customerId, name } },
          create: { userId, customerId, name, ...data },
          update: data,
        });
      }
    };
    await inTransaction(tx, work);
  },
} satisfies Omit<CustomFieldsStore, "readCustomerValues">;
