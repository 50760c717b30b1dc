// The Campaign Details tab of a campaign's page (app/routes/campaigns-detail.tsx): what the campaign
// is (name, subject, segment, status, launch, audience, message), its delivery figures with the
// success rate's band and a progress bar, and the export of the people it reached. The route reads
// the campaign and refreshes it while it sends; these only lay it out.
import type { ReactNode } from "react";
import { CampaignStatusChip, Chip, NoRateChip, ProgressBar } from "~/components/campaign-chips";
import { CsvExportForm } from "~/components/csv-export-form";
import { DateTime } from "~/components/date-time";
import { CAMPAIGN_PEOPLE, CAMPAIGN_PEOPLE_LABELS } from "~/lib/campaign-people";
import { isScheduled, successBand, successBandColour } from "~/lib/campaigns";
import { NO_RATE, formatCount } from "~/lib/numbers";
import { segmentChipClass } from "~/lib/segment-descriptions";
import type { CampaignDto } from "~/services/campaigns/views.server";

/** One of the delivery figures, with what it is out of when it is a rate. */
function Figure({
  label,
  value,
  note,
  testId,
}: {
  label: string;
  value: ReactNode;
  /** What the figure is out of, when it is a rate ("of attempted: 319 of 320"). */
  note?: string;
  testId: string;
}) {
  return (
    <div className="rounded-lg border border-slate-100 bg-slate-50 p-3">
      <p className="text-xs uppercase tracking-wide text-slate-500">{label}</p>
      <p className="text-xl font-semibold text-slate-900" data-testid={`figure-${testId}`}>
        {value}
      </p>
      {note ? (
        <p className="text-xs text-slate-500" data-testid={`figure-${testId}-base`}>
          {note}
        </p>
      ) : null}
    </div>
  );
}

/** A fact of the campaign: its name over its value. */
function Row({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="min-w-0">
      <dt className="text-xs uppercase tracking-wide text-slate-500">{label}</dt>
      <dd className="mt-0.5 break-words text-slate-800">{children}</dd>
    </div>
  );
}

/** What the campaign is: its name, subject, segment, status, launch, audience and message. */
export function CampaignFacts({
  campaign: c,
  name,
  designPreview = null,
}: {
  campaign: CampaignDto;
  name: string;
  /** A message made from a template: its design as sent, for a customer with empty fields. */
  designPreview?: { subject: string; html: string } | null;
}) {
  const segmentName = c.segment?.name || "Unnamed Segment";
  return (
    <section className="card p-5" aria-label="Campaign">
      <dl className="grid gap-4 sm:grid-cols-2">
        <Row label="Name">{name}</Row>
        <Row label="Subject">{c.subject || "No subject"}</Row>
        <Row label="Segment">
          <span
            className={`inline-block max-w-full break-words rounded-xl px-3 py-0.5 text-sm font-medium ${segmentChipClass(segmentName)}`}
            data-testid="campaign-segment"
          >
            {segmentName}
          </span>
        </Row>
        <Row label="Status">
          <span className="flex flex-wrap items-center gap-2">
            <CampaignStatusChip status={c.status} scheduled={isScheduled(c)} />
            {c.statusDetail ? (
              <span className="text-sm text-slate-600" data-testid="status-detail">
                {c.statusDetail}
              </span>
            ) : null}
          </span>
        </Row>
        {isScheduled(c) ? (
          <Row label="Scheduled for">
            <DateTime value={c.scheduledAt} format="dateTime" testId="campaign-scheduled-at" />
          </Row>
        ) : (
          <Row label="Launched">
            {c.launchedAt ? <DateTime value={c.launchedAt} format="dateTime" /> : "Not launched"}
          </Row>
        )}
        <Row label="Audience">
          {formatCount(c.audienceSize)} customers
          {c.suppressedAtLaunch > 0 ? (
            <span className="block text-sm text-slate-600" data-testid="suppressed-at-launch">
              Left out at launch: {formatCount(c.suppressedAtLaunch)} suppressed
            </span>
          ) : null}
        </Row>
        <div className="sm:col-span-2">
          <Row label="Message">
            {designPreview ? (
              <span className="block space-y-2" data-testid="campaign-design">
                <span className="block text-sm text-slate-600">
                  Made from a template; as a customer with empty fields gets it (the links are examples).
                </span>
                <iframe
                  title="The campaign's message"
                  sandbox=""
                  srcDoc={designPreview.html}
                  className="block h-[32rem] w-full max-w-[600px] rounded-lg border border-slate-200 bg-white"
                />
              </span>
            ) : (
              <span
                className="block whitespace-pre-wrap rounded-lg bg-slate-50 p-3 text-sm"
                data-testid="campaign-message"
              >
                {c.message}
              </span>
            )}
          </Row>
        </div>
      </dl>
    </section>
  );
}

