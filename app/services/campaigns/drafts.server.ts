// Drafts of one tenant's campaigns: the campaign a save or a launch writes from the form's content
// (its segment's name, or a resend's source), which campaign it writes (CampaignTarget), and the
// save itself.
import { ApiError } from "~/lib/api.server";
import { newId } from "~/lib/id";
import { type CampaignRow, campaigns, type NewCampaign } from "~/models/campaigns/store.server";
import { launches } from "~/models/launch/store.server";
import { segmentAudience } from "~/models/segments/audience/store.server";
import type { CompiledWhere } from "~/models/segments/audience/rows";
import type { SegmentNode } from "~/lib/segments";
import { type CampaignContent } from "~/schemas/campaign";
import { type CampaignDto, findCampaign, getCampaign } from "~/services/campaigns/views.server";
import { resendReach } from "~/services/campaigns/reach.server";
import { withSegmentReference } from "~/services/segment-references.server";
import { getSegment, segmentAudienceCount } from "~/services/segments.server";
import { templateForCampaign } from "~/services/campaigns/campaign-template.server";

/** The campaign to write, and the segment it is sent to (null for a resend: its audience is its source's non-openers). */
type Content = {
  campaign: Omit<NewCampaign, "id">;
  segment: { id: string; name: string; tree: SegmentNode } | null;
};

/**
 * The campaign to write from the form's content and its segment (a 404 on the field if unknown):
 * the segments domain is asked once, for the segment's name and rules together. A resend draft
 * keeps its audience (the non-openers of its source: the form's segment is not read) and its
 * tracking switch.
 */
async function contentOf(userId: string, input: CampaignContent, draft?: CampaignRow | null): Promise<Content> {
  const message = await messageOf(userId, input, draft);
  if (draft?.resendOfId) {
    return {
      campaign: {
        userId,
        segmentId: null,
        segmentName: draft.segmentName,
        name: input.name,
        description: input.description,
        ...message,
        trackingEnabled: draft.trackingEnabled,
        resendOfId: draft.resendOfId,
      },
      segment: null,
    };
  }
  const segment = await getSegment(userId, input.segmentId).catch((error: unknown) => {
    if (error instanceof ApiError && error.status === 404) {
      throw new ApiError("not_found", "Segment not found", { segmentId: "Segment not found" });
    }
    throw error;
  });
  return {
    campaign: {
      userId,
      segmentId: segment.id,
      segmentName: segment.name,
      name: input.name,
      description: input.description,
      ...message,
      trackingEnabled: input.trackingEnabled === false ? 0 : 1,
    },
    segment,
  };
}

/**
 * The campaign's subject and message: written as plain text, or made from a template (its design
 * frozen into the campaign, its tags checked: templateForCampaign). A draft that was made from a
 * template keeps its design while its message is the one it was made with (a resend draft, a
 * draft saved again without naming the template).
 */
async function messageOf(
  userId: string,
  input: CampaignContent,
  draft?: CampaignRow | null,
): Promise<Pick<NewCampaign, "subject" | "message" | "templateId" | "design">> {
  if (input.templateId) return templateForCampaign(userId, input.templateId, input);
  if (draft?.design && (input.message === "" || sameText(input.message, draft.message))) {
    return {
      subject: input.subject || draft.subject,
      message: draft.message,
      templateId: draft.templateId,
      design: draft.design,
    };
  }
  return { subject: input.subject, message: input.message, templateId: null, design: "" };
}

/** Two messages alike but for line endings and the spaces around them (a form trims and sends CRLF). */
const sameText = (a: string, b: string) => a.replace(/\r\n?/g, "\n").trim() === b.replace(/\r\n?/g, "\n").trim();

/**
 * The campaign a launch writes and its audience source, the one launch path for both: the WHERE of
 * its segment's rules (compiled from the segment the content read, in the engine's dialect), or
 * the non-openers of the campaign it resends.
 */
export async function launchContent(
  userId: string,
  input: CampaignContent,
  draft?: CampaignRow | null,
): Promise<{ campaign: Omit<NewCampaign, "id">; where: CompiledWhere }> {
  const { campaign, segment } = await contentOf(userId, input, draft);
  const where = segment
    ? segmentAudience.audienceWhere(userId, await launchTree(userId, segment))
    : launches.nonOpenersWhere(userId, campaign.resendOfId ?? "");
  return { campaign, where };
}

/**
 * The segment's tree as a launch takes it: every segment it includes read strictly, so a segment
 * whose included one is gone (or that loops) is refused (422) rather than sent to the customers
 * "not in" a segment that no longer exists.
 */
async function launchTree(userId: string, segment: { id: string; name: string; tree: SegmentNode }) {
  try {
    return await withSegmentReference(userId, segment.tree, { strict: true, selfId: segment.id });
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    throw new ApiError(
      "unprocessable",
      `The segment "${segment.name}" cannot be sent to: ${error.message.replace(/^conditions[^:]*: /, "")}. Edit its conditions and launch again.`,
    );
  }
}

/** Which campaign a save or launch writes, as the caller has it. */
export type CampaignTarget = {
  /** The draft to change or launch in place; anything else is a 409. */
  draftId?: string;
  /**
   * The campaign a page is editing: a draft is saved or launched in place; a campaign that has
   * started keeps its record, and the save or launch makes a new one.
   */
  editing?: string;
};

/** The draft a save or launch writes in place (undefined: a new campaign). */
export async function draftInPlace(userId: string, target: CampaignTarget): Promise<string | undefined> {
  if (target.draftId) return target.draftId;
  if (!target.editing) return undefined;
  const current = await findCampaign(userId, target.editing);
  return current.status === "Draft" ? current.id : undefined;
}

/**
 * Saves a campaign without launching it: changes the draft (`target` as an id, or its `draftId`),
 * saves the campaign a page is editing by the draft rule (`target.editing`, see CampaignTarget),
 * or makes a new one (under the id `createAs` when an idempotency key reserved it).
 */
export async function saveDraft(
  userId: string,
  input: CampaignContent,
  target?: string | CampaignTarget,
  createAs?: string,
): Promise<CampaignDto> {
  const id = await draftInPlace(userId, typeof target === "string" ? { draftId: target } : (target ?? {}));
  const draft = id ? await findCampaign(userId, id) : null;
  const { campaign } = await contentOf(userId, input, draft);
  // A draft shows the audience it would have today; a launch counts it as it writes it.
  const audience = campaign.resendOfId
    ? (await resendReach(userId, campaign.resendOfId)).audience
    : await segmentAudienceCount(userId, campaign.segmentId ?? "");
  if (id) {
    if (!(await campaigns.updateDraft({ ...campaign, id }, audience))) {
      throw new ApiError(
        "conflict",
        "Only a draft can be changed; this campaign has been launched. Launch a new one instead.",
      );
    }
    return getCampaign(userId, id);
  }
  const created = createAs ?? newId();
  await campaigns.insertDraft({ ...campaign, id: created }, audience);
  return getCampaign(userId, created);
}
