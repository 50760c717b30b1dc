// The top of a campaign's page (app/routes/campaigns-detail.tsx): the way back, its name, the
// controls that apply to it now (Pause, Resume, Retry failed, Cancel schedule, Cancel, Edit, Delete)
// and the two tabs. The route keeps the address and what may be done; these only lay it out. Pause,
// Resume, Retry failed and Cancel schedule are plain form posts; Cancel and Delete open the page's confirmation (?confirm=).
import { Form, Link } from "@remix-run/react";
import { ArrowLeft, CalendarX, Pause, Pencil, Play, RotateCcw, Trash2, XCircle } from "lucide-react";
import type { CampaignStatus } from "~/lib/campaigns";

/** Which controls apply to the campaign now. */
export type CampaignControls = {
  pause: boolean;
  resume: boolean;
  retry: boolean;
  cancel: boolean;
  /** A scheduled draft: its schedule can be taken off. */
  unschedule: boolean;
};

/** A control posted to the page's action, coming back to `back`. */
function ControlButton({
  intent,
  label,
  icon: Icon,
  back,
  busy,
}: {
  intent: string;
  label: string;
  icon: typeof Pause;
  back: string;
  busy: boolean;
}) {
  return (
    <Form method="post" replace preventScrollReset>
      <input type="hidden" name="intent" value={intent} />
      <input type="hidden" name="back" value={back} />
      <button type="submit" className="btn-secondary" disabled={busy}>
        <Icon className="h-4 w-4" aria-hidden="true" /> {label}
      </button>
    </Form>
  );
}

/** The page's heading and its controls; `confirmHref` is the address that asks to cancel or delete. */
export function CampaignHeader({
  id,
  name,
  status,
  can,
  back,
  busy,
  confirmHref,
}: {
  id: string;
  name: string;
  status: CampaignStatus;
  can: CampaignControls;
  back: string;
  busy: boolean;
  confirmHref: (what: "cancel" | "delete") => string;
}) {
  return (
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
        {can.pause ? <ControlButton intent="pause" label="Pause" icon={Pause} back={back} busy={busy} /> : null}
        {can.resume ? <ControlButton intent="resume" label="Resume" icon={Play} back={back} busy={busy} /> : null}
        {can.retry ? (
          <ControlButton intent="retry" label="Retry failed" icon={RotateCcw} back={back} busy={busy} />
        ) : null}
        {can.unschedule ? (
          <ControlButton intent="unschedule" label="Cancel schedule" icon={CalendarX} back={back} busy={busy} />
        ) : null}
        {can.cancel ? (
          <Link to={confirmHref("cancel")} preventScrollReset className="btn-secondary">
            <XCircle className="h-4 w-4" aria-hidden="true" /> Cancel
          </Link>
        ) : null}
        <Link to={`/campaigns/edit/${id}`} className="btn-secondary">
          <Pencil className="h-4 w-4" aria-hidden="true" /> {status === "Draft" ? "Edit draft" : "Edit as new"}
        </Link>
        <Link to={confirmHref("delete")} preventScrollReset className="btn-secondary text-red-600 hover:bg-red-50">
          <Trash2 className="h-4 w-4" aria-hidden="true" /> Delete
        </Link>
      </div>
    </div>
  );
}

export type CampaignTab = "details" | "logs";

/** The two tabs, links kept in the address (?tab=logs), so both work without JavaScript. */
export function CampaignTabs({ tab, tabHref }: { tab: CampaignTab; tabHref: (tab: CampaignTab) => string }) {
  const tabLink = (value: CampaignTab, label: string) => (
    <Link
      to={tabHref(value)}
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
  return (
    <div role="tablist" aria-label="Campaign" className="flex border-b border-slate-200">
      {tabLink("details", "Campaign Details")}
      {tabLink("logs", "Delivery Logs")}
    </div>
  );
}
