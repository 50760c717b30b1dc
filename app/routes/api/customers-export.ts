// GET /api/customers/export?q=: the caller's customers (all, or those matching q) as a CSV
// download, streamed a page at a time from a worker thread.
import type { LoaderFunctionArgs } from "@remix-run/node";
import { methodNotAllowed, parseOrThrow } from "~/lib/api.server";
import { CustomerExportQuerySchema } from "~/schemas/api-inputs.server";
import { withApi } from "~/services/auth.server";
import { customersCsvResponse } from "~/services/background-work.server";
import { viewerTimeZone } from "~/services/time-zone.server";

export async function loader({ request }: LoaderFunctionArgs) {
  return withApi(request, async (user) => {
    const { q } = parseOrThrow(CustomerExportQuerySchema, {
      q: new URL(request.url).searchParams.get("q") ?? undefined,
    });
    return customersCsvResponse(user.id, q ?? null, viewerTimeZone(request, user).timeZone);
  });
}

export const action = methodNotAllowed("GET");
