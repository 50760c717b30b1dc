// The OpenAPI 3.1 document of /api, served at GET /api/openapi.json. Request bodies, query
// parameters and headers are converted from the zod schemas the routes validate with
// (z.toJSONSchema, input side); answers from the schemas of app/lib/openapi/answers.ts (output
// side); errors from ApiError itself. tests/routes/openapi.test.ts checks the document against the
// route table and validates real answers against it.
import { z } from "zod";
import { ApiError, type ApiErrorCode } from "~/lib/api.server";
import { IMPORT_FIELDS } from "~/lib/customer-csv";
import * as A from "~/lib/openapi/answers";
import {
  CampaignListQuerySchema,
  CustomerExportQuerySchema,
  CustomerListQuerySchema,
  DeliveryLogQuerySchema,
  MessageSuggestionsInputSchema,
  NotificationListQuerySchema,
  ReceiptsBodySchema,
  SegmentListQuerySchema,
  SuppressionAddInputSchema,
  SuppressionListQuerySchema,
} from "~/schemas/api-inputs.server";
import { CampaignApiHeadersSchema, CampaignApiSchema } from "~/schemas/campaign";
import { ResendNonOpenersSchema } from "~/schemas/campaign-resend";
import { CustomerApiSchema } from "~/schemas/customer";
import { CustomerStoryQuerySchema } from "~/schemas/customer-story.server";
import { OrderSchema, OrderUpdateSchema } from "~/schemas/order";
import { OrderListQuerySchema } from "~/schemas/order-api";
import { ProfileSchema } from "~/schemas/profile";
import { AudienceQuerySchema, PreviewInputSchema, SegmentInputSchema } from "~/schemas/segment";
import { SIGNATURE_HEADER } from "~/services/delivery/receipt-signature.server";
import { SendgridEventsSchema } from "~/schemas/feedback-webhooks";
import {
  REPLAY_WINDOW_SECONDS,
  SENDGRID_SIGNATURE_HEADER,
  SENDGRID_TIMESTAMP_HEADER,
} from "~/services/feedback/sendgrid.server";
import { sessionStorage } from "~/services/session.server";

type Json = Record<string, unknown>;
export type HttpMethod = "get" | "post" | "put" | "patch" | "delete";
export const HTTP_METHODS: readonly HttpMethod[] = ["get", "post", "put", "patch", "delete"];

/** Request bodies, converted from the input side of the routes' own schemas. */
const INPUTS = {
  OrderInput: OrderSchema,
  OrderUpdateInput: OrderUpdateSchema,
  CustomerInput: CustomerApiSchema,
  SegmentInput: SegmentInputSchema,
  SegmentPreviewInput: PreviewInputSchema,
  CampaignInput: CampaignApiSchema,
  ResendNonOpenersInput: ResendNonOpenersSchema,
  ProfileInput: ProfileSchema,
  MessageSuggestionsInput: MessageSuggestionsInputSchema,
  DeliveryReceipts: ReceiptsBodySchema,
  SendgridEvents: SendgridEventsSchema,
  SuppressionsInput: SuppressionAddInputSchema,
} satisfies Record<string, z.ZodType>;

/** Answers, converted from the output side. */
const ANSWERS = {
  ApiError: A.ApiErrorSchema,
  Success: A.SuccessSchema,
  SuccessMessage: A.SuccessMessageSchema,
  PublicUser: A.PublicUserSchema,
  CurrentUser: A.CurrentUserSchema,
  Profile: A.ProfileAnswerSchema,
  Notification: A.NotificationSchema,
  NotificationList: A.NotificationListSchema,
  ReadAll: A.ReadAllSchema,
  Order: A.OrderAnswerSchema,
  Customer: A.CustomerAnswerSchema,
  CustomerDetail: A.CustomerDetailSchema,
  CustomerDeleted: A.CustomerDeletedSchema,
  CustomerStoryEntry: A.CustomerStoryEntrySchema,
  ImportResult: A.ImportResultSchema,
  Segment: A.SegmentAnswerSchema,
  SegmentWithCount: A.SegmentWithCountSchema,
  SavedSegment: A.SavedSegmentSchema,
  SegmentDeleted: A.SegmentDeletedSchema,
  AudienceCustomer: A.AudienceCustomerSchema,
  AudienceCount: A.AudienceCountSchema,
  AudiencePreview: A.AudiencePreviewSchema,
  Campaign: A.CampaignAnswerSchema,
  CampaignDetail: A.CampaignDetailSchema,
  CampaignWrapped: A.CampaignWrappedSchema,
  DeliveryLog: A.DeliveryLogSchema,
  CampaignLink: A.CampaignLinkSchema,
  ControlResult: A.ControlResultSchema,
  MessageSuggestions: A.SuggestionsSchema,
  Insights: A.InsightsSchema,
  HistoricalStats: A.HistoricalStatsSchema,
  ReceiptsAccepted: A.ReceiptsAcceptedSchema,
  FeedbackReceived: A.FeedbackReceivedSchema,
  Suppression: A.SuppressionAnswerSchema,
  SuppressionsAdded: A.SuppressionsAddedSchema,
  SuppressionImportResult: A.SuppressionImportResultSchema,
} satisfies Record<string, z.ZodType>;

type AnswerName = keyof typeof ANSWERS;
type InputName = keyof typeof INPUTS;

