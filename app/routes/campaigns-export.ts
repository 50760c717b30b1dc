// GET /campaigns/{id}/export?who=&bom=: one of the signed-in user's campaign's recipients, openers,
// clickers, bouncers or unsubscribers as a CSV download for the detail page's Export form, streamed
// a slice at a time (app/services/campaign-export.server.ts); `bom=1` starts it with a UTF-8 byte
// order mark for Excel on Windows. A `who` that is none of those is a 400; another user's campaign,
// or an id that is none, a 404.
import type { LoaderFunctionArgs } from "@remix-run/node";
import { methodNotAllowed } from "~/lib/api.server";
import { csvResponseWithBom, wantsBom } from "~/lib/csv-bom";
import { invariantResponse, orRespond } from "~/lib/responses";
import { requireUser } from "~/services/auth.server";
import { parseWho, WHO_REFUSED } from "~/lib/campaign-people";
import { campaignPeopleCsv } from "~/services/campaign-export.server";
import { viewerTimeZone } from "~/services/time-zone.server";

export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const search = new URL(request.url).searchParams;
  const who = parseWho(search.get("who"));
  invariantResponse(who, WHO_REFUSED, { status: 400 });
  const { stream, fileName } = await orRespond(
    campaignPeopleCsv(user.id, params.id ?? "", who, { timeZone: viewerTimeZone(request, user).timeZone }),
    "Campaign not found",
  );
  const response = new Response(stream, {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="${fileName}"`,
      "Cache-Control": "no-store",
    },
  });
  return csvResponseWithBom(response, wantsBom(search));
}

/** This address takes GET only: any other method is a 405 that says so. */
export const action = methodNotAllowed("GET");
