// POST /api/suppressions/import: a CSV file as the request body (Content-Type text/csv) with a
// header row naming the address column ("email", "Email Address", …; an optional reason and
// campaign column). Suppresses every good address; answers the counts (added, already suppressed,
// duplicates, invalid) and the bad rows with their line numbers. A malformed file is a 422 and
// writes nothing.
import type { ActionFunctionArgs } from "@remix-run/node";
import { Readable } from "node:stream";
import type { ReadableStream as NodeReadableStream } from "node:stream/web";
import { ApiError, allowMethods, methodNotAllowed } from "~/lib/api.server";
import { withApi } from "~/services/auth.server";
import { importSuppressionsCsv } from "~/services/suppressions-csv.server";

export const loader = methodNotAllowed("POST");

export async function action({ request }: ActionFunctionArgs) {
  allowMethods(request, "POST");
  return withApi(request, async (user) => {
    const type = request.headers.get("Content-Type") ?? "";
    if (type && !/^(text\/csv|text\/plain|application\/csv|application\/octet-stream)\b/i.test(type)) {
      throw new ApiError("bad_request", "Send the CSV file as the body with Content-Type: text/csv");
    }
    if (!request.body)
      throw new ApiError(
        "unprocessable",
        'The file is empty: it needs a header row ("email") and at least one address.',
      );
    const body = Readable.fromWeb(request.body as unknown as NodeReadableStream<Uint8Array>);
    return importSuppressionsCsv(user.id, body);
  });
}