const ref = (name: AnswerName | InputName) => ({ $ref: `#/components/schemas/${name}` });

/**
 * Where a key of an input object may be left out, say so whatever the converter guessed: a key is
 * optional exactly when the schema accepts it missing (a default, a preprocess that fills it in).
 */
function inputOverride({ zodSchema, jsonSchema }: { zodSchema: z.core.$ZodType; jsonSchema: Json }) {
  const def = zodSchema._zod.def;
  if (def.type !== "object") return;
  const shape = (def as unknown as { shape: Record<string, z.ZodType> }).shape;
  const required = Object.keys(shape).filter((key) => !shape[key].safeParse(undefined).success);
  if (required.length > 0) jsonSchema.required = required;
  else delete jsonSchema.required;
}

function convert(schemas: Record<string, z.ZodType>, io: "input" | "output"): Record<string, Json> {
  const registry = z.registry<{ id: string }>();
  for (const [id, schema] of Object.entries(schemas)) registry.add(schema, { id });
  const { schemas: out } = z.toJSONSchema(registry, {
    io,
    target: "draft-2020-12",
    unrepresentable: "any",
    uri: (id) => `#/components/schemas/${id}`,
    override: io === "input" ? (ctx) => inputOverride(ctx as never) : undefined,
  }) as { schemas: Record<string, Json> };
  for (const schema of Object.values(out)) {
    delete schema.$schema;
    delete schema.$id;
  }
  return out;
}

/** One parameter's schema, from the input side of a field of the route's schema. */
function fieldSchema(schema: z.ZodType): Json {
  const json = z.toJSONSchema(schema, {
    io: "input",
    target: "draft-2020-12",
    unrepresentable: "any",
    override: (ctx) => inputOverride(ctx as never),
  }) as Json;
  delete json.$schema;
  return json;
}

function parametersOf(schema: z.ZodObject, where: "query" | "header"): Json[] {
  return Object.entries(schema.shape as Record<string, z.ZodType>).map(([name, field]) => {
    const json = fieldSchema(field);
    const { description, ...rest } = json;
    return {
      name,
      in: where,
      required: !field.safeParse(undefined).success,
      ...(description ? { description } : {}),
      schema: rest,
    };
  });
}

// --- errors ---------------------------------------------------------------------------------

const ERROR_RESPONSE_NAMES: Record<ApiErrorCode, string> = {
  bad_request: "BadRequest",
  unauthorized: "Unauthorized",
  forbidden: "Forbidden",
  not_found: "NotFound",
  method_not_allowed: "MethodNotAllowed",
  conflict: "Conflict",
  payload_too_large: "PayloadTooLarge",
  unprocessable: "Unprocessable",
  rate_limited: "TooManyRequests",
  internal: "InternalError",
  unavailable: "ServiceUnavailable",
};

const ERROR_DESCRIPTIONS: Record<ApiErrorCode, string> = {
  bad_request: "The request was refused: a field, a query parameter or the body is not valid (see error.fields)",
  unauthorized: "No valid credentials: not signed in, or the token or session expired or was ended",
  forbidden: "A write carried by the session cookie that did not come from this site's own pages",
  not_found: "No such record for the caller (another tenant's record, or a malformed id, is the same 404)",
  method_not_allowed: "The path does not take this method (the Allow header names the one it takes)",
  conflict: "The record's state does not allow this now",
  payload_too_large: "The body is larger than this endpoint takes",
  unprocessable: "Well-formed, but it cannot be done (e.g. a segment with no customers)",
  rate_limited: "Too many requests: wait and try again",
  internal: "Something went wrong on the server; the message says nothing more",
  unavailable:
    "The database cannot be reached right now (GET /healthz says so too); nothing was done. Try again after the Retry-After header's seconds",
};

/** The status of each error code, read from ApiError so the two cannot differ. */
export const ERROR_STATUS = Object.fromEntries(
  A.API_ERROR_CODES.map((code) => [code, new ApiError(code, "").status]),
) as Record<ApiErrorCode, number>;

function errorResponses(): Record<string, Json> {
  return Object.fromEntries(
    A.API_ERROR_CODES.map((code) => [
      ERROR_RESPONSE_NAMES[code],
      {
        description: ERROR_DESCRIPTIONS[code],
        headers: {
          "X-User-Id": { $ref: "#/components/headers/X-User-Id" },
          ...(code === "unavailable" ? { "Retry-After": { $ref: "#/components/headers/Retry-After" } } : {}),
        },
        content: {
          "application/json": {
            schema: {
              allOf: [
                ref("ApiError"),
                { type: "object", properties: { error: { type: "object", properties: { code: { const: code } } } } },
              ],
            },
          },
        },
      },
    ]),
  );
}

const codeOfStatus = (status: number) => A.API_ERROR_CODES.find((code) => ERROR_STATUS[code] === status);

// --- operations -----------------------------------------------------------------------------

type Auth = "user" | "optional" | "none" | "signature";
type Answer = {
  description: string;
  /** A JSON answer: a component, or a list of one. */
  json?: AnswerName | [AnswerName];
  /** Another media type (its schema: any). */
  media?: string;
  headers?: string[];
};

