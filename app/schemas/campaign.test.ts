// The wizard's step rules (docs/rules.md#campaign-wizard), as the schemas the wizard's action and
// POST /api/campaigns both parse with: each refusal's message, and what is only a warning.
import { describe, expect, it } from "vitest";
import { hasNamePlaceholder } from "~/lib/campaigns";
import {
  CAMPAIGN_MESSAGES,
  CampaignApiSchema,
  withCampaignRules,
  CampaignAudienceSchema,
  CampaignContentSchema,
  CampaignMessageSchema,
} from "~/schemas/campaign";

const SEGMENT = "6b04cce68a9b350c2073485b";

function messages(result: { success: boolean; error?: { issues: { path: PropertyKey[]; message: string }[] } }) {
  return Object.fromEntries((result.error?.issues ?? []).map((i) => [i.path.join("."), i.message]));
}

describe("wizard step 1 to 2: Select Audience", () => {
  it("needs a non-blank name and a chosen segment", () => {
    expect(messages(CampaignAudienceSchema.safeParse({ name: "   ", segmentId: "" }))).toEqual({
      name: CAMPAIGN_MESSAGES.name,
      segmentId: CAMPAIGN_MESSAGES.segment,
    });
    expect(messages(CampaignAudienceSchema.safeParse({}))).toEqual({
      name: "Campaign name is required",
      segmentId: "Please select a target segment",
    });
    // Something that is not a segment id is no segment at all.
    expect(messages(CampaignAudienceSchema.safeParse({ name: "June", segmentId: "nope" }))).toEqual({
      segmentId: "Please select a target segment",
    });
  });

  it("passes with both, the name trimmed", () => {
    const parsed = CampaignAudienceSchema.parse({ name: "  June Discount Campaign ", segmentId: SEGMENT });
    expect(parsed).toEqual({ name: "June Discount Campaign", segmentId: SEGMENT });
  });
});

describe("wizard step 2 to 3: Create Message", () => {
  it("needs a non-blank message", () => {
    expect(messages(CampaignMessageSchema.safeParse({ subject: "Hi", message: " \n " }))).toEqual({
      message: "Message content is required",
    });
  });

  it("a message without {NAME} passes: the missing placeholder is only a warning", () => {
    const parsed = CampaignMessageSchema.safeParse({ subject: "Hi", message: "10% off today" });
    expect(parsed.success).toBe(true);
    expect(hasNamePlaceholder("10% off today")).toBe(false);
    expect(hasNamePlaceholder("Hi {NAME}, 10% off")).toBe(true);
    expect(CAMPAIGN_MESSAGES.personalise).toBe("Consider adding {NAME} for personalization");
  });

  it("refuses an over-long message with its limit", () => {
    expect(messages(CampaignMessageSchema.safeParse({ subject: "Hi", message: "x".repeat(10_001) }))).toEqual({
      message: "Message content must be at most 10000 characters",
    });
  });
});

describe("launch: the whole campaign", () => {
  it("launches unless the status asks for a draft, and ignores a sent audience size or launch time", () => {
    const base = { name: "June", segmentId: SEGMENT, subject: "Hi {NAME}", message: "Hi {NAME}" };
    const api = withCampaignRules(CampaignApiSchema);
    expect(api.parse(base).status).toBe("Active");
    expect(api.parse({ ...base, status: "draft" }).status).toBe("Draft");
    // A time schedules, unless the status says launch now (as every status but draft did before
    // schedules); null is no time.
    const at = "2030-01-01T09:00:00+05:30";
    expect(api.parse({ ...base, scheduledAt: at })).toMatchObject({ status: "Scheduled", scheduledAt: Date.parse(at) });
    expect(api.parse({ ...base, status: "draft", scheduledAt: at }).status).toBe("Scheduled");
    expect(api.parse({ ...base, status: "Completed", scheduledAt: at })).toMatchObject({
      status: "Active",
      scheduledAt: undefined,
    });
    expect(api.parse({ ...base, scheduledAt: null }).status).toBe("Active");
    expect(api.safeParse({ ...base, status: "scheduled" }).error?.issues[0]?.message).toBe(
      "scheduledAt is required to schedule a campaign",
    );
    const parsed = CampaignContentSchema.parse({ ...base, audienceSize: 5, launchedAt: "2020-01-01" });
    expect(parsed).toEqual({ ...base, description: "" });
  });
});
