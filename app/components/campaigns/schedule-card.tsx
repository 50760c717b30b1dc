// The wizard's "Send later" card on its Review step: a date and time in the viewer's time zone and
// a Schedule button. A plain datetime-local field and a submit button, so it works without
// JavaScript; the server turns the wall-clock time into an instant in that zone and checks it.
import type { getInputProps } from "@conform-to/react";
import { CalendarClock, Loader2 } from "lucide-react";
import { Field } from "~/components/forms";
import type { FieldState } from "~/components/campaigns/wizard-steps";

export function ScheduleCard({
  hidden,
  field,
  zoneLabel,
  scheduledText,
  busy,
  scheduling,
}: {
  hidden: boolean;
  field: FieldState<ReturnType<typeof getInputProps>>;
  /** The zone the time is read in, as the user knows it ("India Standard Time"). */
  zoneLabel: string;
  /** When the draft is scheduled already ("30 Nov 2026, 09:00"), else null. */
  scheduledText: string | null;
  busy: boolean;
  scheduling: boolean;
}) {
  return (
    <section hidden={hidden} className="card space-y-3 p-5" aria-label="Send later" data-testid="schedule-card">
      <h3 className="font-semibold text-slate-900">Send later</h3>
      <p className="text-sm text-slate-600">
        {scheduledText ? (
          <>
            Scheduled for <strong data-testid="scheduled-for">{scheduledText}</strong>. Pick another time to reschedule
            it.{" "}
          </>
        ) : null}
        The campaign stays a draft until then and goes to the segment&apos;s customers as they are at that moment. Times
        are in {zoneLabel}.
      </p>
      <div className="flex flex-wrap items-end gap-3">
        <Field label="Send at" className="min-w-0 flex-1 sm:max-w-xs" inputProps={field.props} errors={field.errors} />
        <button type="submit" name="intent" value="schedule" className="btn-secondary" disabled={busy}>
          {scheduling ? (
            <Loader2 className="h-4 w-4 animate-spin" aria-hidden="true" />
          ) : (
            <CalendarClock className="h-4 w-4" aria-hidden="true" />
          )}
          {scheduledText ? "Reschedule" : "Schedule"}
        </button>
      </div>
    </section>
  );
}
