// The dashboard's complaint-rate card as the page renders it: the rate with two decimals against
// the 0.1% mailbox providers ask for, the warning and what to do above it, "—" before anything was sent.
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { COMPLAINT_RATE_TEXTS, ComplaintRate } from "~/components/dashboard/complaint-rate";
import { complaintRate } from "~/services/dashboard/stats.server";

const render = (complained: number, reached: number) =>
  renderToStaticMarkup(<ComplaintRate complaints={complaintRate({ complained, reached })} />);

describe("the complaint rate card", () => {
  it("under the limit: the rate and the providers' figure, no warning", () => {
    const html = render(4, 10_000);
    expect(html).toContain("Complaint rate");
    expect(html).toMatch(/>0\.04%<\/span> <span[^>]*>\(mailbox providers ask for under 0\.1%\)/);
    expect(html).toContain("4 spam reports out of 10,000 messages sent");
    expect(html).toContain('data-over="false"');
    expect(html).not.toContain(COMPLAINT_RATE_TEXTS.whatToDo);
  });

  it("above the limit: amber, with what is wrong and what to do", () => {
    const html = render(3, 2_002);
    expect(html).toContain(">0.15%<");
    expect(html).toContain('data-over="true"');
    expect(html).toContain(COMPLAINT_RATE_TEXTS.over);
    expect(html).toContain(COMPLAINT_RATE_TEXTS.whatToDo);
    expect(html).toContain("bg-amber-50");
  });

  it("exactly at the limit is not above it; nothing sent reads —", () => {
    expect(render(1, 1_000)).toContain('data-over="false"');
    const none = render(0, 0);
    expect(none).toContain(">—<");
    expect(none).toContain("Nothing sent yet");
  });
});
