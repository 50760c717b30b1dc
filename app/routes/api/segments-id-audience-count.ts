// GET /api/segments/{id}/audience-count: { count } of the segment's customers, counted in the database.
import type { LoaderFunctionArgs } from "@remix-run/node";
import { withApi } from "~/services/auth.server";
import { segmentAudienceCount } from "~/services/segments.server";

export async function loader({ request, params }: LoaderFunctionArgs) {
  return withApi(request, async (user) => ({ count: await segmentAudienceCount(user.id, params.id ?? "") }));
}
