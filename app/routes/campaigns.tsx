// /campaigns: Campaign Management. Three cards, the table (folded to two columns on a phone), the
// empty state, delete with a confirmation driven by ?delete=<id> (so it works without JavaScript),
// and a refresh every 30 s, every few seconds while a campaign sends.
import { parseWithZod } from "@conform-to/zod/v4";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useLoaderData, useSearchParams } from "@remix-run/react";
import { Megaphone, Plus, Target, Users } from "lucide-react";
import { z } from "zod";
import { allowMethods, keepAllowHeader } from "~/lib/api.server";
import { CampaignStatusChip, Chip, NoRateChip, ProgressBar, useRevalidateEvery } from "~/components/campaign-chips";
import { ConfirmDialog } from "~/components/confirm-dialog";
import { CountCard } from "~/components/count-card";
import { DateTime } from "~/components/date-time";
import { RouteErrorBoundary } from "~/components/error-boundary";
import { useDelegatedLinks } from "~/components/fast-rows";
import { CardCell, ColumnHeader, ListTable } from "~/components/list-table";
import { PrevNextPager } from "~/components/pager";
import { RowActionSprite, RowActions } from "~/components/row-actions";
import { BRAND } from "~/lib/brand";
import { isScheduled, listSuccessChip } from "~/lib/campaigns";
import { isId } from "~/lib/id";
import { formatRupees } from "~/lib/money";
import { formatCount } from "~/lib/numbers";
import { orRespond, refusedWith } from "~/lib/responses";
import { withSearchParams } from "~/lib/search-params";
import { segmentChipClass } from "~/lib/segment-descriptions";
import { requireUser } from "~/services/auth.server";
import { attributionOfCampaigns, parseRevenueCursor } from "~/services/attribution.server";
import { deleteCampaign } from "~/services/campaigns/controls.server";
import { campaignTotals, campaignUnsubscribes, getCampaign, listCampaigns } from "~/services/campaigns/views.server";
import { redirectWithFlash } from "~/services/session.server";
import { PageHeader } from "~/components/page-header";

// A 405 keeps its Allow header on the rendered page (app/lib/api.server.ts).
export const headers = keepAllowHeader;

export const meta: MetaFunction = () => [{ title: `Campaign Management · ${BRAND}` }];

const PAGE_SIZE = 50;
const LOAD_FAILED = "Failed to load campaigns. Please try again.";
/** The list's refresh: every 30 s, and every 3 s while any campaign on the page is sending. */
const REFRESH_MS = 30_000;
const SENDING_REFRESH_MS = 3_000;

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const params = new URL(request.url).searchParams;
  // ?sort=revenue: most revenue first (docs/rules.md#revenue-per-campaign); a cursor of the other
  // sort starts from the first page.
  const sort = params.get("sort") === "revenue" ? "revenue" : "date";
  const isCursor = (c: string | null): c is string => (sort === "revenue" ? parseRevenueCursor(c) !== null : isId(c));
  const cursorParam = params.get("cursor");
  const cursor = isCursor(cursorParam) ? cursorParam : null;
  // The cursors of the pages before this one, so Previous works without keeping state.
  const trail = cursor ? (params.get("trail") ?? "").split(",").filter(isCursor).slice(-200) : [];
  const deleteId = params.get("delete");
  const [page, totals, deleting] = await orRespond(
    Promise.all([
      listCampaigns(user.id, { limit: PAGE_SIZE, cursor, sort }),
      campaignTotals(user.id),
      deleteId ? getCampaign(user.id, deleteId).catch(() => null) : null,
    ]),
    LOAD_FAILED,
  );
  // Each row's revenue: the sorted page has it; the newest-first page asks for its campaigns'.
  const revenue =
    page.attribution ??
    Object.fromEntries(
      await orRespond(
        attributionOfCampaigns(
          user.id,
          page.campaigns.map((c) => c.id),
        ),
        LOAD_FAILED,
      ),
    );
  // Each row's unsubscribes (its complaints are its own counter).
  const unsubscribed = await orRespond(
    campaignUnsubscribes(
      user.id,
      page.campaigns.map((c) => c.id),
    ),
    LOAD_FAILED,
  );
  return {
    page,
    revenue,
    unsubscribed,
    sort,
    totals,
    cursor,
    trail,
    deleting: deleting ? { id: deleting.id, name: deleting.name } : null,
  };
}

