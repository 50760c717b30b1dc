// GET /api/segments: the caller's segments with their audience sizes (search `q`, `sort` by
// name, size or date, `dir`). POST /api/segments: creates one from name, conditions, logicType.
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { allowMethods, jsonResponse, parseOrThrow, readJson } from "~/lib/api.server";
import { SegmentInputSchema } from "~/schemas/segment";
import { withApi } from "~/services/auth.server";
import { createSegment, listSegments } from "~/services/segments.server";

const QuerySchema = z.object({
  q: z.string().max(200, "q must be at most 200 characters").optional(),
  sort: z.enum(["name", "size", "date"], { message: "sort must be name, size or date" }).optional(),
  dir: z.enum(["asc", "desc"], { message: "dir must be asc or desc" }).optional(),
  limit: z.coerce.number().int().min(1, "limit must be at least 1").max(500, "limit must be at most 500").optional(),
});

export async function loader({ request }: LoaderFunctionArgs) {
  return withApi(request, async (user) => {
    const query = parseOrThrow(QuerySchema, Object.fromEntries(new URL(request.url).searchParams));
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
