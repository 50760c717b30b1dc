// GET /api/customers/{id}/story?limit=&cursor=: a page of the customer's story as an array, newest
// first: each campaign they were sent and what came of it, their opens and clicks, bounces and
// complaints, and what happened to their address on the suppression list (each { kind, at,
// campaignId, campaignName, details, link, reason, text }). The next page's cursor is in
// X-Next-Cursor (absent on the last). Another user's customer is a 404.
import type { LoaderFunctionArgs } from "@remix-run/node";
import { jsonResponse, methodNotAllowed, parseOrThrow } from "~/lib/api.server";
import { CustomerStoryQuerySchema } from "~/schemas/customer-story.server";
import { withApi } from "~/services/auth.server";
import { customerStory } from "~/services/customer-story.server";

export async function loader({ request, params }: LoaderFunctionArgs) {
  return withApi(request, async (user) => {
    const query = parseOrThrow(CustomerStoryQuerySchema, Object.fromEntries(new URL(request.url).searchParams));
    const page = await customerStory(user.id, params.id ?? "", query);
    const headers = new Headers({ "Access-Control-Expose-Headers": "X-Next-Cursor, X-User-Id" });
    if (page.nextCursor) headers.set("X-Next-Cursor", page.nextCursor);
    return jsonResponse(page.entries, { headers });
  });
}

export const action = methodNotAllowed("GET");
