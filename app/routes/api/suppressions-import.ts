// POST /api/suppressions/import: a CSV file as the request body (Content-Type text/csv) with a
// header row naming the address column ("email", "Email Address", …; an optional reason and
// campaign column). Suppresses every good address; answers the counts (added, already suppressed,
// duplicates, invalid) and the bad rows with their line numbers. A malformed file is a 422 and
// writes nothing.
import type { ActionFunctionArgs } from "@remix-run/node";
import { allowMethods, methodNotAllowed } from "~/lib/api.server";
import { csvRequestBody } from "~/lib/csv-request.server";
import { withApi } from "~/services/auth.server";
import { importSuppressionsCsv } from "~/services/suppressions-csv.server";

export const loader = methodNotAllowed("POST");

export async function action({ request }: ActionFunctionArgs) {
  allowMethods(request, "POST");
  return withApi(request, async (user) => {
    const body = csvRequestBody(
      request,
      'The file is empty: it needs a header row ("email") and at least one address.',
    );
    return importSuppressionsCsv(user.id, body);
  });
}
