// The query parameters and bodies of the /api routes that have no schema module of their own. Each
// route validates with its schema from here, and the OpenAPI document
// (app/lib/openapi/document.server.ts) is made from the same objects, so the two cannot drift.
import { z } from "zod";
import { DELIVERY_LOG_STATUSES } from "~/lib/campaigns";
import { CUSTOMER_SORTS, SORT_ORDERS } from "~/lib/customers";
import { ID_PATTERN, isId } from "~/lib/id";
import { NOTIFICATION_FILTERS, NOTIFICATION_TYPES } from "~/lib/notifications";
import { SearchTermSchema } from "~/schemas/search";
import { RECEIPT_EVENTS } from "~/models/deliveries/receipts/rows";
import { listLimitSchema } from "~/schemas/list-limit";
import { BAD_CURSOR, SUPPRESSION_CURSOR, SuppressionEmailListSchema } from "~/services/suppressions.server";
import { parseRevenueCursor } from "~/services/attribution.server";

/** GET /api/campaigns (app/routes/api/campaigns.ts). */
export const CampaignListQuerySchema = z
  .object({
    limit: listLimitSchema(1000, 100),
    cursor: z.string().max(40).optional(),
    // Newest first (date, the default) or most revenue first (docs/rules.md#revenue-per-campaign);
    // a cursor belongs to the sort it was made for.
    sort: z.enum(["date", "revenue"], { message: "sort must be date or revenue" }).optional(),
    _t: z.string().optional(),
  })
  .superRefine((q, ctx) => {
    // Another sort's cursor, or text that is none, would read the first page again: a client paging
    // on would loop. A 400 instead, as /api/customers answers.
    if (q.cursor === undefined) return;
    const ok = q.sort === "revenue" ? parseRevenueCursor(q.cursor) !== null : isId(q.cursor);
    if (!ok) ctx.addIssue({ code: "custom", path: ["cursor"], message: BAD_CURSOR });
  });

/** GET /api/campaigns/{id}/logs (app/routes/api/campaigns-id-logs.ts). */
export const DeliveryLogQuerySchema = z.object({
  status: z
    .string()
    .trim()
    .toLowerCase()
    .pipe(z.enum(DELIVERY_LOG_STATUSES, { message: `status must be one of ${DELIVERY_LOG_STATUSES.join(", ")}` }))
    .optional(),
  limit: listLimitSchema(1000, 50),
  cursor: z.string().max(40, "cursor is not one this endpoint gave").optional(),
});

/** GET /api/customers (app/routes/api/customers.ts). */
export const CustomerListQuerySchema = z.object({
  q: SearchTermSchema.max(200, "q must be at most 200 characters").optional(),
  limit: listLimitSchema(),
  sort: z.enum(CUSTOMER_SORTS, { message: `sort must be one of ${CUSTOMER_SORTS.join(", ")}` }).optional(),
  order: z.enum(SORT_ORDERS, { message: `order must be ${SORT_ORDERS.join(" or ")}` }).optional(),
  cursor: z.string().max(1000, "cursor is not valid: pass the X-Next-Cursor of the previous page").optional(),
  _t: z.string().optional(),
});

/**
 * POST /api/customers/import (app/routes/api/customers-import.ts), besides the map.<field>
 * parameters (mappingFromForm in ~/lib/customer-csv).
 */
export const CustomerImportQuerySchema = z.object({
  createFields: z
    .enum(["true", "false"], { message: "createFields must be true or false" })
    .optional()
    .meta({ description: "true: make a text field of each column the import does not know, and import it" }),
});

/** GET /api/customers/export (app/routes/api/customers-export.ts). */
export const CustomerExportQuerySchema = z.object({ q: SearchTermSchema.optional() });

/** GET /api/notifications (app/routes/api/notifications.ts). */
export const NotificationListQuerySchema = z.object({
  type: z
    .string()
    .transform((t) => NOTIFICATION_FILTERS.find((f) => f.key === t)?.type ?? t)
    .pipe(z.enum(NOTIFICATION_TYPES, { message: `type must be one of ${NOTIFICATION_TYPES.join(", ")}` }))
    .optional(),
  limit: z.coerce.number().int().min(1).max(50).optional(),
});

/** GET /api/segments (app/routes/api/segments.ts). */
export const SegmentListQuerySchema = z.object({
  q: z.string().max(200, "q must be at most 200 characters").optional(),
  sort: z.enum(["name", "size", "date"], { message: "sort must be name, size or date" }).optional(),
  dir: z.enum(["asc", "desc"], { message: "dir must be asc or desc" }).optional(),
  limit: z.coerce.number().int().min(1, "limit must be at least 1").max(500, "limit must be at most 500").optional(),
});

/** POST /api/ai/message-suggestions (app/routes/api/ai-message-suggestions.ts). */
export const MessageSuggestionsInputSchema = z.object({
  campaignObjective: z
    .string({ message: "campaignObjective must be text" })
    .trim()
    .max(500, "campaignObjective must be at most 500 characters")
    .default(""),
  segmentId: z.string({ message: "segmentId is required" }).regex(ID_PATTERN, "segmentId must be a segment id"),
});

/**
 * POST /api/webhooks/delivery-receipts' body (app/services/sending/receipts-body.server.ts, which
 * parses it in the worker thread).
 */
/** The most receipts one request may carry. */
export const MAX_RECEIPTS = 5000;

export const ReceiptsBodySchema = z.object({
  receipts: z
    .array(
      z.object({
        id: z.string().max(64),
        event: z.enum(RECEIPT_EVENTS, { message: `event must be one of ${RECEIPT_EVENTS.join(", ")}` }),
        at: z.number().int().min(0).max(8_640_000_000_000_000),
        details: z.string().max(1000).optional(),
      }),
    )
    .max(MAX_RECEIPTS, "at most 5,000 receipts a request"),
});

/** GET /api/suppressions (app/routes/api/suppressions.ts). */
export const SuppressionListQuerySchema = z.object({
  q: SearchTermSchema.max(200, "q must be at most 200 characters").optional(),
  limit: listLimitSchema(),
  cursor: z.string().regex(SUPPRESSION_CURSOR, BAD_CURSOR).optional(),
  _t: z.string().optional(),
});

/** POST /api/suppressions (app/routes/api/suppressions.ts): 1 to 10,000 addresses, each valid (the message names the bad ones). */
export const SuppressionAddInputSchema = z.object({
  emails: SuppressionEmailListSchema,
});
