// GET /api/stats/historical: the caller's counts at the end of last month (previousCustomers,
// previousSegments, previousCampaigns) and the weekly series of the dashboard's charts, read from
// the daily snapshots (docs/rules.md#dashboard). It takes no input; a cache-busting _t is ignored.
import type { LoaderFunctionArgs } from "@remix-run/node";
import { methodNotAllowed } from "~/lib/api.server";
import { withApi } from "~/services/auth.server";
import { historicalStats } from "~/services/dashboard/stats.server";

export async function loader({ request }: LoaderFunctionArgs) {
  return withApi(request, (user) => historicalStats(user.id));
}

export const action = methodNotAllowed("GET");
