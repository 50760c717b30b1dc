// GET /api/customers/export?q=: the caller's customers (all, or those matching q) as a CSV
// download, streamed a page at a time.
import type { LoaderFunctionArgs } from "@remix-run/node";
import { withApi } from "~/services/auth.server";
import { customersCsvResponse } from "~/services/customer-import.server";

export async function loader({ request }: LoaderFunctionArgs) {
  return withApi(request, async (user) => customersCsvResponse(user.id, new URL(request.url).searchParams.get("q")));
}
