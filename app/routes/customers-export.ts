// GET /customers/export?q=&bom=: the signed-in user's customers (all, or the current search) as a CSV
// download for the Export CSV button, streamed from a worker thread; `bom=1` starts it with a UTF-8
// byte order mark for Excel on Windows (app/lib/csv-bom.ts).
import { methodNotAllowed } from "~/lib/api.server";
import { csvResponseWithBom, wantsBom } from "~/lib/csv-bom";
import { pageSearchTerm } from "~/schemas/search";
import type { LoaderFunctionArgs } from "@remix-run/node";
import { customersCsvResponse } from "~/services/background-work.server";
import { requireUser } from "~/services/auth.server";
import { viewerTimeZone } from "~/services/time-zone.server";

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const params = new URL(request.url).searchParams;
  return csvResponseWithBom(
    customersCsvResponse(user.id, pageSearchTerm(params), viewerTimeZone(request, user).timeZone),
    wantsBom(params),
  );
}

/** This address takes GET only: any other method is a 405 that says so. */
export const action = methodNotAllowed("GET");
