// GET /api/customers/{id}/story (app/routes/api/customers-id-story.ts): a page of the customer's
// story, newest first. The OpenAPI document describes the query with this object.
import { z } from "zod";
import { isStoryCursor } from "~/lib/customer-story";
import { DEFAULT_LIST_LIMIT, MAX_LIST_LIMIT } from "~/services/customers.server";

export const STORY_BAD_CURSOR = "cursor is not valid: pass the X-Next-Cursor of the previous page";

export const CustomerStoryQuerySchema = z.object({
  limit: z.coerce
    .number({ message: "limit must be a number" })
    .int("limit must be a whole number")
    .min(1, "limit must be at least 1")
    .max(MAX_LIST_LIMIT, `limit must be at most ${MAX_LIST_LIMIT}`)
    .default(DEFAULT_LIST_LIMIT),
  cursor: z.string().max(100, STORY_BAD_CURSOR).refine(isStoryCursor, STORY_BAD_CURSOR).optional(),
  _t: z.string().optional(),
});