type Operation = {
  path: string;
  method: HttpMethod;
  operationId: string;
  summary: string;
  description?: string;
  tag: string;
  auth?: Auth;
  query?: z.ZodObject;
  headers?: z.ZodObject;
  extraParameters?: Json[];
  body?: InputName | { media: string; description: string };
  answers: Record<number, Answer>;
  /** The error statuses besides the ones every operation of its kind has. */
  errors?: number[];
  /** Answers without the database (so never 503). */
  withoutDatabase?: true;
};

const ID_PARAMETER_DESCRIPTION =
  "A record id (24 lowercase hexadecimal characters); another tenant's id, or a malformed one, is a 404";

const CAMPAIGN_CONTROLS = ["pause", "resume", "cancel", "retry-failed"] as const;

const pagedHeaders = ["X-Total-Count", "X-Next-Cursor"];

/** A PUT and, since the route treats PATCH the same, its PATCH twin. */
function putAndPatch(operation: Omit<Operation, "method">): Operation[] {
  return [
    { ...operation, method: "put" },
    {
      ...operation,
      method: "patch",
      operationId: `${operation.operationId}Patch`,
      summary: `${operation.summary} (PATCH takes the same full body as PUT)`,
    },
  ];
}

const OPERATIONS: Operation[] = [
  {
    path: "/api/openapi.json",
    method: "get",
    operationId: "getOpenApiDocument",
    summary: "This document",
    tag: "Meta",
    auth: "none",
    withoutDatabase: true,
    answers: { 200: { description: "The OpenAPI 3.1 document of /api", media: "application/json" } },
  },
  // Sign-in
  ...(["get", "post"] as const).map((method): Operation => ({
    path: "/api/auth/google",
    method,
    operationId: method === "get" ? "startGoogleSignIn" : "startGoogleSignInPost",
    summary: "Starts Google sign-in: redirects the browser to Google's consent screen",
    tag: "Auth",
    auth: "none",
    answers: {
      302: { description: "To Google, or to /login?error=access_denied when Google sign-in is off" },
      429: { description: "Too many sign-in attempts from this address", media: "text/plain" },
    },
    errors: [],
  })),
  {
    path: "/api/auth/google/callback",
    method: "get",
    operationId: "googleSignInCallback",
    summary: "Where Google sends the browser back: opens a session and redirects to /auth/callback?token=…",
    tag: "Auth",
    auth: "none",
    answers: { 302: { description: "To /auth/callback with a token, or to /login with an error" } },
    errors: [],
  },
  {
    path: "/api/auth/current_user",
    method: "get",
    operationId: "getCurrentUser",
    summary: "Who is signed in",
    description: "No credentials at all is a plain { isAuthenticated: false }; a bad or ended one is a 401.",
    tag: "Auth",
    auth: "optional",
    answers: { 200: { description: "The caller", json: "CurrentUser", headers: ["X-User-Id"] } },
  },
  {
    path: "/api/auth/logout",
    method: "post",
    operationId: "logout",
    summary: "Ends the caller's sessions on every device and clears the cookie",
    tag: "Auth",
    auth: "optional",
    answers: { 200: { description: "Logged out (also when no session was open)", json: "SuccessMessage" } },
    errors: [403],
  },
  {
    path: "/api/auth/profile",
    method: "get",
    operationId: "getProfile",
    summary: "The six profile fields of the caller",
    tag: "Auth",
    answers: { 200: { description: "The profile", json: "Profile" } },
  },
  ...putAndPatch({
    path: "/api/auth/profile",
    operationId: "updateProfile",
    summary: "Changes the caller's profile",
    tag: "Auth",
    body: "ProfileInput",
    answers: { 200: { description: "The updated user", json: "PublicUser" } },
    errors: [400, 413],
  }),
  {
    path: "/api/users/{id}",
    method: "get",
    operationId: "getUser",
    summary: "The caller's own user (any other id is a 404)",
    tag: "Auth",
    answers: { 200: { description: "The user", json: "PublicUser" } },
    errors: [404],
  },
  ...putAndPatch({
    path: "/api/users/{id}",
    operationId: "updateUser",
    summary: "Changes the caller's profile (the fallback of PUT /api/auth/profile)",
    tag: "Auth",
    body: "ProfileInput",
    answers: { 200: { description: "The updated user", json: "PublicUser" } },
    errors: [400, 404, 413],
  }),
  // Notifications
  {
    path: "/api/notifications",
    method: "get",
    operationId: "listNotifications",
    summary: "The caller's notifications, newest first (at most 50), and the unread count",
    tag: "Notifications",
    query: NotificationListQuerySchema,
    answers: { 200: { description: "Notifications", json: "NotificationList" } },
    errors: [400],
  },
  ...(["put", "post"] as const).map((method): Operation => ({
    path: "/api/notifications/read-all",
    method,
    operationId: method === "put" ? "markAllNotificationsRead" : "markAllNotificationsReadPost",
    summary: "Marks every notification of the caller read",
    tag: "Notifications",
    answers: { 200: { description: "How many were unread", json: "ReadAll" } },
  })),
  {
    path: "/api/notifications/stream",
    method: "get",
    operationId: "streamNotifications",
    summary: "Server-Sent Events: `event: notification` with { kind, notification } as data",
    tag: "Notifications",
    answers: { 200: { description: "An event stream", media: "text/event-stream", headers: ["X-User-Id"] } },
  },
  {
    path: "/api/notifications/{id}",
    method: "delete",
    operationId: "deleteNotification",
    summary: "Removes one of the caller's notifications",
    tag: "Notifications",
    answers: { 200: { description: "Removed", json: "Success" } },
    errors: [404],
  },
  ...(["put", "post"] as const).map((method): Operation => ({
    path: "/api/notifications/{id}/read",
    method,
    operationId: method === "put" ? "markNotificationRead" : "markNotificationReadPost",
    summary: "Marks one of the caller's notifications read",
    tag: "Notifications",
    answers: { 200: { description: "Marked", json: "Success" } },
    errors: [404],
  })),
  // Orders
  {
    path: "/api/orders",
    method: "get",
    operationId: "listOrders",
    summary: "A page of the caller's orders, newest first",
    tag: "Orders",
    query: OrderListQuerySchema,
    answers: { 200: { description: "Orders", json: ["Order"], headers: pagedHeaders } },
    errors: [400],
  },
  {
    path: "/api/orders",
    method: "post",
    operationId: "createOrder",
    summary: "Creates an order; the server computes the amounts from the items",
    tag: "Orders",
    body: "OrderInput",
    answers: { 201: { description: "The order", json: "Order", headers: ["Location"] } },
    errors: [400, 404, 413],
  },
  {
    path: "/api/orders/{id}",
    method: "get",
    operationId: "getOrder",
    summary: "One of the caller's orders",
    tag: "Orders",
    answers: { 200: { description: "The order", json: "Order" } },
    errors: [404],
  },
  ...putAndPatch({
    path: "/api/orders/{id}",
    operationId: "updateOrder",
    summary: "Replaces an order's status, notes, tax and items (the customer cannot change)",
    tag: "Orders",
    body: "OrderUpdateInput",
    answers: { 200: { description: "The order", json: "Order" } },
    errors: [400, 404, 413],
  }),
  {
    path: "/api/orders/{id}",
    method: "delete",
    operationId: "deleteOrder",
    summary: "Deletes an order",
    tag: "Orders",
    answers: { 200: { description: "Deleted", json: "SuccessMessage" } },
    errors: [404],
  },
  // Customers
  {
    path: "/api/customers",
    method: "get",
    operationId: "listCustomers",
    summary: "A page of the caller's customers",
    description:
      "Newest first unless sort and order say otherwise. With q, X-Total-Count counts up to 1000 and X-Total-Count-Capped: true says there are more.",
    tag: "Customers",
    query: CustomerListQuerySchema,
    answers: {
      200: { description: "Customers", json: ["Customer"], headers: [...pagedHeaders, "X-Total-Count-Capped"] },
    },
    errors: [400],
  },
  {
    path: "/api/customers",
    method: "post",
    operationId: "createCustomer",
    summary: "Creates a customer (a duplicate e-mail is a 409)",
    tag: "Customers",
    body: "CustomerInput",
    answers: { 201: { description: "The customer", json: "Customer", headers: ["Location"] } },
    errors: [400, 409, 413],
  },
  {
    path: "/api/customers/import",
    method: "post",
    operationId: "importCustomers",
    summary: "Imports a CSV file (the body), upserting on e-mail",
    description:
      "Columns are guessed from the header row; map.<field>=<0-based column> overrides the guess. Bad rows are listed with their line and reason; a malformed file is a 422 and writes nothing.",
    tag: "Customers",
    extraParameters: IMPORT_FIELDS.map((field) => ({
      name: `map.${field}`,
      in: "query",
      required: false,
      description: `The 0-based column that holds ${field}`,
      schema: { type: "integer", minimum: 0 },
    })),
    body: { media: "text/csv", description: "The CSV file: a header row, then one customer a line" },
    answers: { 200: { description: "What was imported", json: "ImportResult" } },
    errors: [400, 413, 422],
  },
  {
    path: "/api/customers/export",
    method: "get",
    operationId: "exportCustomers",
    summary: "The caller's customers (all, or those matching q) as a CSV download",
    tag: "Customers",
    query: CustomerExportQuerySchema,
    answers: { 200: { description: "A CSV file", media: "text/csv" } },
    errors: [400],
  },
  {
    path: "/api/customers/{id}",
    method: "get",
    operationId: "getCustomer",
    summary: "A customer with their segments and recent orders",
    tag: "Customers",
    answers: { 200: { description: "The customer", json: "CustomerDetail" } },
    errors: [404],
  },
  {
    path: "/api/customers/{id}/story",
    method: "get",
    operationId: "getCustomerStory",
    summary: "A page of the customer's story, newest first",
    description:
      "Each campaign the customer was sent and what came of it, their opens and clicks (people's; a message only machines loaded, such as a mail privacy proxy, is machine-opened), bounces and complaints, and what happened to their address on the suppression list.",
    tag: "Customers",
    query: CustomerStoryQuerySchema,
    answers: { 200: { description: "Entries", json: ["CustomerStoryEntry"], headers: ["X-Next-Cursor"] } },
    errors: [400, 404],
  },
  ...putAndPatch({
    path: "/api/customers/{id}",
    operationId: "updateCustomer",
    summary: "Replaces a customer's fields (the same body as POST)",
    tag: "Customers",
    body: "CustomerInput",
    answers: { 200: { description: "The customer", json: "Customer" } },
    errors: [400, 404, 409, 413],
  }),
  {
    path: "/api/customers/{id}",
    method: "delete",
    operationId: "deleteCustomer",
    summary: "Deletes a customer and their orders",
    tag: "Customers",
    answers: { 200: { description: "Deleted", json: "CustomerDeleted" } },
    errors: [404],
  },
  // Suppressions
  {
    path: "/api/suppressions",
    method: "get",
    operationId: "listSuppressions",
    summary: "A page of the caller's suppression list (addresses that get no campaign e-mail), newest first",
    description: "q keeps the addresses containing it (without case).",
    tag: "Suppressions",
    query: SuppressionListQuerySchema,
    answers: { 200: { description: "Suppressed addresses", json: ["Suppression"], headers: pagedHeaders } },
    errors: [400],
  },
  {
    path: "/api/suppressions",
    method: "post",
    operationId: "addSuppressions",
    summary: "Suppresses 1 to 10,000 addresses (reason: manual)",
    description:
      "Addresses are checked as a customer's e-mail is, trimmed, lower-cased and de-duplicated. One that is not an address refuses the request (400, naming it) and adds nothing; one on the list already stays as it was.",
    tag: "Suppressions",
    body: "SuppressionsInput",
    answers: { 200: { description: "What was added", json: "SuppressionsAdded" } },
    errors: [400, 413],
  },
  {
    path: "/api/suppressions/import",
    method: "post",
    operationId: "importSuppressions",
    summary: "Imports a CSV file (the body) of addresses to suppress",
    description:
      "The header row names the address column: email, Email Address (Mailchimp), e-mail, … (without case). A reason column (unsubscribed, hard-bounced, complained, manual or their labels) and a campaign column are read when present. Bad rows are listed with their line; a malformed file (no email column, not CSV) is a 422 and writes nothing.",
    tag: "Suppressions",
    body: { media: "text/csv", description: "The CSV file: a header row, then one address a line" },
    answers: { 200: { description: "What was imported", json: "SuppressionImportResult" } },
    errors: [400, 413, 422],
  },
  {
    path: "/api/suppressions/export",
    method: "get",
    operationId: "exportSuppressions",
    summary: "The caller's whole suppression list as a CSV download: email, reason, campaign, created_at",
    tag: "Suppressions",
    answers: { 200: { description: "A CSV file", media: "text/csv" } },
  },
  {
    path: "/api/suppressions/{email}",
    method: "get",
    operationId: "getSuppression",
    summary: "One address's entry on the caller's suppression list",
    tag: "Suppressions",
    answers: { 200: { description: "The entry", json: "Suppression" } },
    errors: [404],
  },
  {
    path: "/api/suppressions/{email}",
    method: "delete",
    operationId: "deleteSuppression",
    summary:
      "Takes an address off the suppression list (it gets campaigns again); the history keeps the resubscription",
    tag: "Suppressions",
    answers: { 200: { description: "Removed", json: "SuccessMessage" } },
    errors: [404],
  },
  // Segments
  {
    path: "/api/segments",
    method: "get",
    operationId: "listSegments",
    summary: "The caller's segments with their audience sizes",
    tag: "Segments",
    query: SegmentListQuerySchema,
    answers: { 200: { description: "Segments", json: ["SegmentWithCount"] } },
    errors: [400],
  },
  {
    path: "/api/segments",
    method: "post",
    operationId: "createSegment",
    summary: "Creates a segment",
    tag: "Segments",
    body: "SegmentInput",
    answers: { 201: { description: "The segment", json: "SavedSegment" } },
    errors: [400, 413],
  },
  {
    path: "/api/segments/preview",
    method: "post",
    operationId: "previewSegment",
    summary: "Counts an unsaved rule set's customers and shows up to 10 of them",
    tag: "Segments",
    body: "SegmentPreviewInput",
    answers: { 200: { description: "The audience", json: "AudiencePreview" } },
    errors: [400, 413],
  },
  {
    path: "/api/segments/{id}",
    method: "get",
    operationId: "getSegment",
    summary: "A segment with its audience size",
    tag: "Segments",
    answers: { 200: { description: "The segment", json: "SegmentWithCount" } },
    errors: [404],
  },
  {
    path: "/api/segments/{id}",
    method: "put",
    operationId: "updateSegment",
    summary: "Replaces a segment's name, description and conditions",
    tag: "Segments",
    body: "SegmentInput",
    answers: { 200: { description: "The segment", json: "SavedSegment" } },
    errors: [400, 404, 413],
  },
  {
    path: "/api/segments/{id}",
    method: "delete",
    operationId: "deleteSegment",
    summary: "Deletes a segment; draft campaigns that used it lose it (named in warnings)",
    tag: "Segments",
    answers: { 200: { description: "Deleted", json: "SegmentDeleted" } },
    errors: [404],
  },
  {
    path: "/api/segments/{id}/audience-count",
    method: "get",
    operationId: "countSegmentAudience",
    summary: "How many customers the segment holds",
    tag: "Segments",
    answers: { 200: { description: "The count", json: "AudienceCount" } },
    errors: [404],
  },
  {
    path: "/api/segments/{id}/audience",
    method: "get",
    operationId: "listSegmentAudience",
    summary: "A page of the segment's customers in creation order",
    tag: "Segments",
    query: AudienceQuerySchema,
    answers: { 200: { description: "Customers", json: ["AudienceCustomer"], headers: ["X-Next-Cursor"] } },
    errors: [400, 404],
  },
  // Campaigns
  {
    path: "/api/campaigns",
    method: "get",
    operationId: "listCampaigns",
    summary: "A page of the caller's campaigns, newest first",
    description:
      "sort=revenue: most revenue first (orders within ATTRIBUTION_WINDOW_DAYS after a recipient's first click, last touch; each campaign's figures are in GET /api/campaigns/{id}). A cursor belongs to the sort it was made for.",
    tag: "Campaigns",
    query: CampaignListQuerySchema,
    answers: { 200: { description: "Campaigns", json: ["Campaign"], headers: pagedHeaders } },
    errors: [400],
  },
  {
    path: "/api/campaigns",
    method: "post",
    operationId: "createCampaign",
    summary: "Launches a campaign to a segment, or saves a draft (status: Draft)",
    description:
      "The server counts the audience and stamps the launch; a segment with no customers is a 422. With an Idempotency-Key, the same key and body answer the first request's campaign (Idempotent-Replayed: true) and never send twice; the same key with another body is a 422.",
    tag: "Campaigns",
    headers: CampaignApiHeadersSchema,
    body: "CampaignInput",
    answers: {
      201: { description: "The campaign", json: "Campaign", headers: ["Location", "Idempotent-Replayed"] },
    },
    errors: [400, 404, 409, 413, 422],
  },
  {
    path: "/api/campaigns/{id}",
    method: "get",
    operationId: "getCampaign",
    summary: "A campaign with its delivery figures, the revenue it brought (attribution) and the first page of its log",
    tag: "Campaigns",
    answers: { 200: { description: "The campaign", json: "CampaignDetail" } },
    errors: [404],
  },
  {
    path: "/api/campaigns/{id}",
    method: "put",
    operationId: "updateCampaign",
    summary: "Changes a draft, or launches it when status is not Draft",
    tag: "Campaigns",
    body: "CampaignInput",
    answers: { 200: { description: "The campaign", json: "CampaignWrapped" } },
    errors: [400, 404, 409, 413, 422],
  },
  {
    path: "/api/campaigns/{id}",
    method: "delete",
    operationId: "deleteCampaign",
    summary: "Deletes a campaign and its log (a sending campaign is cancelled first)",
    tag: "Campaigns",
    answers: { 200: { description: "Deleted", json: "SuccessMessage" } },
    errors: [404],
  },
  {
    path: "/api/campaigns/{id}/logs",
    method: "get",
    operationId: "listDeliveryLogs",
    summary: "A page of the campaign's delivery log in send order",
    tag: "Campaigns",
    query: DeliveryLogQuerySchema,
    answers: { 200: { description: "Deliveries", json: ["DeliveryLog"], headers: pagedHeaders } },
    errors: [400, 404],
  },
  {
    path: "/api/campaigns/{id}/links",
    method: "get",
    operationId: "listCampaignLinks",
    summary: "The links of the campaign's message with their clicks",
    description:
      "Each distinct http(s) address of the message once, in order of first appearance (index), with the clicks of its tracked link: by people (clicks, uniqueClicks) and by machines apart (machineClicks: link scanners within TRACKING_SCANNER_WINDOW_SECONDS of delivery, HEAD requests, bots). A campaign sent without tracking lists its links with zeros.",
    tag: "Campaigns",
    answers: { 200: { description: "The links", json: ["CampaignLink"] } },
    errors: [404],
  },
  {
    path: "/api/campaigns/{id}/resend-non-openers",
    method: "post",
    operationId: "resendToNonOpeners",
    summary: "Makes a draft that resends a completed campaign to the recipients who got it and did not open it",
    description:
      "The audience is the campaign's recipients whose message was accepted (sent or delivered) and who neither opened it nor clicked in it as people (machine opens do not count), taken again when the draft is launched (PUT /api/campaigns/{draft} with status Active; its segmentId is not asked for), minus the suppressed. name defaults to '<name> — non-openers', message to the campaign's. A campaign that is not Completed is a 409; one with nobody left to resend to a 422.",
    tag: "Campaigns",
    body: "ResendNonOpenersInput",
    answers: { 201: { description: "The draft", json: "Campaign", headers: ["Location"] } },
    errors: [400, 404, 409, 413, 422],
  },
  {
    path: "/api/campaigns/{id}/{control}",
    method: "post",
    operationId: "controlCampaign",
    summary: "Pauses, resumes, cancels a campaign or retries its failed deliveries",
    description: "A control the campaign's status does not allow is a 409 that says why.",
    tag: "Campaigns",
    answers: { 200: { description: "The campaign and what happened", json: "ControlResult" } },
    errors: [404, 409],
  },
  // Webhooks
  {
    path: "/api/webhooks/delivery-receipts",
    method: "post",
    operationId: "receiveDeliveryReceipts",
    summary: "Delivery receipts from the e-mail vendor",
    description: `Signed with HMAC-SHA256 of the raw body with RECEIPTS_SECRET, sent as ${SIGNATURE_HEADER}: sha256=<hex>. The same receipt twice changes nothing.`,
    tag: "Webhooks",
    auth: "signature",
    extraParameters: [
      {
        name: SIGNATURE_HEADER,
        in: "header",
        required: true,
        description: "sha256=<hex HMAC-SHA256 of the raw body with RECEIPTS_SECRET>",
        schema: { type: "string", pattern: "^sha256=[0-9a-fA-F]{64}$" },
      },
    ],
    body: "DeliveryReceipts",
    answers: { 202: { description: "Queued", json: "ReceiptsAccepted" } },
    errors: [400, 401, 413],
  },
  {
    path: "/api/webhooks/ses",
    method: "post",
    operationId: "receiveSesNotification",
    summary: "Amazon SES bounce and complaint notifications over Amazon SNS",
    description:
      "One SNS message as SNS posts it to an HTTPS subscription, signed by SNS (SignatureVersion 1 or 2, the certificate at SigningCertURL on an sns.<region>.amazonaws.com host). A SubscriptionConfirmation's SubscribeURL is visited once. A Notification's SES Bounce (Permanent: bounced; Transient or Undetermined: soft-bounced) or Complaint becomes a receipt of the message its Message-ID names; Delivery and messages of other systems are ignored. The same notification twice changes nothing. Off (404) while SES_SNS_TOPIC_ARNS is empty; a topic not listed there is a 403.",
    tag: "Webhooks",
    auth: "none",
    body: { media: "text/plain", description: "The SNS message (JSON text, as SNS sends it)" },
    answers: { 200: { description: "Checked and queued", json: "FeedbackReceived" } },
    errors: [400, 401, 403, 404, 413, 422],
  },
  {
    path: "/api/webhooks/sendgrid",
    method: "post",
    operationId: "receiveSendgridEvents",
    summary: "SendGrid's Event Webhook: bounces, blocks, drops and spam reports",
    description: `Signed by SendGrid: ${SENDGRID_SIGNATURE_HEADER} is the base64 ECDSA P-256/SHA-256 signature of the ${SENDGRID_TIMESTAMP_HEADER} text followed by the raw body, checked with SENDGRID_WEBHOOK_PUBLIC_KEY; a timestamp more than ${REPLAY_WINDOW_SECONDS / 60} minutes from now is refused as a replay. bounce (type bounce): bounced; bounce (type blocked): soft-bounced; spamreport: complained; dropped for a bounced address: bounced; other events are ignored. Events name their message by smtp-id (our Message-ID); the same sg_event_id twice changes nothing. Off (404) while SENDGRID_WEBHOOK_PUBLIC_KEY is not set.`,
    tag: "Webhooks",
    auth: "none",
    extraParameters: [
      {
        name: SENDGRID_SIGNATURE_HEADER,
        in: "header",
        required: true,
        description: "base64 DER ECDSA signature of timestamp + raw body",
        schema: { type: "string" },
      },
      {
        name: SENDGRID_TIMESTAMP_HEADER,
        in: "header",
        required: true,
        description: "Unix time in seconds, as signed",
        schema: { type: "string", pattern: "^[0-9]{1,12}$" },
      },
    ],
    body: "SendgridEvents",
    answers: { 200: { description: "Checked and queued", json: "FeedbackReceived" } },
    errors: [400, 401, 404, 413],
  },
  // AI and dashboard
  {
    path: "/api/ai/message-suggestions",
    method: "post",
    operationId: "suggestMessages",
    summary: "Three message suggestions made from a segment's real figures",
    tag: "AI",
    body: "MessageSuggestionsInput",
    answers: { 200: { description: "Suggestions", json: "MessageSuggestions" } },
    errors: [400, 404, 413, 422],
  },
  {
    path: "/api/ai/insights",
    method: "get",
    operationId: "getInsights",
    summary: "The dashboard's insights, made from the caller's own figures",
    tag: "AI",
    answers: { 200: { description: "Insights", json: "Insights" } },
  },
  {
    path: "/api/stats/historical",
    method: "get",
    operationId: "getHistoricalStats",
    summary: "Counts at the end of last month and the weekly series of the dashboard's charts",
    tag: "Dashboard",
    answers: { 200: { description: "Figures", json: "HistoricalStats" } },
  },
];

