// What the campaign screens share: the status and delivery chips in their colours, the progress
// bar, and the refresh that keeps a list or detail current while a campaign sends.
import { useEffect } from "react";
import { useQuietRevalidate } from "~/components/quiet-revalidate";
import { type CampaignStatus, type ChipColour, deliveryChip } from "~/lib/campaigns";

export const CAMPAIGN_CHIP_CLASSES: Record<ChipColour, string> = {
  success: "bg-green-100 text-green-800 ring-green-600/20",
  warning: "bg-amber-100 text-amber-800 ring-amber-600/20",
  primary: "bg-blue-100 text-blue-800 ring-blue-600/20",
  secondary: "bg-orange-100 text-orange-800 ring-orange-600/20",
  info: "bg-sky-100 text-sky-800 ring-sky-600/20",
  error: "bg-red-100 text-red-800 ring-red-600/20",
  default: "bg-slate-100 text-slate-700 ring-slate-500/20",
};

const STATUS_COLOURS: Record<CampaignStatus, ChipColour> = {
  Draft: "default",
  Active: "primary",
  Paused: "warning",
  Cancelled: "error",
  Completed: "success",
};

export function Chip({
  colour,
  children,
  testId,
  title,
}: {
  colour: ChipColour;
  children: React.ReactNode;
  testId?: string;
  title?: string;
}) {
  return (
    <span
      data-testid={testId}
      data-colour={colour}
      title={title}
      className={`inline-flex shrink-0 items-center whitespace-nowrap rounded-full px-2.5 py-0.5 text-xs font-medium ring-1 ring-inset ${CAMPAIGN_CHIP_CLASSES[colour]}`}
    >
      {children}
    </span>
  );
}

/**
 * What stands where a rate's chip would be when the rate has no denominator (docs/rules.md#numbers):
 * a neutral chip, never a red "0.0% Poor". "Not started" when the screen knows nothing was sent
 * yet (a draft, a launch before its first batch), otherwise "No results yet" (nothing delivered,
 * failed or bounced so far).
 */
export function NoRateChip({ sent, testId }: { sent?: number; testId?: string }) {
  return (
    <Chip colour="default" testId={testId} title="Nothing has been delivered, failed or bounced yet">
      {sent === 0 ? "Not started" : "No results yet"}
    </Chip>
  );
}

/** A campaign's status; a draft that launches itself at a set time shows as "Scheduled". */
export function CampaignStatusChip({ status, scheduled = false }: { status: CampaignStatus; scheduled?: boolean }) {
  return (
    <Chip colour={scheduled ? "info" : STATUS_COLOURS[status]} testId="campaign-status">
      {scheduled ? "Scheduled" : status}
    </Chip>
  );
}

export function DeliveryStatusChip({ status }: { status: string }) {
  const chip = deliveryChip(status);
  return (
    <Chip colour={chip.colour} testId="delivery-status">
      {chip.label}
    </Chip>
  );
}

const BAR_CLASSES: Partial<Record<ChipColour, string>> = {
  success: "bg-green-500",
  warning: "bg-amber-500",
  error: "bg-red-500",
  secondary: "bg-secondary",
  info: "bg-sky-500",
};

export function ProgressBar({
  value,
  label,
  colour = "primary",
}: {
  value: number;
  label: string;
  colour?: ChipColour;
}) {
  const clamped = Math.max(0, Math.min(100, value));
  return (
    <div
      role="progressbar"
      aria-label={label}
      aria-valuemin={0}
      aria-valuemax={100}
      aria-valuenow={clamped}
      className="h-2 w-full overflow-hidden rounded-full bg-slate-200"
    >
      <div
        className={`h-full rounded-full transition-all ${BAR_CLASSES[colour] ?? "bg-primary"}`}
        style={{ width: `${clamped}%` }}
      />
    </div>
  );
}

/**
 * Reloads the route's data every `ms` (no full page reload) while the tab is visible; `null`
 * stops it. Without JavaScript the page is simply as of its last load.
 */
export function useRevalidateEvery(ms: number | null) {
  const revalidate = useQuietRevalidate();
  useEffect(() => {
    if (!ms) return;
    const timer = setInterval(() => {
      if (document.visibilityState === "visible") revalidate();
    }, ms);
    return () => clearInterval(timer);
  }, [ms, revalidate]);
}
