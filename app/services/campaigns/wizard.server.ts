// What the campaign wizard (app/routes/campaigns-wizard.tsx) asks the server: what it starts from
// (wizardStart), and about the segment it is shown with: a sample of its customers for the
// audience preview, who a launch to it would reach now for the Review step, and whether it has no
// customers (which a launch or a draft refuses). The segment's answers are null for no segment, or
// one that is not the user's: the wizard shows nothing then.
import type { SegmentReach } from "~/components/audience-reach";
import type { AudienceSample } from "~/components/campaign-wizard-parts";
import { ApiError } from "~/lib/api.server";
import { readDesign } from "~/lib/campaign-design";
import { wallTimeOf } from "~/lib/dates";
import { isId } from "~/lib/id";
import type { IsEmpty, WizardValues } from "~/schemas/campaign-wizard";
import { audienceReach, resendReach } from "~/services/campaigns/reach.server";
import { type CampaignDto, findCampaign, getCampaign } from "~/services/campaigns/views.server";
import { listTemplates } from "~/services/templates.server";
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

/**
 * What the wizard starts from: the form's values (a draft's own, or a new campaign's with the
 * segment and template its address asked for), the templates to choose from, and a resend draft's
 * fixed audience. A segment since deleted (or not the user's, not in `segmentIds`) is not chosen:
 * the user picks again. A scheduled draft's time is shown as a wall-clock time in `timeZone`.
 */
export async function wizardStart(
  userId: string,
  campaign: CampaignDto | null,
  asked: { segmentId: string; templateId: string },
  segmentIds: string[],
  timeZone: string,
) {
  const draft = campaign?.status === "Draft" ? campaign : null;
  const askedSegment = campaign?.segmentId ?? asked.segmentId;
  const segmentId = segmentIds.includes(askedSegment) ? askedSegment : "";
  // A resend draft's fixed audience: the non-openers of its source campaign, counted now.
  const resend = draft?.resendOfId
    ? {
        sourceName: await getCampaign(userId, draft.resendOfId).then(
          (source) => source.name,
          () => null,
        ),
        reach: await resendReach(userId, draft.resendOfId),
      }
    : null;
  const templates = (await listTemplates(userId)).map(({ id, name, subject, starter, fromName, replyTo }) => {
    return { id, name, subject, starter, fromName, replyTo };
  });
  // The template the message starts from: a draft's (while it exists), or the one the Templates
  // screen's "Use in a campaign" asked for. A resend draft keeps its source's frozen design (it is
  // not made again from the template).
  const askedTemplate = draft ? (draft.resendOfId ? "" : (draft.templateId ?? "")) : asked.templateId;
  // A draft made from a template: the From name, Reply-To and preheader it was given.
  const design = draft ? readDesign((await findCampaign(userId, draft.id)).design) : null;
  const values: WizardValues = {
    name: campaign?.name ?? "",
    segmentId,
    templateId: templates.some((t) => t.id === askedTemplate) ? askedTemplate : "",
    fromName: design?.fromName ?? "",
    replyTo: design?.replyTo ?? "",
    preheader: design?.preheader ?? "",
    subject: campaign?.subject ?? "",
    message: campaign?.message ?? "",
    description: campaign?.description ?? "",
    // On for a new campaign (docs/rules.md#opens-and-clicks).
    trackingEnabled: campaign?.trackingEnabled ?? true,
    scheduledAt: draft?.scheduledAt ? wallTimeOf(draft.scheduledAt, timeZone) : "",
  };
  return { segmentId, resend, templates, values };
}
