// Query parameters of GET /api/orders (list paging: docs/rules.md#lists-and-paging).
import { SearchTermSchema } from "~/schemas/search";
import { z } from "zod";
import { ID_PATTERN } from "~/lib/id";

export const OrderListQuerySchema = z.object({
  q: SearchTermSchema.trim().max(200, "q must be at most 200 characters").optional(),
  limit: z.coerce
    .number({ error: "limit must be a number" })
    .int("limit must be a whole number")
    .min(1, "limit must be between 1 and 1000")
    .max(1000, "limit must be between 1 and 1000")
    .default(100),
  cursor: z
    .string()
    .trim()
    .toLowerCase()
    .regex(ID_PATTERN, "cursor is not valid")
    .optional()
    .or(z.literal("").transform(() => undefined)),
});
