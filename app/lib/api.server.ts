// The /api conventions (docs/architecture.md, "A request"): JSON errors { error: { code, message, fields? } } with the
// right status, X-User-Id on every authenticated answer, and zod failures turned into 400s.
import type { HeadersArgs } from "@remix-run/node";
import type { z } from "zod";
import { isDatabaseUnavailable } from "~/models/unavailable/store.server";

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
  | "internal"
  | "unavailable";

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
  unavailable: 503,
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
 * reading the body stream back. The server reads this symbol from the app's server entry, out of
 * the same build as the routes, so both hold the one copy of this module.
 */
export const JSON_TEXT = Symbol("crm.api.json-text");

/**
 * A Response whose body is a string it holds, turned into a stream only when someone asks for
 * one. Why: measured, `new Response(text)` costs ~25 µs (undici wraps the text in a web stream at
 * once) against ~3 µs without a body, on every /api answer; the /api server never wants the stream.
 * Everything else sees a normal Response: body, bodyUsed, text(), json(), arrayBuffer(), blob(), clone().
 */
class JsonResponse extends Response {
  readonly #text: string;
  #stream: ReadableStream<Uint8Array> | null = null;
  #used = false;

  constructor(text: string, init: ResponseInit) {
    super(null, init);
    this.#text = text;
  }

  /** The text, while the body has not been read. */
  get [JSON_TEXT](): string | undefined {
    return this.bodyUsed ? undefined : this.#text;
  }

  #take(): string {
    if (this.bodyUsed) throw new TypeError("Body is unusable: Body has already been read");
    this.#used = true;
    return this.#text;
  }

  override async text() {
    return this.#take();
  }
  override async json() {
    return JSON.parse(this.#take()) as unknown;
  }
  override async arrayBuffer() {
    const bytes = new TextEncoder().encode(this.#take());
    return bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;
  }
  override async blob() {
    return new Blob([this.#take()], { type: this.headers.get("Content-Type") ?? "" });
  }
  override clone(): Response {
    if (this.bodyUsed) throw new TypeError("Response.clone: Body has already been consumed.");
    return new JsonResponse(this.#text, {
      status: this.status,
      statusText: this.statusText,
      headers: new Headers(this.headers),
    });
  }
  static {
    // Accessors over what lib.dom declares as plain properties of Response.
    Object.defineProperty(this.prototype, "body", {
      get(this: JsonResponse) {
        this.#stream ??= new Blob([this.#text]).stream();
        return this.#stream;
      },
    });
    Object.defineProperty(this.prototype, "bodyUsed", {
      get(this: JsonResponse) {
        return this.#used || (this.#stream?.locked ?? false);
      },
    });
  }
}

/**
 * A JSON Response (no-store) that the /api server can write without reading it back (JSON_TEXT).
 * Its Content-Length lets compression skip small answers on the Express path too, as the /api server does.
 */
export function jsonResponse(data: unknown, init: { status?: number; headers?: HeadersInit } = {}): Response {
  const text = JSON.stringify(data) ?? "null";
  const headers = new Headers(init.headers);
  headers.set("Content-Type", "application/json; charset=utf-8");
  headers.set("Cache-Control", "no-store");
  headers.set("Content-Length", String(Buffer.byteLength(text)));
  return new JsonResponse(text, { status: init.status ?? 200, headers });
}

export function errorResponse(error: ApiError, headers?: HeadersInit) {
  const all = new Headers(headers);
  if (error.code === "unavailable") all.set("Retry-After", String(RETRY_AFTER_SECONDS));
  return jsonResponse(
    { error: { code: error.code, message: error.message, ...(error.fields ? { fields: error.fields } : {}) } },
    { status: error.status, headers: all },
  );
}

/** How long a client is asked to wait (Retry-After) when the database cannot be reached. */
export const RETRY_AFTER_SECONDS = 5;

export const DATABASE_UNAVAILABLE =
  "The database is unavailable right now, so this could not be done. Please try again in a few seconds.";

/**
 * The one answer to a request the database could not serve because it is out of reach
 * (isDatabaseUnavailable in app/models/unavailable/store.server.ts): 503 with Retry-After, in the /api error
 * shape on /api ("unavailable") and as plain text on pages, where a route's error boundary shows
 * it (a thrown Response's text). Null for any other error.
 */
export function unavailableAnswer(error: unknown, request: Request): Response | null {
  if (!isDatabaseUnavailable(error)) return null;
  if (/^\/api(\/|$)/i.test(new URL(request.url).pathname))
    return errorResponse(new ApiError("unavailable", DATABASE_UNAVAILABLE));
  return new Response(DATABASE_UNAVAILABLE, {
    status: 503,
    headers: {
      "Retry-After": String(RETRY_AFTER_SECONDS),
      "Content-Type": "text/plain; charset=utf-8",
      "Cache-Control": "no-store",
    },
  });
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

/**
 * The most a JSON body may hold (the server stops the body at the same figure as it arrives:
 * BODY_LIMITS.json in server/app.ts). The largest body the schemas let through is an order of 200
 * items with 1,000-character descriptions, about 720 KB in a non-Latin script; parsing a flat 1 MB
 * takes a few milliseconds.
 */
export const MAX_JSON_BYTES = 1_000_000;

/**
 * How deeply a JSON body may nest arrays and objects. The deepest payload the schemas take is a
 * segment's conditions, five groups deep (about 14 levels); parsing a body nested hundreds of
 * thousands deep, and walking what it makes, held the event loop for tens of milliseconds a body.
 */
export const MAX_JSON_DEPTH = 32;

export const JSON_TOO_DEEP = `The JSON body is nested more than ${MAX_JSON_DEPTH} levels deep`;

/**
 * Whether JSON text nests arrays and objects deeper than `limit`: one pass over the text counting
 * the brackets outside strings, stopped at the first one too deep. Text that is not JSON may pass
 * (JSON.parse refuses it next); nothing too deep reaches JSON.parse.
 */
export function nestsDeeperThan(text: string, limit: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c)
        i++; // a backslash: the next character is escaped
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) {
      if (++depth > limit) return true;
    } else if (c === 0x5d || c === 0x7d) depth--;
  }
  return false;
}

