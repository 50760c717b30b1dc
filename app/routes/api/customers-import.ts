// POST /api/customers/import: a CSV file as the request body (Content-Type text/csv), streamed
// into the import engine in a worker thread (~/services/background-work.server), never buffered. Upserts on e-mail; answers the counts and every bad row
// with its line number and reason (the first 10,000 listed). A malformed file is refused with 422
// and nothing is written. Columns are guessed from the header; map.<field>=<column index> query
// parameters override the guess.
import type { ActionFunctionArgs } from "@remix-run/node";
import { Readable } from "node:stream";
import type { ReadableStream as NodeReadableStream } from "node:stream/web";
import { ApiError, allowMethods, methodNotAllowed } from "~/lib/api.server";
import { mappingFromForm } from "~/lib/customer-csv";
import { withApi } from "~/services/auth.server";
import { importCustomersOffThread } from "~/services/background-work.server";

export const loader = methodNotAllowed("POST");

export async function action({ request }: ActionFunctionArgs) {
  allowMethods(request, "POST");
  return withApi(request, async (user) => {
    const type = request.headers.get("Content-Type") ?? "";
    if (type && !/^(text\/csv|text\/plain|application\/csv|application\/octet-stream)\b/i.test(type)) {
      throw new ApiError("bad_request", "Send the CSV file as the body with Content-Type: text/csv");
    }
    if (!request.body)
      throw new ApiError("unprocessable", "The file is empty: it needs a header row and at least one customer.");
    const params = new URL(request.url).searchParams;
    const mapping = mappingFromForm((name) => params.get(name));
    const body = Readable.fromWeb(request.body as unknown as NodeReadableStream<Uint8Array>);
    return importCustomersOffThread(user.id, body, { mapping });
  });
}
