// POST /api/ai/message-suggestions: { campaignObjective, segmentId } → { suggestions: [{ message,
// tone, expectedResponse }], source: "llm" | "local" }, three suggestions made from the segment's
// real figures. Another tenant's segment is a 404.
import type { ActionFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { allowMethods, methodNotAllowed, parseOrThrow, readJson } from "~/lib/api.server";
import { ID_PATTERN } from "~/lib/id";
import { messageSuggestions } from "~/services/ai.server";
import { withApi } from "~/services/auth.server";

const InputSchema = z.object({
  campaignObjective: z
    .string({ message: "campaignObjective must be text" })
    .trim()
    .max(500, "campaignObjective must be at most 500 characters")
    .default(""),
  segmentId: z.string({ message: "segmentId is required" }).regex(ID_PATTERN, "segmentId must be a segment id"),
});

export const loader = methodNotAllowed("POST");

export async function action({ request }: ActionFunctionArgs) {
  allowMethods(request, "POST");
  return withApi(request, async (user) => {
    return messageSuggestions(user.id, parseOrThrow(InputSchema, await readJson(request)));
  });
}
