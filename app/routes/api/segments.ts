// GET /api/segments: the caller's segments with their audience sizes (search `q`, `sort` by
// name, size or date, `dir`). POST /api/segments: creates one from name, conditions, logicType.
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { allowMethods, jsonResponse, parseOrThrow, readJson } from "~/lib/api.server";
import { SegmentListQuerySchema } from "~/schemas/api-inputs.server";
import { SegmentInputSchema } from "~/schemas/segment";
import { withApi } from "~/services/auth.server";
import { createSegment, listSegments } from "~/services/segments.server";

export async function loader({ request }: LoaderFunctionArgs) {
  return withApi(request, async (user) => {
    const query = parseOrThrow(SegmentListQuerySchema, Object.fromEntries(new URL(request.url).searchParams));
    return listSegments(user.id, { q: query.q, sort: query.sort, dir: query.dir, take: query.limit });
  });
}

export async function action({ request }: ActionFunctionArgs) {
  allowMethods(request, "GET", "POST");
  return withApi(request, async (user) => {
    const input = parseOrThrow(SegmentInputSchema, await readJson(request));
    return jsonResponse(await createSegment(user.id, input), { status: 201 });
  });
}
