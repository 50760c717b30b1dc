import { describe, expect, it } from "vitest";
import { parseStoryCursor, storyCursor, storyParts, storyText, storyTone, STORY_KINDS } from "./customer-story";

const entry = (kind: (typeof STORY_KINDS)[number], more: Partial<Parameters<typeof storyText>[0]> = {}) => ({
  kind,
  campaignName: "Diwali Dhamaka",
  details: "",
  link: null,
  reason: "",
  ...more,
});

describe("the story's sentences", () => {
  it("puts the campaign's name where the sentence has it", () => {
    expect(storyParts(entry("received"))).toEqual({
      before: "Received ",
      campaign: "Diwali Dhamaka",
      after: "",
      detail: "",
    });
    expect(storyText(entry("bounced"))).toBe("Diwali Dhamaka bounced");
    expect(storyText(entry("complained"))).toBe("Marked Diwali Dhamaka as spam");
    expect(storyText(entry("unsubscribed"))).toBe("Unsubscribed from Diwali Dhamaka");
    expect(storyText(entry("unsubscribed", { campaignName: " " }))).toBe("Unsubscribed");
    expect(storyText(entry("suppressed", { reason: "manual", campaignName: "" }))).toBe("Suppressed by hand");
    expect(storyText(entry("suppressed", { reason: "hard-bounced", campaignName: "" }))).toBe(
      "Put on the suppression list after a hard bounce",
    );
    expect(storyText(entry("bounced", { campaignName: "" }))).toBe("A campaign bounced");
    expect(storyText(entry("received", { campaignName: "" }))).toBe("Received a campaign");
  });

  it("says why a message was not sent, once", () => {
    const parts = storyParts(entry("not-sent", { details: "Not sent: the address was unsubscribed on 25 Nov 2026" }));
    expect(`${parts.campaign}${parts.after}`).toBe("Diwali Dhamaka was not sent");
    expect(parts.detail).toBe("The address was unsubscribed on 25 Nov 2026");
  });

  it("names a clicked link by its address, or by its number when the address is not known", () => {
    expect(storyParts(entry("clicked", { link: { number: 2, url: "https://shop.in/sale" } })).detail).toBe(
      "https://shop.in/sale",
    );
    expect(storyParts(entry("clicked", { link: { number: 2, url: "" } })).detail).toBe("Link 2");
    expect(storyParts(entry("clicked")).detail).toBe("");
  });

  it("says a privacy proxy's open is not the customer's", () => {
    expect(storyParts(entry("machine-opened")).detail).toContain("not counted as an open");
    expect(storyTone("machine-opened")).toBe("quiet");
  });

  it("has a sentence and a tone for every kind", () => {
    for (const kind of STORY_KINDS) {
      expect(storyText(entry(kind, { reason: "hard-bounced" }))).not.toBe("");
      expect(["good", "bad", "list", "quiet"]).toContain(storyTone(kind));
    }
  });
});

describe("the story's cursor", () => {
  it("reads back what it wrote, and nothing else", () => {
    expect(parseStoryCursor(storyCursor(1764140000000, "3-000000000042-1"))).toEqual({
      at: 1764140000000,
      key: "3-000000000042-1",
    });
    for (const bad of [null, "", "yesterday", "1.2", "12.9-x", "12.3-ABC", `${"9".repeat(16)}.1-1`])
      expect(parseStoryCursor(bad)).toBeNull();
  });
});
