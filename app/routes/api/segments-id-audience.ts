// GET /api/segments/{id}/audience?limit=&cursor=: one page of the segment's customers in creation
// order, as an array (docs/rules.md#lists-and-paging). The cursor of the next page is in the
// X-Next-Cursor header.
import type { LoaderFunctionArgs } from "@remix-run/node";
import { jsonResponse, methodNotAllowed, parseOrThrow } from "~/lib/api.server";
import { AudienceQuerySchema } from "~/schemas/segment";
import { withApi } from "~/services/auth.server";
import { segmentAudience } from "~/services/segments.server";

export async function loader({ request, params }: LoaderFunctionArgs) {
  return withApi(request, async (user) => {
    const query = parseOrThrow(AudienceQuerySchema, Object.fromEntries(new URL(request.url).searchParams));
    const page = await segmentAudience(user.id, params.id ?? "", query);
    const headers = new Headers();
    if (page.nextCursor) headers.set("X-Next-Cursor", page.nextCursor);
    return jsonResponse(page.customers, { headers });
  });
}

export const action = methodNotAllowed("GET");
