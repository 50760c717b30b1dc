// GET /api/flows/{id}/people: who is in the flow and where, the latest entered first (`?state=`
// active, done or converted; `?limit=` 1–500, 50 when absent).
import type { LoaderFunctionArgs } from "@remix-run/node";
import { methodNotAllowed, parseOrThrow } from "~/lib/api.server";
import { FlowPeopleQuerySchema } from "~/schemas/flow";
import { withApi } from "~/services/auth.server";
import { flowPeople } from "~/services/flows/flows.server";

export async function loader({ request, params }: LoaderFunctionArgs) {
  return withApi(request, async (user) => {
    const search = new URL(request.url).searchParams;
    const query = parseOrThrow(FlowPeopleQuerySchema, {
      state: search.get("state") ?? undefined,
      limit: search.get("limit") ?? undefined,
    });
    return { people: await flowPeople(user.id, params.id ?? "", query) };
  });
}

export const action = methodNotAllowed("GET");
