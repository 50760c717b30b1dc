// The dashboard's Campaign Performance as the page renders it: each average rate says what it is out
// of beside it (the campaign detail's open and click rates are out of sent: the same word must not
// hide another base), with the counts under it.
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { CampaignPerformance } from "~/components/dashboard/campaign-performance";

const html = renderToStaticMarkup(
  <CampaignPerformance
    performance={{
      deliveryRate: 99.7,
      openRate: 12.5,
      clickRate: 42.5,
      attempted: 320,
      delivered: 319,
      opened: 40,
      clicked: 17,
    }}
  />,
);

/** The text of one rate's row, tags dropped. */
function row(label: string): string {
  const start = html.indexOf(`data-testid="rate-${label}"`);
  const end = html.indexOf('data-testid="rate-Average', start + 10);
  return html
    .slice(start, end < 0 ? undefined : end)
    .replace(/<[^>]+>/g, " ")
    .replace(/\s+/g, " ");
}

describe("Campaign Performance", () => {
  it("says each rate's base beside it: of attempted, of delivered, of openers", () => {
    expect(row("Average Delivery Rate")).toContain("99.7% of attempted");
    expect(row("Average Open Rate")).toContain("12.5% of delivered");
    expect(row("Average Click Rate")).toContain("42.5% of openers");
    expect(row("Average Click Rate")).toContain("17 clicked of 40 opened");
  });
});
