// /campaigns/{id}: Campaign Details with two tabs kept in the address (?tab=logs), so both work
// without JavaScript. Details: the content, the status, the delivery figures with the success
// rate's band and a progress bar, refreshed every few seconds while the campaign sends. Delivery
// Logs: a page of the log read on the server, filtered by status, with Next/Previous. Pause,
// Resume, Retry failed are plain forms; Cancel and Delete confirm first (?confirm=cancel|delete).
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, Link, useLoaderData, useNavigation, useParams, useSearchParams, useSubmit } from "@remix-run/react";
import {
  ArrowLeft,
  ChevronLeft,
  ChevronRight,
  Inbox,
  Pause,
  Pencil,
  Play,
  RotateCcw,
  Trash2,
  XCircle,
} from "lucide-react";
import { z } from "zod";
import {
  CampaignStatusChip,
  Chip,
  DeliveryStatusChip,
  NoRateChip,
  ProgressBar,
  useRevalidateEvery,
} from "~/components/campaign-chips";
import { ConfirmDialog } from "~/components/confirm-dialog";
import { CsvExportForm } from "~/components/csv-export-form";
import { ResendNonOpeners } from "~/components/resend-non-openers";
import { CampaignAttribution } from "~/components/campaign-attribution";
import { CampaignEngagement } from "~/components/campaign-engagement";
import { PageNotFound, RouteErrorBoundary } from "~/components/error-boundary";
import { allowMethods, ApiError, keepAllowHeader } from "~/lib/api.server";
import { BRAND } from "~/lib/brand";
import {
  deliveryChip,
  type DeliveryLogStatus,
  figuresMayChange,
  successBand,
  successBandColour,
} from "~/lib/campaigns";
import { CAMPAIGN_PEOPLE, CAMPAIGN_PEOPLE_LABELS } from "~/lib/campaign-people";
import { DateTime } from "~/components/date-time";
import { CardLabel, ResponsiveTable } from "~/components/responsive-table";
import { ID_PATTERN } from "~/lib/id";
import { invariantResponse, orRespond, refusedWith } from "~/lib/responses";
import { NO_RATE, formatCount } from "~/lib/numbers";
import { withSearchParams } from "~/lib/search-params";
import { segmentChipClass } from "~/lib/segments";
import { requireUser } from "~/services/auth.server";
import { resendOffer } from "~/services/campaign-resend.server";
import { attributionOfCampaign } from "~/services/attribution.server";
import { campaignEngagement } from "~/services/campaign-engagement.server";
import { deleteCampaign, runCampaignControl } from "~/services/campaigns/controls.server";
import { deliveryLogs, isDeliveryStatus } from "~/services/campaigns/delivery-log.server";
import { campaignUnsubscribes, getCampaign } from "~/services/campaigns/views.server";
import { redirectWithFlash } from "~/services/session.server";

// A 405 keeps its Allow header on the rendered page (app/lib/api.server.ts).
export const headers = keepAllowHeader;

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: `${data?.campaign.name ?? "Campaign Details"} · ${BRAND}` },
];

const NOT_FOUND = "Campaign not found";
const LOAD_FAILED = "Failed to load campaign details.";
const LOG_PAGE_SIZE = 50;
/** While a campaign sends, its figures are re-read this often. */
const SENDING_REFRESH_MS = 2_500;
const LOG_CURSOR = /^\d{1,15}(\.\d{1,15})?$/;

/** The log's filters: "Pending" is every row not yet sent, "Deferred" those waiting for a retry. */
const LOG_FILTER_ORDER: readonly DeliveryLogStatus[] = [
  "pending",
  "deferred",
  "sent",
  "delivered",
  "failed",
  "bounced",
  "complained",
  "cancelled",
  "suppressed",
];
const STATUS_FILTERS: readonly { value: DeliveryLogStatus | ""; label: string }[] = [
  { value: "", label: "All" },
  ...LOG_FILTER_ORDER.map((s) => ({ value: s, label: deliveryChip(s).label })),
];

