// GET /api/suppressions?q=&limit=&cursor=: a page of the caller's suppression list as an array,
// newest first (each { email, reason, campaignId, campaignName, details, createdAt }); q keeps the
// addresses containing it. X-Total-Count says how many match, X-Next-Cursor the cursor of the next
// page (absent on the last). POST /api/suppressions { "emails": [...] }: suppresses 1 to 10,000
// addresses as "manual"; answers how many were added and how many were on the list already. One
// bad address refuses the request (400, naming it) and adds nothing.
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { allowMethods, jsonResponse, parseOrThrow, readJson } from "~/lib/api.server";
import { SuppressionAddInputSchema, SuppressionListQuerySchema } from "~/schemas/api-inputs.server";
import { withApi } from "~/services/auth.server";
import { addSuppressionsByHand, listSuppressionsForApi } from "~/services/suppressions.server";

export async function loader({ request }: LoaderFunctionArgs) {
  return withApi(request, async (user) => {
    const query = parseOrThrow(SuppressionListQuerySchema, Object.fromEntries(new URL(request.url).searchParams));
    const page = await listSuppressionsForApi(user.id, query);
    const headers = new Headers({
      "X-Total-Count": String(page.total),
      "Access-Control-Expose-Headers": "X-Total-Count, X-Next-Cursor, X-User-Id",
    });
    if (page.nextCursor) headers.set("X-Next-Cursor", page.nextCursor);
    return jsonResponse(page.items, { headers });
  });
}

export async function action({ request }: ActionFunctionArgs) {
  allowMethods(request, "GET", "POST");
  return withApi(request, async (user) => {
    const { emails } = parseOrThrow(SuppressionAddInputSchema, await readJson(request));
    return addSuppressionsByHand(user.id, emails);
  });
}
