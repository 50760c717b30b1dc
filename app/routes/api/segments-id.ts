// GET, PUT and DELETE /api/segments/{id}. Another tenant's segment, or a malformed id, is a 404.
// DELETE answers { success, warnings }: the draft campaigns the delete leaves without a segment.
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { allowMethods, parseOrThrow, readJson } from "~/lib/api.server";
import { SegmentInputSchema } from "~/schemas/segment";
import { withApi } from "~/services/auth.server";
import {
  deleteSegment,
  getSegment,
  segmentAudienceCount,
  segmentDeleteWarning,
  updateSegment,
} from "~/services/segments.server";

export async function loader({ request, params }: LoaderFunctionArgs) {
  return withApi(request, async (user) => {
    const { tree: _tree, ...segment } = await getSegment(user.id, params.id ?? "");
    return { ...segment, customerCount: await segmentAudienceCount(user.id, segment.id) };
  });
}

export async function action({ request, params }: ActionFunctionArgs) {
  allowMethods(request, "GET", "PUT", "DELETE");
  return withApi(request, async (user) => {
    const id = params.id ?? "";
    if (request.method === "DELETE") {
      // Drafts that used the segment lose it: the answer names them (docs/rules.md#segment-delete).
      const warning = await segmentDeleteWarning(user.id, id);
      await deleteSegment(user.id, id);
      return { success: true, warnings: warning ? [warning] : [] };
    }
    const input = parseOrThrow(SegmentInputSchema, await readJson(request));
    return updateSegment(user.id, id, input);
  });
}
