// The customer page's Marketing consent card: the consent as it reads (status, since when, where
// from, the text agreed to) and the form that changes it by hand (a form post, without JavaScript
// too; app/routes/customers-detail.tsx).
import type { SubmissionResult } from "@conform-to/react";
import { getSelectProps, getTextareaProps, useForm } from "@conform-to/react";
import { Chip } from "~/components/campaign-chips";
import { liveChecks, SelectField, TextareaField } from "~/components/forms";
import type { ChipColour } from "~/lib/campaigns";
import {
  CONSENT_BY_HAND_SOURCE,
  CONSENT_LABELS,
  CONSENT_STATUSES,
  type ConsentDto,
  type ConsentStatus,
  MAX_CONSENT_TEXT,
} from "~/lib/consent";
import { formatCount } from "~/lib/numbers";
import { DateTime } from "~/components/date-time";
import { ConsentFormSchema } from "~/schemas/consent";
import { IntentForm, usePostingIntent } from "~/components/intent-form";
import { TitledCard } from "~/components/titled-card";

const CONSENT_COLOURS: Record<ConsentStatus, ChipColour> = {
  subscribed: "success",
  unsubscribed: "error",
  never_asked: "default",
};

const CONSENT_OPTIONS = CONSENT_STATUSES.map((s) => ({ value: s, label: CONSENT_LABELS[s] }));

/**
 * The customer's marketing consent as it reads (status, since when, where from, the text agreed
 * to), and the form that changes it by hand: a status and, optionally, the text agreed to.
 */
export function ConsentCard({
  id,
  consent,
  suppressed,
  lastResult,
}: {
  id: string;
  consent: ConsentDto;
  suppressed: boolean;
  /** The action's reply when it answered this form (its values and errors kept). */
  lastResult?: SubmissionResult<string[]>;
}) {
  const saving = usePostingIntent("consent");
  const here = `/customers/${id}`;
  const [form, fields] = useForm({
    id: "consent",
    lastResult,
    // The text starts empty: it is what the customer agreed to this time, not the last record's.
    defaultValue: { status: consent.status, text: "" },
    ...liveChecks(ConsentFormSchema),
  });
  return (
    <TitledCard headingId="consent-heading" title="Marketing consent">
      <div className="grid gap-6 md:grid-cols-2">
        <div className="min-w-0 space-y-3 text-sm" data-testid="consent">
          <div className="flex flex-wrap items-center gap-2">
            <Chip colour={CONSENT_COLOURS[consent.status]} testId="consent-status">
              {CONSENT_LABELS[consent.status]}
            </Chip>
            {consent.at ? (
              <span className="text-slate-600">
                since <DateTime value={consent.at} format="dateTime" />
              </span>
            ) : null}
          </div>
          {consent.status === "never_asked" ? (
            <p className="text-slate-600">
              No consent recorded.
              {suppressed ? null : " Campaigns still go to this address, as to every customer never asked."}
            </p>
          ) : (
            <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-2">
              <dt className="text-slate-500">Source</dt>
              <dd className="break-words text-slate-900">{consent.source || "Not recorded"}</dd>
              {consent.text || consent.status === "subscribed" ? (
                <>
                  <dt className="text-slate-500">Text agreed to</dt>
                  <dd className="whitespace-pre-line break-words text-slate-900">{consent.text || "Not recorded"}</dd>
                </>
              ) : null}
            </dl>
          )}
          {consent.status === "unsubscribed" ? (
            <p className="text-slate-600">This address gets no campaign e-mail.</p>
          ) : suppressed ? (
            <p className="rounded-lg border border-amber-200 bg-amber-50 px-3 py-2 text-amber-900">
              The address is on the suppression list, so it gets no campaign e-mail whatever the consent says.
            </p>
          ) : null}
        </div>
        <IntentForm
          form={form}
          intent="consent"
          action={here}
          preventScrollReset
          className="space-y-3 border-t border-slate-100 pt-4 md:border-l md:border-t-0 md:pl-6 md:pt-0"
        >
          <SelectField
            label="Change consent to"
            selectProps={getSelectProps(fields.status)}
            options={CONSENT_OPTIONS}
            errors={fields.status.errors}
          />
          <TextareaField
            label="Text agreed to (optional)"
            hint={`Recorded with today's date and the source "${CONSENT_BY_HAND_SOURCE}". At most ${formatCount(MAX_CONSENT_TEXT)} characters.`}
            textareaProps={getTextareaProps(fields.text)}
            errors={fields.text.errors}
          />
          <button type="submit" className="btn-secondary" disabled={saving}>
            {saving ? "Saving..." : "Save consent"}
          </button>
        </IntentForm>
      </div>
    </TitledCard>
  );
}
