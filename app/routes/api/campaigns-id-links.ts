// GET /api/campaigns/{id}/links: the links of the campaign's message, each distinct address once in
// the order the message has them, with its clicks by people and by machines apart
// (docs/rules.md#opens-and-clicks). Another tenant's campaign is a 404.
import type { LoaderFunctionArgs } from "@remix-run/node";
import { jsonResponse, methodNotAllowed } from "~/lib/api.server";
import { withApi } from "~/services/auth.server";
import { campaignLinks } from "~/services/campaign-engagement.server";

export async function loader({ request, params }: LoaderFunctionArgs) {
  return withApi(request, async (user) => jsonResponse(await campaignLinks(user.id, params.id ?? "")));
}

export const action = methodNotAllowed("GET");
