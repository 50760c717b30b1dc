// The CSV file an /api import takes as its request body (POST /api/customers/import and
// /api/suppressions/import): refused unless it is sent as CSV (or plain text, or bytes), refused
// when there is none, else streamed, never buffered.
import { Readable } from "node:stream";
import type { ReadableStream as NodeReadableStream } from "node:stream/web";
import { ApiError } from "~/lib/api.server";

const CSV_TYPES = /^(text\/csv|text\/plain|application\/csv|application\/octet-stream)\b/i;

/** The request's body as a Node stream; `emptyMessage` is the 422's when the body is empty. */
export function csvRequestBody(request: Request, emptyMessage: string): Readable {
  const type = request.headers.get("Content-Type") ?? "";
  if (type && !CSV_TYPES.test(type)) {
    throw new ApiError("bad_request", "Send the CSV file as the body with Content-Type: text/csv");
  }
  if (!request.body) throw new ApiError("unprocessable", emptyMessage);
  return Readable.fromWeb(request.body as unknown as NodeReadableStream<Uint8Array>);
}
