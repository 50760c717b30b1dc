// What the campaign wizard (app/routes/campaigns-wizard.tsx) asks the server about the segment it
// is shown with: a sample of its customers for the audience preview, who a launch to it would reach
// now for the Review step, and whether it has no customers (which a launch or a draft refuses).
// Each answers null for no segment, or one that is not the user's: the wizard shows nothing then.
import type { SegmentReach } from "~/components/audience-reach";
import type { AudienceSample } from "~/components/campaign-wizard-parts";
import { ApiError } from "~/lib/api.server";
import { isId } from "~/lib/id";
import type { IsEmpty } from "~/schemas/campaign-wizard";
import { audienceReach } from "~/services/campaigns/reach.server";
import { segmentAudienceCount, segmentOverview } from "~/services/segments.server";

/** The segment's size and its first customers, as the audience preview shows them. */
export async function wizardSample(userId: string, segmentId: string): Promise<AudienceSample | null> {
  if (!isId(segmentId)) return null;
  try {
    const { count, customers } = await segmentOverview(userId, segmentId);
    return {
      segmentId,
      count,
      customers: customers.map((c) => ({ _id: c.id, firstName: c.firstName, lastName: c.lastName, email: c.email })),
    };
  } catch (error) {
    if (error instanceof ApiError) return null;
    throw error;
  }
}

/** Who a launch to the segment would reach now (null for no segment, or one that is not the user's). */
export async function wizardReach(userId: string, segmentId: string): Promise<SegmentReach | null> {
  if (!isId(segmentId)) return null;
  try {
    return { segmentId, ...(await audienceReach(userId, segmentId)) };
  } catch (error) {
    if (error instanceof ApiError) return null;
    throw error;
  }
}

/** Whether the segment the form chose has no customers now (an unknown one is left to the schema). */
export async function emptySegmentCheck(userId: string, formData: FormData): Promise<IsEmpty> {
  const chosen = String(formData.get("segmentId") ?? "").trim();
  const count = isId(chosen) ? await segmentAudienceCount(userId, chosen).catch(() => null) : null;
  return (segmentId) => segmentId === chosen && count === 0;
}
