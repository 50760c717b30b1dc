// GET /api/segments/{id}/audience-count: { count } of the segment's customers, counted in the database.
import type { LoaderFunctionArgs } from "@remix-run/node";
import { methodNotAllowed } from "~/lib/api.server";
import { withApi } from "~/services/auth.server";
import { segmentAudienceCount } from "~/services/segments.server";

export async function loader({ request, params }: LoaderFunctionArgs) {
  return withApi(request, async (user) => ({ count: await segmentAudienceCount(user.id, params.id ?? "") }));
}

export const action = methodNotAllowed("GET");