export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const id = params.id ?? "";
  // A path under /campaigns that is not a campaign id (/campaigns/create) names nothing: the 404 page.
  invariantResponse(ID_PATTERN.test(id.toLowerCase()), null);
  const search = new URL(request.url).searchParams;
  const tab = search.get("tab") === "logs" ? "logs" : "details";
  const statusParam = (search.get("status") ?? "").toLowerCase();
  const status = isDeliveryStatus(statusParam) ? statusParam : null;
  const cursorParam = search.get("cursor");
  const cursor = cursorParam && LOG_CURSOR.test(cursorParam) ? cursorParam : null;
  const trail = cursor
    ? (search.get("trail") ?? "")
        .split(",")
        .filter((c) => LOG_CURSOR.test(c))
        .slice(-500)
    : [];
  const campaign = await orRespond(getCampaign(user.id, id.toLowerCase()), (error) =>
    error.status === 404 ? NOT_FOUND : LOAD_FAILED,
  );
  const logs =
    tab === "logs" ? await deliveryLogs(user.id, campaign.id, { limit: LOG_PAGE_SIZE, cursor, status }) : null;
  return {
    campaign,
    // Recipients who unsubscribed through its link (complaints are its complainedCount).
    unsubscribed: (await campaignUnsubscribes(user.id, [campaign.id]))[campaign.id] ?? 0,
    // "Resend to non-openers": offered on a completed campaign's details (docs/rules.md#resend-to-non-openers).
    resend: tab === "details" ? await resendOffer(user.id, campaign) : ({ kind: "hidden" } as const),
    // The orders it brought (docs/rules.md#revenue-per-campaign); a draft has sent nothing.
    attribution:
      tab === "details" && campaign.status !== "Draft"
        ? await attributionOfCampaign(user.id, { id: campaign.id, sent: campaign.sentCount })
        : null,
    // Opens and clicks, people and machines apart, and the clicks by link (docs/rules.md#opens-and-clicks).
    engagement: tab === "details" && campaign.status !== "Draft" ? await campaignEngagement(user.id, campaign) : null,
    tab,
    status,
    cursor,
    trail,
    logs,
    start: trail.length * LOG_PAGE_SIZE + (cursor ? LOG_PAGE_SIZE : 0) + 1,
  };
}

const ActionSchema = z.object({
  intent: z.enum(["pause", "resume", "cancel", "retry", "delete"]),
  back: z.string().optional(),
});

export async function action({ request, params }: ActionFunctionArgs) {
  allowMethods(request, "GET", "POST");
  const user = await requireUser(request);
  const id = (params.id ?? "").toLowerCase();
  const parsed = ActionSchema.safeParse(Object.fromEntries(await request.formData()));
  const here = `/campaigns/${id}`;
  if (!parsed.success)
    return redirectWithFlash(request, here, { kind: "toast", type: "error", message: "Unknown campaign action" });
  const { intent, back: asked } = parsed.data;
  const back = asked?.startsWith(here) ? asked : here;
  // A campaign that is gone (deleted already, or another user's) is a 404 with its message.
  if (intent === "delete") {
    const deleted = await orRespond(deleteCampaign(user.id, id), refusedWith("Could not delete campaign"));
    return redirectWithFlash(request, "/campaigns", {
      kind: "toast",
      type: "success",
      message: `Campaign "${deleted.name}" deleted successfully.`,
    });
  }
  try {
    // The page's form says "retry"; the control is "retry-failed", as on /api.
    const { message } = await runCampaignControl(user.id, id, intent === "retry" ? "retry-failed" : intent);
    return redirectWithFlash(request, back, { kind: "toast", type: "success", message });
  } catch (error) {
    // A refused control (409) or a campaign gone (404) is told as the service says it.
    if (!(error instanceof ApiError)) throw error;
    return redirectWithFlash(request, error.status === 404 ? "/campaigns" : back, {
      kind: "toast",
      type: "error",
      message: error.message,
    });
  }
}

