// What the brands domain offers (the door: ./store.server.ts): a tenant's brand read and kept. What
// a brand may hold, and its defaults when none is kept, are the service's: app/services/brand.server.ts.
import type { BrandFields, BrandRow } from "./rows";

export type BrandsStore = {
  /** The tenant's brand, or undefined when they never set one. */
  findBrand(userId: string): Promise<BrandRow | undefined>;
  /** Keeps the tenant's brand (made or replaced whole). */
  saveBrand(userId: string, fields: BrandFields): Promise<BrandRow>;
};
