// GET /api/ai/insights: the dashboard's insights (customerTrends, segmentRecommendations,
// campaignSuggestions, growthPredictions, the card's three blocks and who wrote them), made from
// the signed-in tenant's own figures and cached per tenant (app/services/dashboard/insights.server.ts).
import type { LoaderFunctionArgs } from "@remix-run/node";
import { methodNotAllowed } from "~/lib/api.server";
import { withApi } from "~/services/auth.server";
import { getInsights } from "~/services/dashboard/insights.server";

export async function loader({ request }: LoaderFunctionArgs) {
  return withApi(request, async (user) => getInsights(user.id));
}

export const action = methodNotAllowed("GET");
