// The campaign detail's "Opens and clicks" card (docs/rules.md#opens-and-clicks): people who opened
// and clicked (each once) with their rates, every open and click, the machines' apart with a line
// that says what they are, and a table of the message's links with their clicks. A campaign sent
// without tracking says so instead of showing zeros.
import { FigureTile, type FigureTileProps } from "~/components/figure-tile";
import { CardCell, ColumnHeader, ListTable } from "~/components/list-table";
import { TRACKING_TEXTS } from "~/lib/engagement";
import { formatCount, formatRate } from "~/lib/numbers";
import type { CampaignEngagementDto } from "~/services/campaign-engagement.server";

/** What the card says beside figures whose base is not plain. */
export const ENGAGEMENT_NOTES = {
  /** A click from someone whose mail app did not load the image is an open too (images off). */
  opensInTotal: "by people; a click with no image loaded counts as an open",
} as const;

/** The card's figures: campaignEngagement() in app/services/campaign-engagement.server.ts. */
export type CampaignEngagementView = CampaignEngagementDto;

/** The header cell of a column of figures in the links table. */
const FIGURE_HEAD = "w-24 px-3 py-2 text-right font-medium sm:w-28";

/** A figure of the card, its test id under "engagement-". */
function Figure(props: FigureTileProps) {
  return <FigureTile {...props} testId={`engagement-${props.testId}`} />;
}

export function CampaignEngagement({ engagement: e }: { engagement: CampaignEngagementView }) {
  return (
    <section className="card space-y-4 p-5" aria-labelledby="engagement-title" data-testid="campaign-engagement">
      <h3 id="engagement-title" className="font-semibold text-slate-900">
        Opens and clicks
      </h3>
      {!e.trackingEnabled ? (
        <p className="text-sm text-slate-600" data-testid="engagement-not-tracked">
          {TRACKING_TEXTS.notTracked}
        </p>
      ) : (
        <>
          <div className="grid grid-cols-2 gap-3 sm:grid-cols-3">
            <Figure
              label="Opened"
              value={formatCount(e.uniqueOpens)}
              note={`${formatRate(e.openRate)} of sent`}
              testId="unique-opens"
            />
            <Figure
              label="Clicked"
              value={formatCount(e.uniqueClicks)}
              note={`${formatRate(e.clickRate)} of sent`}
              testId="unique-clicks"
            />
            <Figure
              label="Opens in total"
              value={formatCount(e.totalOpens)}
              note={ENGAGEMENT_NOTES.opensInTotal}
              testId="total-opens"
            />
            <Figure label="Clicks in total" value={formatCount(e.totalClicks)} testId="total-clicks" />
            <Figure label="Machine opens" value={formatCount(e.machineOpens)} testId="machine-opens" />
            <Figure label="Machine clicks" value={formatCount(e.machineClicks)} testId="machine-clicks" />
          </div>
          <p className="text-xs text-slate-500">
            Opened and Clicked count people, each once. {TRACKING_TEXTS.machines}
          </p>
          {e.links.length === 0 ? (
            <p className="text-sm text-slate-600" data-testid="engagement-no-links">
              The message has no links.
            </p>
          ) : (
            <ListTable
              fixed
              data-testid="engagement-links"
              caption="Clicks by link"
              head={
                <>
                  <ColumnHeader className="px-3 py-2 font-medium">Link</ColumnHeader>
                  <ColumnHeader className={FIGURE_HEAD}>People</ColumnHeader>
                  <ColumnHeader className={FIGURE_HEAD}>Clicks</ColumnHeader>
                  <ColumnHeader className={FIGURE_HEAD}>Machine clicks</ColumnHeader>
                </>
              }
            >
              {e.links.map((link) => (
                <tr key={link.index} data-testid="engagement-link" className="align-top">
                  <td className="break-all px-3 py-2 text-slate-800" data-testid="engagement-link-url">
                    {link.url}
                  </td>
                  <CardCell label="People" className="px-3 py-2 text-slate-700 sm:text-right">
                    <span data-testid="engagement-link-unique">{formatCount(link.uniqueClicks)}</span>
                  </CardCell>
                  <CardCell label="Clicks" className="px-3 py-2 text-slate-700 sm:text-right">
                    <span data-testid="engagement-link-clicks">{formatCount(link.clicks)}</span>
                  </CardCell>
                  <CardCell label="Machine clicks" className="px-3 py-2 text-slate-500 sm:text-right">
                    <span data-testid="engagement-link-machine">{formatCount(link.machineClicks)}</span>
                  </CardCell>
                </tr>
              ))}
            </ListTable>
          )}
        </>
      )}
    </section>
  );
}
