// GET /customers/export?q=: the signed-in user's customers (all, or the current search) as a CSV
// download for the Export CSV button, streamed from a worker thread.
import { methodNotAllowed } from "~/lib/api.server";
import { pageSearchTerm } from "~/schemas/search";
import type { LoaderFunctionArgs } from "@remix-run/node";
import { customersCsvResponse } from "~/services/background-work.server";
import { requireUser } from "~/services/auth.server";
import { viewerTimeZone } from "~/services/time-zone.server";

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  return customersCsvResponse(
    user.id,
    pageSearchTerm(new URL(request.url).searchParams),
    viewerTimeZone(request, user).timeZone,
  );
}

/** This address takes GET only: any other method is a 405 that says so. */
export const action = methodNotAllowed("GET");