const DeleteSchema = z.object({ intent: z.literal("delete"), id: z.string().min(1), back: z.string().optional() });

export async function action({ request }: ActionFunctionArgs) {
  allowMethods(request, "GET", "POST");
  const user = await requireUser(request);
  const submission = parseWithZod(await request.formData(), { schema: DeleteSchema });
  if (submission.status !== "success") {
    return redirectWithFlash(request, "/campaigns", {
      kind: "toast",
      type: "error",
      message: "Could not delete campaign: Invalid selection",
    });
  }
  const { id, back: asked } = submission.value;
  const back = asked?.startsWith("/campaigns") && !asked.startsWith("//") ? asked : "/campaigns";
  // A campaign that is gone (deleted already, or another user's) is a 404 with its message.
  const deleted = await orRespond(deleteCampaign(user.id, id), refusedWith("Could not delete campaign"));
  return redirectWithFlash(request, back, {
    kind: "toast",
    type: "success",
    message: `Campaign "${deleted.name}" deleted successfully.`,
  });
}

export default function Campaigns() {
  const { page, revenue, unsubscribed, sort, totals, cursor, trail, deleting } = useLoaderData<typeof loader>();
  const [params] = useSearchParams();
  const onRowsClick = useDelegatedLinks();
  const sending = page.campaigns.some((c) => c.status === "Active");
  useRevalidateEvery(sending ? SENDING_REFRESH_MS : REFRESH_MS);

  const href = (changes: Record<string, string | null>) => withSearchParams(params, changes, "/campaigns");
  const nextHref = page.nextCursor
    ? href({ cursor: page.nextCursor, trail: cursor ? [...trail, cursor].join(",") : null, delete: null })
    : null;
  const prevHref = cursor
    ? href({ cursor: trail[trail.length - 1] ?? null, trail: trail.slice(0, -1).join(",") || null, delete: null })
    : null;
  const listHref = href({ delete: null });
  const sortHref = (to: "date" | "revenue") =>
    href({ sort: to === "revenue" ? "revenue" : null, cursor: null, trail: null, delete: null });

  return (
    <div className="mx-auto max-w-7xl space-y-6">
      <PageHeader
        title="Campaign Management"
        titleClassName="min-w-0"
        actions={
          <Link to="/campaigns/new" className="btn-primary">
            <Plus className="h-4 w-4" aria-hidden="true" /> Create Campaign
          </Link>
        }
      >
        <p className="text-slate-600">Send messages to your segments and follow every delivery.</p>
      </PageHeader>

      <section aria-label="Campaign statistics" className="grid gap-4 sm:grid-cols-3">
        <CountCard label="Total Campaigns" count={totals.campaigns} icon={Megaphone} />
        <CountCard label="Total Audience" count={totals.audience} icon={Users} />
        <CountCard label="Unique Segments" count={totals.segments} icon={Target} />
      </section>

      <nav aria-label="Sort campaigns" className="flex flex-wrap items-center gap-2 text-sm">
        <span className="text-slate-600">Sort by</span>
        {(
          [
            ["date", "Newest first"],
            ["revenue", "Revenue"],
          ] as const
        ).map(([value, label]) => (
          <Link
            key={value}
            to={sortHref(value)}
            aria-current={sort === value ? "true" : undefined}
            className={`rounded-full px-3 py-1 font-medium ring-1 ring-inset ${
              sort === value ? "bg-primary text-white ring-primary" : "bg-white text-slate-700 ring-slate-300"
            }`}
          >
            {label}
          </Link>
        ))}
      </nav>

      <section className="card overflow-hidden" aria-label="Campaigns">
        {page.campaigns.length === 0 && !cursor ? (
          <div className="px-6 py-14 text-center">
            <Megaphone className="mx-auto h-10 w-10 text-slate-300" aria-hidden="true" />
            <p className="mt-3 font-semibold text-slate-800">No campaigns yet</p>
            <p className="mt-1 text-sm text-slate-500">Send your first message to a segment of your customers.</p>
            <Link to="/campaigns/new" className="btn-primary mt-4">
              <Plus className="h-4 w-4" aria-hidden="true" /> Create First Campaign
            </Link>
          </div>
        ) : (
          <>
            <RowActionSprite />
            <ListTable
              fixed
              onRowsClick={onRowsClick}
              head={
                <>
                  <ColumnHeader className="px-3 py-3 font-medium sm:px-4">Campaign</ColumnHeader>
                  <ColumnHeader className="hidden w-44 px-4 py-3 font-medium md:table-cell">Segment</ColumnHeader>
                  <ColumnHeader className="hidden w-28 px-4 py-3 font-medium lg:table-cell">Audience</ColumnHeader>
                  <ColumnHeader className="hidden w-32 px-4 py-3 font-medium lg:table-cell">Sent Date</ColumnHeader>
                  <ColumnHeader
                    className="hidden w-36 px-4 py-3 text-right font-medium lg:table-cell"
                    sorted={sort === "revenue" ? "descending" : undefined}
                  >
                    Revenue
                  </ColumnHeader>
                  <ColumnHeader className="w-28 px-2 py-3 font-medium sm:w-40 sm:px-4">Status</ColumnHeader>
                  <ColumnHeader className="w-20 px-2 py-3 text-right font-medium sm:w-32 sm:px-4 lg:w-36">
                    <span className="sr-only sm:not-sr-only">Actions</span>
                  </ColumnHeader>
                </>
              }
            >
              {page.campaigns.map((c) => {
                const segmentName = c.segment?.name || "Unnamed Segment";
                const name = c.name || "Unnamed Campaign";
                // No rate while nothing was sent or failed (docs/rules.md#numbers).
                const success = listSuccessChip(c.deliveryStats.sent, c.deliveryStats.failed);
                const sentDate = c.launchedAt ? <DateTime value={c.launchedAt} /> : "Not sent";
                return (
                  <tr key={c.id} data-testid="campaign-row" className="align-top hover:bg-slate-50/60">
                    <td className="px-3 py-3 sm:px-4">
                      <Link
                        to={`/campaigns/${c.id}`}
                        className="block truncate font-medium text-slate-900 hover:text-primary"
                      >
                        {name}
                      </Link>
                      <p className="truncate text-xs text-slate-500">{c.subject || "No subject"}</p>
                      {/* What the hidden columns say, under the name between sm and lg (a phone's
                            card shows those cells themselves). */}
                      <div className="mt-1 hidden space-y-1 text-xs text-slate-500 sm:block lg:hidden">
                        <span
                          className={`inline-block max-w-full break-words rounded-xl px-2 py-0.5 font-medium md:hidden ${segmentChipClass(segmentName)}`}
                        >
                          {segmentName}
                        </span>
                        <p>
                          {formatCount(c.audienceSize)} recipients · {sentDate} ·{" "}
                          {formatRupees(revenue[c.id]?.revenue ?? 0)} revenue
                        </p>
                      </div>
                    </td>
                    <td className="hidden px-4 py-3 md:table-cell">
                      <span
                        className={`inline-block max-w-full break-words rounded-xl px-3 py-1 text-xs font-medium ${segmentChipClass(segmentName)}`}
                        data-testid="campaign-segment"
                      >
                        {segmentName}
                      </span>
                    </td>
                    <CardCell label="Audience" className="hidden px-4 py-3 font-medium text-slate-800 lg:table-cell">
                      <span data-testid="campaign-audience">{formatCount(c.audienceSize)}</span>
                    </CardCell>
                    <CardCell label="Sent" className="hidden px-4 py-3 text-slate-600 lg:table-cell">
                      {sentDate}
                    </CardCell>
                    <CardCell label="Revenue" className="hidden px-4 py-3 text-right lg:table-cell">
                      <span className="font-medium text-slate-800" data-testid="campaign-revenue">
                        {formatRupees(revenue[c.id]?.revenue ?? 0)}
                      </span>
                      <span className="block text-xs text-slate-500">
                        {formatCount(revenue[c.id]?.orders ?? 0)}{" "}
                        {(revenue[c.id]?.orders ?? 0) === 1 ? "order" : "orders"}
                      </span>
                    </CardCell>
                    <td className="px-2 py-3 sm:px-4">
                      <CampaignStatusChip status={c.status} scheduled={isScheduled(c)} />
                      {isScheduled(c) ? (
                        <p className="mt-1 text-xs text-slate-500" data-testid="campaign-scheduled-at">
                          Sends <DateTime value={c.scheduledAt} format="dateTime" />
                        </p>
                      ) : c.status === "Active" || c.status === "Paused" ? (
                        <div className="mt-2 space-y-1">
                          <ProgressBar
                            value={c.progress}
                            label={`${name} progress`}
                            colour={c.status === "Paused" ? "warning" : "primary"}
                          />
                          <p className="text-xs text-slate-500" data-testid="campaign-progress">
                            {c.progress}% processed
                          </p>
                        </div>
                      ) : c.status === "Completed" ? (
                        <div className="mt-1">
                          {success ? (
                            <>
                              <Chip
                                colour={success.colour}
                                testId="campaign-success"
                                title="Sent out of sent and failed (refused by the channel)"
                              >
                                {success.value}% sent
                              </Chip>
                              <p className="mt-1 text-xs text-slate-500" data-testid="campaign-success-base">
                                of sent and failed: {formatCount(c.deliveryStats.sent)} of{" "}
                                {formatCount(c.deliveryStats.sent + c.deliveryStats.failed)}
                              </p>
                            </>
                          ) : (
                            <NoRateChip sent={c.deliveryStats.sent} testId="campaign-success" />
                          )}
                        </div>
                      ) : null}
                      {c.status !== "Draft" ? (
                        <p className="mt-1 text-xs text-slate-500" data-testid="campaign-opt-outs">
                          {formatCount(unsubscribed[c.id] ?? 0)} unsubscribed ·{" "}
                          {formatCount(c.deliveryStats.complained)} complained
                        </p>
                      ) : null}
                    </td>
                    <RowActions
                      className="px-2 py-3 sm:px-4"
                      actions={[
                        { icon: "view", href: `/campaigns/${c.id}`, label: `View ${name}`, title: "View" },
                        c.status === "Draft" && {
                          icon: "edit",
                          href: `/campaigns/edit/${c.id}`,
                          label: `Edit ${name}`,
                          title: "Edit draft",
                        },
                        { icon: "delete", href: href({ delete: c.id }), label: `Delete ${name}`, title: "Delete" },
                      ]}
                    />
                  </tr>
                );
              })}
            </ListTable>
            <PrevNextPager prev={prevHref} next={nextHref} />
          </>
        )}
      </section>

      <ConfirmDialog
        open={Boolean(deleting)}
        title="Delete Campaign"
        message={
          <>
            Are you sure you want to delete the campaign &ldquo;{deleting?.name}&rdquo;? Its delivery log goes too; a
            campaign that is still sending is cancelled first. This action cannot be undone.
          </>
        }
        cancelHref={listHref}
        action="/campaigns"
        fields={{ intent: "delete", id: deleting?.id ?? "", back: listHref }}
      />
    </div>
  );
}

export function ErrorBoundary() {
  return <RouteErrorBoundary backTo="/" fallback={LOAD_FAILED} />;
}
