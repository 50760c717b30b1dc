// The detail page's 'Opens and clicks' card as the page renders it: the rates say they are out of
// sent, and 'Opens in total' says that a click with no image loaded counts as an open.
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { CampaignEngagement } from "~/components/campaign-engagement";

const text = renderToStaticMarkup(
  <CampaignEngagement
    engagement={{
      trackingEnabled: true,
      uniqueOpens: 40,
      uniqueClicks: 15,
      openRate: 12.5,
      clickRate: 4.7,
      totalOpens: 52,
      totalClicks: 20,
      machineOpens: 9,
      machineClicks: 2,
      links: [],
    }}
  />,
)
  .replace(/<[^>]+>/g, " ")
  .replace(/\s+/g, " ");

describe("the Opens and clicks card", () => {
  it("gives each rate its base and says what Opens in total counts", () => {
    expect(text).toContain("Opened 40 12.5% of sent");
    expect(text).toContain("Clicked 15 4.7% of sent");
    expect(text).toContain("Opens in total 52 by people; a click with no image loaded counts as an open");
  });
});
