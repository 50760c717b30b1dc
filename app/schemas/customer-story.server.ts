// GET /api/customers/{id}/story (app/routes/api/customers-id-story.ts): a page of the customer's
// story, newest first. The OpenAPI document describes the query with this object.
import { z } from "zod";
import { isStoryCursor } from "~/lib/customer-story";
import { listLimitSchema } from "~/schemas/list-limit";

export const STORY_BAD_CURSOR = "cursor is not valid: pass the X-Next-Cursor of the previous page";

export const CustomerStoryQuerySchema = z.object({
  limit: listLimitSchema(),
  cursor: z.string().max(100, STORY_BAD_CURSOR).refine(isStoryCursor, STORY_BAD_CURSOR).optional(),
  _t: z.string().optional(),
});
