// GET /suppressions/export: the signed-in user's whole suppression list as a CSV download for the
// Export CSV button (email, reason, campaign, created_at; dates in the viewer's time zone), streamed
// a slice at a time; `?bom=1` starts it with a UTF-8 byte order mark for Excel on Windows
// (app/lib/csv-bom.ts). The file imports back on /suppressions.
import type { LoaderFunctionArgs } from "@remix-run/node";
import { methodNotAllowed } from "~/lib/api.server";
import { csvResponseWithBom, wantsBom } from "~/lib/csv-bom";
import { requireUser } from "~/services/auth.server";
import { exportSuppressionsCsv, suppressionsExportFileName } from "~/services/suppressions-csv.server";
import { viewerTimeZone } from "~/services/time-zone.server";

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const response = new Response(exportSuppressionsCsv(user.id, { timeZone: viewerTimeZone(request, user).timeZone }), {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="${suppressionsExportFileName()}"`,
      "Cache-Control": "no-store",
    },
  });
  return csvResponseWithBom(response, wantsBom(new URL(request.url).searchParams));
}

/** This address takes GET only: any other method is a 405 that says so. */
export const action = methodNotAllowed("GET");