/**
 * Reads a JSON body, the one way /api and sign-in read one: 413 for a body over `maxBytes`, 400 for
 * one that nests deeper than MAX_JSON_DEPTH (found before parsing) and for one that is not JSON.
 */
export async function readJson(request: Request, maxBytes = MAX_JSON_BYTES): Promise<unknown> {
  const tooLarge = () => new ApiError("payload_too_large", `The body is larger than ${maxBytes} bytes`);
  const length = Number(request.headers.get("Content-Length") ?? 0);
  if (length > maxBytes) throw tooLarge();
  // The server counts the bytes as they arrive and stops the body at its limit (server/app.ts);
  // the read then fails with its BodyTooLargeError.
  let text: string;
  try {
    text = await request.text();
  } catch (error) {
    if (isBodyTooLarge(error)) throw tooLarge();
    throw error;
  }
  if (Buffer.byteLength(text) > maxBytes) throw tooLarge();
  if (!text.trim()) return {};
  if (nestsDeeperThan(text, MAX_JSON_DEPTH)) throw new ApiError("bad_request", JSON_TOO_DEEP);
  try {
    return JSON.parse(text);
  } catch {
    throw new ApiError("bad_request", "The body is not valid JSON");
  }
}

/** The methods a route can take; HEAD goes wherever GET goes. */
export type HttpMethod = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";

/**
 * The one answer to a method a route does not take: 405 with `Allow` listing the methods it does
 * take. On /api it is the JSON error shape (Remix's own answer would be `{"message":"Unexpected
 * Server Error"}`, or a 405 without Allow); on a page it is plain text.
 */
export function methodNotAllowedResponse(request: Request, allowed: readonly HttpMethod[]): Response {
  const { pathname } = new URL(request.url);
  const names = allowed.length > 1 ? `${allowed.slice(0, -1).join(", ")} or ${allowed.at(-1)}` : (allowed[0] ?? "");
  const message = `Use ${names} for ${pathname}`;
  const headers = { Allow: allowed.join(", ") };
  if (/^\/api(\/|$)/i.test(pathname)) return errorResponse(new ApiError("method_not_allowed", message), headers);
  return new Response(message, {
    status: 405,
    headers: { ...headers, "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" },
  });
}

/**
 * Stops a loader or action (by throwing that 405) unless the request's method is one of `allowed`,
 * the methods the whole route takes, GET included where its loader answers. Call it first, before
 * reading credentials or the body: the Allow list is no secret.
 */
export function allowMethods(request: Request, ...allowed: HttpMethod[]): void {
  const method = request.method === "HEAD" ? "GET" : request.method;
  if (!(allowed as string[]).includes(method)) throw methodNotAllowedResponse(request, allowed);
}

/**
 * Every page module's `headers` export (and the root's): keeps the 405's Allow header on the page
 * Remix renders. Remix gives a page answer only the Set-Cookie of its loaders and actions unless the
 * route exports `headers`, and hands a 405 thrown by allowMethods() to the route whose error boundary
 * renders it (errorHeaders), a 405 returned by methodNotAllowed() to the route itself (actionHeaders
 * or loaderHeaders). Resource routes answer their Response as it is and need none.
 */
export function keepAllowHeader({ parentHeaders, actionHeaders, loaderHeaders, errorHeaders }: HeadersArgs): Headers {
  const headers = new Headers(parentHeaders);
  // And a 503's Retry-After (unavailableAnswer), the same way.
  for (const name of ["Allow", "Retry-After"]) {
    const value = errorHeaders?.get(name) ?? actionHeaders.get(name) ?? loaderHeaders.get(name);
    if (value) headers.set(name, value);
  }
  return headers;
}

/**
 * A loader or action for a route that takes no request of its kind (a GET of a POST-only route, a
 * write to a read-only one): export it as the route's loader or action, naming the methods it takes.
 */
export function methodNotAllowed(...allowed: HttpMethod[]) {
  return ({ request }: { request: Request }) => methodNotAllowedResponse(request, allowed);
}

/** The failure of a body read that the server stopped at its size limit (server/app.ts, BodyTooLargeError). */
export function isBodyTooLarge(error: unknown): boolean {
  for (
    let e = error, depth = 0;
    e && typeof e === "object" && depth < 4;
    e = (e as { cause?: unknown }).cause, depth++
  ) {
    if ((e as { code?: unknown }).code === "ERR_BODY_TOO_LARGE") return true;
  }
  return false;
}