const HEADERS: Record<string, Json> = {
  "X-User-Id": { description: "The id of the signed-in caller", schema: { type: "string" } },
  "Retry-After": { description: "Seconds to wait before trying again", schema: { type: "integer", minimum: 1 } },
  "X-Total-Count": { description: "How many records match, across all pages", schema: { type: "integer" } },
  "X-Total-Count-Capped": {
    description: "true when a search's count stopped at its cap",
    schema: { type: "string", enum: ["true"] },
  },
  "X-Next-Cursor": {
    description: "Pass as cursor for the next page; absent on the last page",
    schema: { type: "string" },
  },
  Location: { description: "The address of what was made", schema: { type: "string" } },
  "Idempotent-Replayed": {
    description: "true when the answer is an earlier request's work (same Idempotency-Key)",
    schema: { type: "string", enum: ["true"] },
  },
};

const USER_SECURITY = [{ bearerAuth: [] }, { cookieAuth: [] }];

function operationObject(op: Operation): Json {
  const auth = op.auth ?? "user";
  const parameters: Json[] = [];
  for (const name of op.path.match(/\{([^}]+)\}/g) ?? []) {
    const param = name.slice(1, -1);
    parameters.push(
      param === "email"
        ? {
            name: param,
            in: "path",
            required: true,
            description:
              "An e-mail address, URL-encoded (compared without case); one not on the caller's list is a 404",
            schema: { type: "string" },
          }
        : param === "control"
          ? {
              name: param,
              in: "path",
              required: true,
              description: "What to do (anything else is a 404)",
              schema: { type: "string", enum: CAMPAIGN_CONTROLS },
            }
          : {
              name: param,
              in: "path",
              required: true,
              description: ID_PARAMETER_DESCRIPTION,
              schema: { type: "string" },
            },
    );
  }
  if (op.query) parameters.push(...parametersOf(op.query, "query"));
  if (op.headers) parameters.push(...parametersOf(op.headers, "header"));
  if (op.extraParameters) parameters.push(...op.extraParameters);

  const responses: Record<string, Json> = {};
  for (const [status, answer] of Object.entries(op.answers)) {
    const content = answer.json
      ? {
          "application/json": {
            schema: Array.isArray(answer.json) ? { type: "array", items: ref(answer.json[0]) } : ref(answer.json),
          },
        }
      : answer.media
        ? { [answer.media]: { schema: {} } }
        : undefined;
    const headers = [...(answer.headers ?? []), ...(auth === "user" ? ["X-User-Id"] : [])];
    responses[status] = {
      description: answer.description,
      ...(headers.length
        ? {
            headers: Object.fromEntries([...new Set(headers)].map((h) => [h, { $ref: `#/components/headers/${h}` }])),
          }
        : {}),
      ...(content ? { content } : {}),
    };
  }
  const writes = op.method !== "get";
  // What the server answers any request before a route sees it: a request line or header holding
  // a character HTTP does not allow (a control character) is a 400 (answerClientError in
  // server/app.ts), a write's body over the server's limit a 413.
  const errors = new Set([400, ...(writes ? [413] : []), ...(op.errors ?? [])]);
  if (auth === "user" || auth === "optional") {
    errors.add(401);
    if (writes) errors.add(403);
  }
  if (auth !== "none" || op.errors === undefined) errors.add(500);
  // Every operation that reads or writes the database: while it cannot be reached.
  if (!op.withoutDatabase) errors.add(503);
  for (const status of [...errors].sort((a, b) => a - b)) {
    const code = codeOfStatus(status);
    if (!code) throw new Error(`No ApiError code answers ${status}`);
    responses[String(status)] ??= { $ref: `#/components/responses/${ERROR_RESPONSE_NAMES[code]}` };
  }

  const body = op.body
    ? typeof op.body === "string"
      ? { required: true, content: { "application/json": { schema: ref(op.body) } } }
      : {
          required: true,
          description: op.body.description,
          content: { [op.body.media]: { schema: { type: "string" } } },
        }
    : undefined;

  return {
    operationId: op.operationId,
    summary: op.summary,
    ...(op.description ? { description: op.description } : {}),
    tags: [op.tag],
    ...(auth === "none"
      ? { security: [] }
      : auth === "optional"
        ? { security: [{}, ...USER_SECURITY] }
        : auth === "signature"
          ? { security: [{ receiptSignature: [] }] }
          : {}),
    ...(parameters.length ? { parameters } : {}),
    ...(body ? { requestBody: body } : {}),
    responses,
  };
}

