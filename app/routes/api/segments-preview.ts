// POST /api/segments/preview { conditions }: { count, customers } (up to 10 samples) of an
// unsaved rule set, evaluated in the database.
import type { ActionFunctionArgs } from "@remix-run/node";
import { ApiError, parseOrThrow, readJson } from "~/lib/api.server";
import { PreviewInputSchema } from "~/schemas/segment";
import { withApi } from "~/services/auth.server";
import { previewAudience } from "~/services/segments.server";

export async function action({ request }: ActionFunctionArgs) {
  return withApi(request, async (user) => {
    if (request.method !== "POST")
      throw new ApiError("bad_request", `Use POST to preview an audience, not ${request.method}`);
    const input = parseOrThrow(PreviewInputSchema, await readJson(request));
    return previewAudience(user.id, input.conditions);
  });
}

export async function loader({ request }: ActionFunctionArgs) {
  return withApi(request, async () => {
    throw new ApiError("bad_request", "Use POST with { conditions } to preview an audience");
  });
}
