// GET /campaigns/reach?segmentId=: who a launch to one of the signed-in user's segments would reach
// now: { segmentId, audience, suppressed, receivers } (the wizard's Review step says it with
// audienceReachText). A missing or malformed id is a 400, another user's or an unknown segment a 404.
import type { LoaderFunctionArgs } from "@remix-run/node";
import { data } from "@remix-run/node";
import { methodNotAllowed } from "~/lib/api.server";
import { isId } from "~/lib/id";
import { invariantResponse, orRespond } from "~/lib/responses";
import type { SegmentReach } from "~/components/audience-reach";
import { requireUser } from "~/services/auth.server";
import { audienceReach } from "~/services/campaigns/reach.server";

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const segmentId = (new URL(request.url).searchParams.get("segmentId") ?? "").trim().toLowerCase();
  invariantResponse(isId(segmentId), "Choose a segment to see who will receive the campaign.", { status: 400 });
  const reach = await orRespond(audienceReach(user.id, segmentId), "Segment not found");
  const answer: SegmentReach = { segmentId, ...reach };
  return data(answer, { headers: { "Cache-Control": "no-store" } });
}

/** This address takes GET only: any other method is a 405 that says so. */
export const action = methodNotAllowed("GET");
