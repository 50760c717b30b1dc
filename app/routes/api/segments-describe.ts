// POST /api/segments/describe { description } → { conditions, builder, summary, writer }: segment
// conditions written from a description ('Use AI' of the segment form), by the configured LLM or
// else by the local keyword rules (app/services/segment-ai.server.ts). The LLM sees the caller's
// own fields only.
import type { ActionFunctionArgs } from "@remix-run/node";
import { allowMethods, methodNotAllowed, parseOrThrow, readJson } from "~/lib/api.server";
import { DescribeSegmentInputSchema } from "~/schemas/segment-ai";
import { withApi } from "~/services/auth.server";
import { describeSegment } from "~/services/segment-ai.server";

export async function action({ request }: ActionFunctionArgs) {
  allowMethods(request, "POST");
  return withApi(request, async (user) => {
    const input = parseOrThrow(DescribeSegmentInputSchema, await readJson(request));
    return describeSegment(user.id, input.description);
  });
}

export const loader = methodNotAllowed("POST");
