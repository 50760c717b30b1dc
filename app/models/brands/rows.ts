// A tenant's brand as stored (Brand; docs/decisions/0043-templates-and-merge-tags.md).
import type { Prisma } from "~/generated/prisma/client";

/** One Brand row. */
export type BrandRow = Prisma.BrandGetPayload<object>;

/** What a tenant sets of their brand. */
export type BrandFields = Omit<BrandRow, "userId" | "updatedAt">;
