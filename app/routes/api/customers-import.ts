// POST /api/customers/import: a CSV file as the request body (Content-Type text/csv), streamed
// into the import engine in a worker thread (~/services/background-work.server), never buffered. Upserts on e-mail; answers the counts and every bad row
// with its line number and reason (the first 10,000 listed). A malformed file is refused with 422
// and nothing is written. Columns are guessed from the header; map.<field>=<column index> query
// parameters override the guess. Columns named for a field set its values and a tags column the
// customers' tags; the answer lists the columns nothing read, and createFields=true makes a text
// field of each of them and imports it.
import type { ActionFunctionArgs } from "@remix-run/node";
import { allowMethods, methodNotAllowed, parseOrThrow } from "~/lib/api.server";
import { csvRequestBody } from "~/lib/csv-request.server";
import { mappingFromForm } from "~/lib/customer-csv";
import { CustomerImportQuerySchema } from "~/schemas/api-inputs.server";
import { withApi } from "~/services/auth.server";
import { importCustomersOffThread } from "~/services/background-work.server";

export const loader = methodNotAllowed("POST");

export async function action({ request }: ActionFunctionArgs) {
  allowMethods(request, "POST");
  return withApi(request, async (user) => {
    const params = new URL(request.url).searchParams;
    const { createFields } = parseOrThrow(CustomerImportQuerySchema, {
      createFields: params.get("createFields") ?? undefined,
    });
    const body = csvRequestBody(request, "The file is empty: it needs a header row and at least one customer.");
    const mapping = mappingFromForm((name) => params.get(name));
    return importCustomersOffThread(user.id, body, { mapping, createFields: createFields === "true" });
  });
}
