// POST /api/ai/message-suggestions: { campaignObjective, segmentId } → { suggestions: [{ message,
// tone, expectedResponse }], source: "llm" | "local" }, three suggestions made from the segment's
// real figures. Another tenant's segment is a 404.
import type { ActionFunctionArgs } from "@remix-run/node";
import { allowMethods, methodNotAllowed, parseOrThrow, readJson } from "~/lib/api.server";
import { MessageSuggestionsInputSchema } from "~/schemas/api-inputs.server";
import { messageSuggestions } from "~/services/ai.server";
import { withApi } from "~/services/auth.server";

export const loader = methodNotAllowed("POST");

export async function action({ request }: ActionFunctionArgs) {
  allowMethods(request, "POST");
  return withApi(request, async (user) => {
    return messageSuggestions(user.id, parseOrThrow(MessageSuggestionsInputSchema, await readJson(request)));
  });
}
