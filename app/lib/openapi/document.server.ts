// The OpenAPI 3.1 document of /api, served at GET /api/openapi.json, assembled from the operations
// each route declares beside itself (app/routes/api/<route>.openapi.server.ts, gathered by
// app/routes/api/openapi-json.ts). Request bodies, query parameters and headers are converted from
// the zod schemas the routes validate with (z.toJSONSchema, input side); answers from the schemas
// of app/lib/openapi/answers.ts (output side); errors from ApiError itself. tests/routes/openapi.test.ts checks the document against the
// route table and validates real answers against it.
import { z } from "zod";
import { ApiError, type ApiErrorCode } from "~/lib/api.server";
import * as A from "~/lib/openapi/answers";
import { ANSWERS, type AnswerName, INPUTS, type InputName } from "~/lib/openapi/components.server";
import type { HttpMethod, Operation } from "~/lib/openapi/operation";
import { SIGNATURE_HEADER } from "~/services/sending/receipt-signature.server";
import { sessionStorage } from "~/services/session.server";

type Json = Record<string, unknown>;

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

const ID_PARAMETER_DESCRIPTION =
  "A record id (24 lowercase hexadecimal characters); another tenant's id, or a malformed one, is a 404";

const CAMPAIGN_CONTROLS = ["pause", "resume", "cancel", "retry-failed", "unschedule"] as const;

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

/**
 * Builds the document from the routes' operations, in the order given (anew at each call; the route
 * keeps one).
 */
export async function buildOpenApiDocument(operations: readonly Operation[]): Promise<OpenApiDocument> {
  const paths: OpenApiDocument["paths"] = {};
  for (const op of operations) {
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
    tags: [...new Set(operations.map((op) => op.tag))].map((name) => ({ name })),
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
