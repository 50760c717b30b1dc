// GET /api/suppressions/export: the caller's whole suppression list as a CSV download (email,
// reason, campaign, created_at), by address, a slice at a time; it imports back through
// POST /api/suppressions/import.
import type { LoaderFunctionArgs } from "@remix-run/node";
import { methodNotAllowed } from "~/lib/api.server";
import { withApi } from "~/services/auth.server";
import { exportSuppressionsCsv, suppressionsExportFileName } from "~/services/suppressions-csv.server";
import { viewerTimeZone } from "~/services/time-zone.server";

export async function loader({ request }: LoaderFunctionArgs) {
  return withApi(request, async (user) => {
    const stream = exportSuppressionsCsv(user.id, { timeZone: viewerTimeZone(request, user).timeZone });
    return new Response(stream, {
      headers: {
        "Content-Type": "text/csv; charset=utf-8",
        "Content-Disposition": `attachment; filename="${suppressionsExportFileName()}"`,
        "Cache-Control": "no-store",
      },
    });
  });
}

export const action = methodNotAllowed("GET");
