// The /api conventions of DESIGN.md §6: JSON errors { error: { code, message, fields? } } with the
// right status, X-User-Id on every authenticated answer, and zod failures turned into 400s.
import type { z } from "zod";

export type ApiErrorCode =
  | "bad_request"
  | "unauthorized"
  | "forbidden"
  | "not_found"
  | "method_not_allowed"
  | "conflict"
  | "payload_too_large"
  | "unprocessable"
  | "rate_limited"
  | "internal";

const statusOf: Record<ApiErrorCode, number> = {
  bad_request: 400,
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  method_not_allowed: 405,
  conflict: 409,
  payload_too_large: 413,
  unprocessable: 422,
  rate_limited: 429,
  internal: 500,
};

/** A failure a service or route throws on purpose; the API wrapper turns it into JSON. */
export class ApiError extends Error {
  constructor(
    public code: ApiErrorCode,
    message: string,
    public fields?: Record<string, string>,
  ) {
    super(message);
  }
  get status() {
    return statusOf[this.code];
  }
}

export const notFound = (what = "Record") => new ApiError("not_found", `${what} not found`);

/**
 * Where a JSON answer made here keeps its text: server/api-server.ts writes it as it is instead of
 * reading the body stream back (a tenth of the CPU of GET /api/customers/{id}, profiled). A symbol
 * from the global registry, because that server and the Remix build load this module separately.
 */
export const JSON_TEXT = Symbol.for("crm.api.json-text");

/** A JSON Response (no-store) that remembers its text under JSON_TEXT. */
export function jsonResponse(data: unknown, init: { status?: number; headers?: HeadersInit } = {}): Response {
  const text = JSON.stringify(data) ?? "null";
  const headers = new Headers(init.headers);
  headers.set("Content-Type", "application/json; charset=utf-8");
  headers.set("Cache-Control", "no-store");
  const response = new Response(text, { status: init.status ?? 200, headers });
  Object.defineProperty(response, JSON_TEXT, { value: text });
  return response;
}

export function errorResponse(error: ApiError, headers?: HeadersInit) {
  return jsonResponse(
    { error: { code: error.code, message: error.message, ...(error.fields ? { fields: error.fields } : {}) } },
    { status: error.status, headers },
  );
}

/** Field messages keyed by dotted path, the first message per field. */
export function fieldErrors(error: z.ZodError): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const issue of error.issues) {
    const key = issue.path.join(".") || "_";
    fields[key] ??= issue.message;
  }
  return fields;
}

export function parseOrThrow<T extends z.ZodType>(schema: T, input: unknown): z.infer<T> {
  const result = schema.safeParse(input);
  if (!result.success) {
    const fields = fieldErrors(result.error);
    const first = Object.entries(fields)[0];
    throw new ApiError(
      "bad_request",
      first ? (first[0] === "_" ? first[1] : `${first[0]}: ${first[1]}`) : "Invalid input",
      fields,
    );
  }
  return result.data;
}

/** Reads a JSON body, answering 400 for a body that is not JSON and 413 for one that is too big. */
export async function readJson(request: Request, maxBytes = 1_000_000): Promise<unknown> {
  const length = Number(request.headers.get("Content-Length") ?? 0);
  if (length > maxBytes) throw new ApiError("payload_too_large", `The body is larger than ${maxBytes} bytes`);
  const text = await request.text();
  if (text.length > maxBytes) throw new ApiError("payload_too_large", `The body is larger than ${maxBytes} bytes`);
  if (!text.trim()) return {};
  try {
    return JSON.parse(text);
  } catch {
    throw new ApiError("bad_request", "The body is not valid JSON");
  }
}

/**
 * For the method a resource route does not serve: a 405 in the /api error shape (Remix's own
 * answer would be `{"message":"Unexpected Server Error"}`). Export it as the route's loader or action.
 */
export function methodNotAllowed(allowed: string) {
  return ({ request }: { request: Request }) =>
    errorResponse(new ApiError("method_not_allowed", `Use ${allowed} for ${new URL(request.url).pathname}`), { Allow: allowed });
}