function Figure({
  label,
  value,
  note,
  testId,
}: {
  label: string;
  value: React.ReactNode;
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

function Row({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <div className="min-w-0">
      <dt className="text-xs uppercase tracking-wide text-slate-500">{label}</dt>
      <dd className="mt-0.5 break-words text-slate-800">{children}</dd>
    </div>
  );
}

export default function CampaignDetail() {
  const {
    campaign: c,
    unsubscribed,
    resend,
    attribution,
    engagement,
    tab,
    status,
    cursor,
    trail,
    logs,
    start,
  } = useLoaderData<typeof loader>();
  const [params] = useSearchParams();
  const navigation = useNavigation();
  const submit = useSubmit();
  const busy = navigation.state === "submitting";
  useRevalidateEvery(figuresMayChange(c) ? SENDING_REFRESH_MS : null);

  const here = (changes: Record<string, string | null>) => withSearchParams(params, changes, `/campaigns/${c.id}`);
  const back = here({ confirm: null });
  const confirm = params.get("confirm");
  const stats = c.deliveryStats;
  // No rate before anything was delivered, failed or bounced (docs/rules.md#numbers).
  const rate = stats.successRateValue;
  const band = rate === null ? null : successBand(rate);
  const name = c.name || "Unnamed Campaign";
  const segmentName = c.segment?.name || "Unnamed Segment";
  const canPause = c.status === "Active";
  const canResume = c.status === "Paused";
  const canCancel = c.status === "Active" || c.status === "Paused";
  const canRetry = c.status !== "Draft" && c.status !== "Cancelled" && stats.failed > 0;

  const tabLink = (value: "details" | "logs", label: string) => (
    <Link
      to={here({ tab: value === "details" ? null : value, status: null, cursor: null, trail: null, confirm: null })}
      replace
      preventScrollReset
      role="tab"
      aria-selected={tab === value}
      className={`-mb-px border-b-2 px-4 py-2 text-sm font-medium ${
        tab === value ? "border-primary text-primary" : "border-transparent text-slate-600 hover:text-slate-900"
      }`}
    >
      {label}
    </Link>
  );

  const controlButton = (intent: string, label: string, Icon: typeof Pause) => (
    <Form method="post" replace preventScrollReset>
      <input type="hidden" name="intent" value={intent} />
      <input type="hidden" name="back" value={back} />
      <button type="submit" className="btn-secondary" disabled={busy}>
        <Icon className="h-4 w-4" aria-hidden="true" /> {label}
      </button>
    </Form>
  );

  const nextHref = logs?.nextCursor
    ? here({ cursor: logs.nextCursor, trail: cursor ? [...trail, cursor].join(",") : null, confirm: null })
    : null;
  const prevHref = cursor
    ? here({ cursor: trail[trail.length - 1] ?? null, trail: trail.slice(0, -1).join(",") || null, confirm: null })
    : null;

  return (
    <div className="mx-auto max-w-6xl space-y-4">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <div className="flex min-w-0 items-center gap-2">
          <Link to="/campaigns" className="btn-ghost" aria-label="Back to Campaigns">
            <ArrowLeft className="h-5 w-5" />
          </Link>
          <div className="min-w-0">
            <h2 className="text-2xl font-bold text-slate-900">Campaign Details</h2>
            <p className="truncate text-sm text-slate-600">{name}</p>
          </div>
        </div>
        <div className="flex flex-wrap gap-2" data-testid="campaign-controls">
          {canPause ? controlButton("pause", "Pause", Pause) : null}
          {canResume ? controlButton("resume", "Resume", Play) : null}
          {canRetry ? controlButton("retry", "Retry failed", RotateCcw) : null}
          {canCancel ? (
            <Link to={here({ confirm: "cancel" })} preventScrollReset className="btn-secondary">
              <XCircle className="h-4 w-4" aria-hidden="true" /> Cancel
            </Link>
          ) : null}
          <Link to={`/campaigns/edit/${c.id}`} className="btn-secondary">
            <Pencil className="h-4 w-4" aria-hidden="true" /> {c.status === "Draft" ? "Edit draft" : "Edit as new"}
          </Link>
          <Link
            to={here({ confirm: "delete" })}
            preventScrollReset
            className="btn-secondary text-red-600 hover:bg-red-50"
          >
            <Trash2 className="h-4 w-4" aria-hidden="true" /> Delete
          </Link>
        </div>
      </div>

      <div role="tablist" aria-label="Campaign" className="flex border-b border-slate-200">
        {tabLink("details", "Campaign Details")}
        {tabLink("logs", "Delivery Logs")}
      </div>

      {tab === "details" ? (
        <div role="tabpanel" aria-label="Campaign Details" className="space-y-4">
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
                  <CampaignStatusChip status={c.status} />
                  {c.statusDetail ? (
                    <span className="text-sm text-slate-600" data-testid="status-detail">
                      {c.statusDetail}
                    </span>
                  ) : null}
                </span>
              </Row>
              <Row label="Launched">
                {c.launchedAt ? <DateTime value={c.launchedAt} format="dateTime" /> : "Not launched"}
              </Row>
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
                  <span
                    className="block whitespace-pre-wrap rounded-lg bg-slate-50 p-3 text-sm"
                    data-testid="campaign-message"
                  >
                    {c.message}
                  </span>
                </Row>
              </div>
            </dl>
          </section>

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
              Success rate is delivered out of delivered, failed, bounced and complained (a message reported as spam
              reached the mailbox). Suppressed are recipients whose address was unsubscribed, bounced or added to the
              suppression list after the launch: nothing more was sent to them. Unsubscribed are recipients who
              unsubscribed through this campaign&rsquo;s link; Complained, those who reported it as spam.
            </p>
          </section>

          {c.status !== "Draft" ? (
            <section className="card space-y-3 p-5" aria-labelledby="export-title">
              <h3 id="export-title" className="font-semibold text-slate-900">
                Export people
              </h3>
              <CsvExportForm id="campaign-export" action={`/campaigns/${c.id}/export`}>
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
          ) : null}

          {engagement ? <CampaignEngagement engagement={engagement} /> : null}

          {attribution ? <CampaignAttribution attribution={attribution} /> : null}

          <ResendNonOpeners campaignId={c.id} campaignName={name} offer={resend} />
        </div>
      ) : (
        <div role="tabpanel" aria-label="Delivery Logs" className="card overflow-hidden">
          <Form
            method="get"
            className="flex flex-wrap items-center gap-2 border-b border-slate-100 p-4"
            replace
            preventScrollReset
          >
            <input type="hidden" name="tab" value="logs" />
            <label htmlFor="log-status" className="text-sm text-slate-600">
              Filter by status
            </label>
            <select
              id="log-status"
              name="status"
              defaultValue={status ?? ""}
              key={status ?? ""}
              className="input w-auto"
              onChange={(e) => submit(e.currentTarget.form, { replace: true, preventScrollReset: true })}
            >
              {STATUS_FILTERS.map((f) => (
                <option key={f.value} value={f.value}>
                  {f.label}
                </option>
              ))}
            </select>
            <noscript>
              <button type="submit" className="btn-secondary">
                Apply
              </button>
            </noscript>
            {logs ? (
              <p className="ml-auto text-sm text-slate-500" data-testid="log-summary">
                {logs.logs.length === 0
                  ? `0 of ${formatCount(logs.total)}`
                  : `${formatCount(start)}–${formatCount(start + logs.logs.length - 1)} of ${formatCount(logs.total)}`}
              </p>
            ) : null}
          </Form>
          {!logs || logs.logs.length === 0 ? (
            <div className="px-6 py-12 text-center">
              <Inbox className="mx-auto h-10 w-10 text-slate-300" aria-hidden="true" />
              <p className="mt-3 font-semibold text-slate-800">No delivery logs available for this campaign</p>
              <p className="mx-auto mt-1 max-w-md text-sm text-slate-500">
                Each campaign keeps its own isolated delivery records, even for customers who appear in several
                campaigns.
              </p>
            </div>
          ) : (
            <ResponsiveTable className="table-fixed">
              <thead className="bg-slate-50 text-xs uppercase tracking-wide text-slate-500">
                <tr>
                  <th scope="col" className="px-3 py-3 font-medium sm:px-4">
                    Customer
                  </th>
                  <th scope="col" className="hidden px-4 py-3 font-medium md:table-cell">
                    Contact
                  </th>
                  <th scope="col" className="w-32 px-4 py-3 font-medium">
                    Status
                  </th>
                  <th scope="col" className="hidden w-44 px-4 py-3 font-medium md:table-cell">
                    Timestamp
                  </th>
                  <th scope="col" className="hidden px-4 py-3 font-medium lg:table-cell">
                    Details
                  </th>
                </tr>
              </thead>
              <tbody className="divide-y divide-slate-100">
                {logs.logs.map((log) => {
                  const customerName = log.customer.name || "Unknown Customer";
                  const contact = log.customer.email || log.customer.phone || "N/A";
                  const timestamp = log.timestamp ? <DateTime value={log.timestamp} format="dateTime" /> : "N/A";
                  const details = log.details ? (
                    <span className="break-words">{log.details}</span>
                  ) : (
                    <span className="text-slate-400" title="No details available">
                      No details
                    </span>
                  );
                  // A phone shows every cell in the row's card, each with its label; between sm and
                  // lg the columns that do not fit are said under the customer and the status.
                  return (
                    <tr key={log.id} data-testid="log-row" className="align-top">
                      <td className="px-3 py-3 sm:px-4">
                        <p className="truncate font-medium text-slate-900" data-testid="log-customer">
                          {customerName}
                        </p>
                        <p className="font-mono text-xs text-slate-500" data-testid="log-customer-id">
                          {log.customer.id ? log.customer.id.slice(0, 8) : "N/A"}
                        </p>
                        <div className="mt-1 hidden space-y-0.5 text-xs text-slate-600 sm:block lg:hidden">
                          <p className="truncate md:hidden">{contact}</p>
                          <p>{details}</p>
                        </div>
                      </td>
                      <td className="hidden truncate px-4 py-3 text-slate-700 md:table-cell">
                        <CardLabel>Contact</CardLabel>
                        <span data-testid="log-contact">{contact}</span>
                      </td>
                      <td className="px-4 py-3">
                        <CardLabel>Status</CardLabel>
                        <DeliveryStatusChip status={log.status} />
                        <p className="mt-1 hidden text-xs text-slate-500 sm:block md:hidden">{timestamp}</p>
                      </td>
                      <td className="hidden px-4 py-3 text-slate-600 md:table-cell">
                        <CardLabel>Timestamp</CardLabel>
                        <span data-testid="log-timestamp">{timestamp}</span>
                      </td>
                      <td className="hidden px-4 py-3 text-slate-600 lg:table-cell">
                        <CardLabel>Details</CardLabel>
                        <span data-testid="log-details">{details}</span>
                      </td>
                    </tr>
                  );
                })}
              </tbody>
            </ResponsiveTable>
          )}
          {prevHref || nextHref ? (
            <nav aria-label="Log pages" className="flex justify-end gap-2 border-t border-slate-200 px-4 py-3 text-sm">
              {prevHref ? (
                <Link to={prevHref} className="btn-secondary" rel="prev" preventScrollReset>
                  <ChevronLeft className="h-4 w-4" aria-hidden /> Previous
                </Link>
              ) : null}
              {nextHref ? (
                <Link to={nextHref} className="btn-secondary" rel="next" preventScrollReset>
                  Next <ChevronRight className="h-4 w-4" aria-hidden />
                </Link>
              ) : null}
            </nav>
          ) : null}
        </div>
      )}

      <ConfirmDialog
        open={confirm === "cancel" && canCancel}
        title="Cancel Campaign"
        message={<>Cancel &ldquo;{name}&rdquo;? Nothing more will be sent; what was already sent stays in the log.</>}
        cancelHref={back}
        cancelLabel="Keep sending"
        confirmLabel="Cancel campaign"
        action={here({ confirm: null })}
        fields={{ intent: "cancel", back }}
      />
      <ConfirmDialog
        open={confirm === "delete"}
        title="Delete Campaign"
        message={
          <>
            Are you sure you want to delete the campaign &ldquo;{name}&rdquo;? Its delivery log goes too; a campaign
            that is still sending is cancelled first. This action cannot be undone.
          </>
        }
        cancelHref={back}
        action={here({ confirm: null })}
        fields={{ intent: "delete", back }}
      />
    </div>
  );
}

export function ErrorBoundary() {
  const params = useParams();
  if (!ID_PATTERN.test((params.id ?? "").toLowerCase())) return <PageNotFound />;
  return <RouteErrorBoundary backTo="/campaigns" backLabel="Back to Campaigns" fallback={LOAD_FAILED} />;
}
