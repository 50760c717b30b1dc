// /campaigns/{id}: Campaign Details with two tabs kept in the address (?tab=logs), so both work
// without JavaScript. Details: the content, the status, the delivery figures with the success
// rate's band and a progress bar, refreshed every few seconds while the campaign sends. Delivery
// Logs: a page of the log read on the server, filtered by status, with Next/Previous. Pause,
// Resume, Retry failed are plain forms; Cancel and Delete confirm first (?confirm=cancel|delete).
// The page's parts are in app/components/campaigns/ (detail-header, details-tab, delivery-log);
// the route reads the campaign, keeps the address and answers the controls.
import { campaignDesignPreview } from "~/services/campaigns/design-preview.server";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData, useNavigation, useParams, useSearchParams } from "@remix-run/react";
import { z } from "zod";
import { useRevalidateEvery } from "~/components/campaign-chips";
import { CampaignAttribution } from "~/components/campaign-attribution";
import { CampaignEngagement } from "~/components/campaign-engagement";
import { DeliveryLogTab } from "~/components/campaigns/delivery-log";
import { CampaignHeader, type CampaignTab, CampaignTabs } from "~/components/campaigns/detail-header";
import { CampaignFacts, DeliveryFigures, ExportPeople } from "~/components/campaigns/details-tab";
import { ConfirmDialog } from "~/components/confirm-dialog";
import { PageNotFound, RouteErrorBoundary } from "~/components/error-boundary";
import { ResendNonOpeners } from "~/components/resend-non-openers";
import { allowMethods, ApiError, keepAllowHeader } from "~/lib/api.server";
import { BRAND } from "~/lib/brand";
import { figuresMayChange, isScheduled } from "~/lib/campaigns";
import { ID_PATTERN } from "~/lib/id";
import { invariantResponse, orRespond, refusedWith } from "~/lib/responses";
import { withSearchParams } from "~/lib/search-params";
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

export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const id = params.id ?? "";
  // A path under /campaigns that is not a campaign id (/campaigns/create) names nothing: the 404 page.
  invariantResponse(ID_PATTERN.test(id.toLowerCase()), null);
  const search = new URL(request.url).searchParams;
  const tab: CampaignTab = search.get("tab") === "logs" ? "logs" : "details";
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
    // A message made from a template: its design as sent, filled for a customer with empty fields.
    designPreview: tab === "details" ? await campaignDesignPreview(user.id, campaign.id) : null,
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
  intent: z.enum(["pause", "resume", "cancel", "retry", "unschedule", "delete"]),
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

export default function CampaignDetail() {
  const {
    campaign: c,
    unsubscribed,
    resend,
    attribution,
    designPreview,
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
  const busy = navigation.state === "submitting";
  useRevalidateEvery(figuresMayChange(c) ? SENDING_REFRESH_MS : null);

  const here = (changes: Record<string, string | null>) => withSearchParams(params, changes, `/campaigns/${c.id}`);
  const back = here({ confirm: null });
  const confirm = params.get("confirm");
  const name = c.name || "Unnamed Campaign";
  const can = {
    pause: c.status === "Active",
    resume: c.status === "Paused",
    cancel: c.status === "Active" || c.status === "Paused",
    retry: c.status !== "Draft" && c.status !== "Cancelled" && c.deliveryStats.failed > 0,
    unschedule: isScheduled(c),
  };
  const nextHref = logs?.nextCursor
    ? here({ cursor: logs.nextCursor, trail: cursor ? [...trail, cursor].join(",") : null, confirm: null })
    : null;
  const prevHref = cursor
    ? here({ cursor: trail[trail.length - 1] ?? null, trail: trail.slice(0, -1).join(",") || null, confirm: null })
    : null;

  return (
    <div className="mx-auto max-w-6xl space-y-4">
      <CampaignHeader
        id={c.id}
        name={name}
        status={c.status}
        can={can}
        back={back}
        busy={busy}
        confirmHref={(what) => here({ confirm: what })}
      />

      <CampaignTabs
        tab={tab}
        tabHref={(value) =>
          here({ tab: value === "details" ? null : value, status: null, cursor: null, trail: null, confirm: null })
        }
      />

      {tab === "details" ? (
        <div role="tabpanel" aria-label="Campaign Details" className="space-y-4">
          <CampaignFacts campaign={c} name={name} designPreview={designPreview} />
          <DeliveryFigures campaign={c} unsubscribed={unsubscribed} />
          {c.status !== "Draft" ? <ExportPeople campaignId={c.id} /> : null}
          {engagement ? <CampaignEngagement engagement={engagement} /> : null}
          {attribution ? <CampaignAttribution attribution={attribution} /> : null}
          <ResendNonOpeners campaignId={c.id} campaignName={name} offer={resend} />
        </div>
      ) : (
        <DeliveryLogTab status={status} logs={logs} start={start} prevHref={prevHref} nextHref={nextHref} />
      )}

      <ConfirmDialog
        open={confirm === "cancel" && can.cancel}
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