/**
 * The delivery figures: how far the send has got, each count, and the success rate with its band
 * (no rate before anything was delivered, failed or bounced: docs/rules.md#numbers).
 */
export function DeliveryFigures({ campaign: c, unsubscribed }: { campaign: CampaignDto; unsubscribed: number }) {
  const stats = c.deliveryStats;
  const rate = stats.successRateValue;
  const band = rate === null ? null : successBand(rate);
  return (
    <section className="card space-y-4 p-5" aria-labelledby="delivery-title">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h3 id="delivery-title" className="font-semibold text-slate-900">
          Delivery
        </h3>
        <span className="text-sm text-slate-600" data-testid="campaign-progress">
          {c.progress}% processed
        </span>
      </div>
      <ProgressBar
        value={c.progress}
        label="Delivery progress"
        colour={c.status === "Paused" ? "warning" : c.status === "Completed" ? "success" : "primary"}
      />
      <div className="grid grid-cols-2 gap-3 sm:grid-cols-4">
        <Figure label="Sent" value={formatCount(stats.sent)} testId="sent" />
        <Figure label="Delivered" value={formatCount(stats.delivered)} testId="delivered" />
        <Figure label="Failed" value={formatCount(stats.failed)} testId="failed" />
        <Figure label="Bounced" value={formatCount(stats.bounced)} testId="bounced" />
        <Figure label="Unsubscribed" value={formatCount(unsubscribed)} testId="unsubscribed" />
        <Figure label="Complained" value={formatCount(stats.complained)} testId="complained" />
        {c.softBounceCount > 0 ? (
          <Figure label="Soft bounces" value={formatCount(c.softBounceCount)} testId="soft-bounces" />
        ) : null}
        <Figure label="Opened" value={formatCount(stats.opened)} testId="opened" />
        <Figure label="Clicked" value={formatCount(stats.clicked)} testId="clicked" />
        <Figure label="Pending" value={formatCount(stats.pending)} testId="pending" />
        {stats.cancelled > 0 ? (
          <Figure label="Cancelled" value={formatCount(stats.cancelled)} testId="cancelled" />
        ) : null}
        <Figure label="Suppressed" value={formatCount(stats.suppressed)} testId="suppressed" />
        <Figure
          label="Success Rate"
          testId="success-rate"
          note={
            stats.attempted > 0
              ? `of attempted: ${formatCount(stats.delivered + stats.complained)} of ${formatCount(stats.attempted)}`
              : "of attempted"
          }
          value={
            <span className="flex flex-wrap items-center gap-2">
              {band ? stats.successRate : NO_RATE}
              {band ? (
                <Chip colour={successBandColour[band]} testId="success-band">
                  {band}
                </Chip>
              ) : (
                <NoRateChip sent={c.status === "Draft" ? 0 : stats.sent} testId="success-band" />
              )}
            </span>
          }
        />
      </div>
      <p className="text-xs text-slate-500">
        Success rate is delivered out of delivered, failed, bounced and complained (a message reported as spam reached
        the mailbox). Suppressed are recipients whose address was unsubscribed, bounced or added to the suppression list
        after the launch: nothing more was sent to them. Unsubscribed are recipients who unsubscribed through this
        campaign&rsquo;s link; Complained, those who reported it as spam.
      </p>
    </section>
  );
}

/** The export of the people a launched campaign concerns (recipients, openers, clickers, …) as CSV. */
export function ExportPeople({ campaignId }: { campaignId: string }) {
  return (
    <section className="card space-y-3 p-5" aria-labelledby="export-title">
      <h3 id="export-title" className="font-semibold text-slate-900">
        Export people
      </h3>
      <CsvExportForm id="campaign-export" action={`/campaigns/${campaignId}/export`}>
        <label htmlFor="campaign-export-who" className="text-sm text-slate-700">
          Who
        </label>
        <select id="campaign-export-who" name="who" className="input w-auto" defaultValue="recipients">
          {CAMPAIGN_PEOPLE.map((who) => (
            <option key={who} value={who}>
              {CAMPAIGN_PEOPLE_LABELS[who]}
            </option>
          ))}
        </select>
      </CsvExportForm>
    </section>
  );
}
