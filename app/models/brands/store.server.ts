// The brands' model: Prisma's calls, one body for both engines (as app/models/templates/). One row
// per tenant, made on the first save.
import { db } from "~/db/prisma.server";
import type { BrandsStore } from "./contract";

export const brands: BrandsStore = {
  async findBrand(userId) {
    return (await db().brand.findUnique({ where: { userId } })) ?? undefined;
  },

  async saveBrand(userId, fields) {
    return db().brand.upsert({ where: { userId }, create: { userId, ...fields }, update: fields });
  },
};