/** The name of the session cookie, read from the cookie the session storage writes. */
async function sessionCookieName(): Promise<string> {
  const storage = sessionStorage();
  const header = await storage.commitSession(await storage.getSession());
  return header.slice(0, header.indexOf("="));
}

export type OpenApiDocument = {
  openapi: string;
  info: Json;
  paths: Record<string, Partial<Record<HttpMethod, Json>>>;
  components: { schemas: Record<string, Json>; [key: string]: unknown };
  [key: string]: unknown;
};

/** Builds the document (anew at each call; the route keeps one). */
export async function buildOpenApiDocument(): Promise<OpenApiDocument> {
  const paths: OpenApiDocument["paths"] = {};
  for (const op of OPERATIONS) {
    const item = (paths[op.path] ??= {});
    if (item[op.method]) throw new Error(`Two operations for ${op.method.toUpperCase()} ${op.path}`);
    item[op.method] = operationObject(op);
  }
  return {
    openapi: "3.1.0",
    info: {
      title: "CRM API",
      version: "1.0.0",
      description:
        "The JSON API of the CRM (docs/rules.md#the-api-contract). Sign in with a bearer token (the JWT /auth/callback receives) or the session cookie; a write carried by the cookie must come from this site's own pages. Every failure is { error: { code, message, fields? } } with the status of its code.",
    },
    jsonSchemaDialect: "https://json-schema.org/draft/2020-12/schema",
    servers: [{ url: "/" }],
    security: USER_SECURITY,
    tags: [...new Set(OPERATIONS.map((op) => op.tag))].map((name) => ({ name })),
    paths,
    components: {
      schemas: { ...convert(ANSWERS, "output"), ...convert(INPUTS, "input") },
      responses: errorResponses(),
      headers: HEADERS,
      securitySchemes: {
        bearerAuth: {
          type: "http",
          scheme: "bearer",
          bearerFormat: "JWT",
          description: "Authorization: Bearer <token>, the token /auth/callback receives after sign-in",
        },
        cookieAuth: {
          type: "apiKey",
          in: "cookie",
          name: await sessionCookieName(),
          description: "The session cookie a browser holds after sign-in",
        },
        receiptSignature: {
          type: "apiKey",
          in: "header",
          name: SIGNATURE_HEADER,
          description: "sha256=<hex HMAC-SHA256 of the raw body with RECEIPTS_SECRET>",
        },
      },
    },
  };
}
