// POST /api/segments/preview { conditions }: { count, customers } (up to 10 samples) of an
// unsaved rule set, evaluated in the database.
import type { ActionFunctionArgs } from "@remix-run/node";
import { allowMethods, methodNotAllowed, parseOrThrow, readJson } from "~/lib/api.server";
import { PreviewInputSchema } from "~/schemas/segment";
import { withApi } from "~/services/auth.server";
import { previewAudience } from "~/services/segments.server";

export async function action({ request }: ActionFunctionArgs) {
  allowMethods(request, "POST");
  return withApi(request, async (user) => {
    const input = parseOrThrow(PreviewInputSchema, await readJson(request));
    return previewAudience(user.id, input.conditions);
  });
}

export const loader = methodNotAllowed("POST");
