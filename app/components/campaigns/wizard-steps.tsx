// The campaign wizard's parts (app/routes/campaigns-wizard.tsx): its three steps (audience, message,
// review), the note on a campaign that already started, and the buttons under the steps. The route
// keeps the form, its state and what the steps are shown from; these only lay it out.
import type { getInputProps, getSelectProps, getTextareaProps } from "@conform-to/react";
import { Link } from "@remix-run/react";
import type { ReactNode } from "react";
import { AlertTriangle, Info, Loader2, Rocket, Save } from "lucide-react";
import { type AudienceSample, AudiencePanel, SuggestionsPanel } from "~/components/campaign-wizard-parts";
import { EmailPreview } from "~/components/email-preview";
import { TemplateMessagePreview } from "~/components/campaigns/template-message-preview";
import { CheckboxField, Field, SelectField, TextareaField } from "~/components/forms";
import { type AudienceReach, audienceReachText } from "~/lib/campaigns";
import { UNSUBSCRIBE_PLACEHOLDER } from "~/lib/email-body";
import { TRACKING_TEXTS } from "~/lib/engagement";

/**
 * A field's props and messages, read by the route: Conform re-renders the component that read a
 * field's state when it changes, so the route reads it and the steps are handed the result.
 */
export type FieldState<Props> = { props: Props; errors: string[] | undefined };
type InputProps = ReturnType<typeof getInputProps>;

/** Over the steps of a campaign that has already started sending: launching makes a new one. */
export function RelaunchNote() {
  return (
    <div
      role="note"
      className="flex gap-2 rounded-lg border border-amber-200 bg-amber-50 px-3 py-2 text-sm text-amber-900"
      data-testid="relaunch-note"
    >
      <Info className="mt-0.5 h-4 w-4 shrink-0" aria-hidden="true" />
      <p>
        This campaign has already started sending. Launching creates a new campaign; the original keeps its delivery log
        and results.
      </p>
    </div>
  );
}

/** Step 1: the campaign's name and its audience (a segment, or a resend's fixed audience). */
export function AudienceStep({
  hidden,
  name,
  segmentId,
  resendAudience,
  options,
  hasSegments,
  sample,
  sampleLoading,
}: {
  hidden: boolean;
  name: FieldState<InputProps>;
  segmentId: FieldState<ReturnType<typeof getSelectProps>>;
  resendAudience: string | null;
  options: { value: string; label: string }[];
  hasSegments: boolean;
  sample: AudienceSample | null;
  sampleLoading: boolean;
}) {
  return (
    <div hidden={hidden} data-testid="step-1">
      <div className="grid grid-cols-1 gap-4 lg:grid-cols-[minmax(0,1fr)_340px]">
        <section className="card space-y-4 self-start p-5" aria-label="Select Audience">
          <Field
            label="Campaign Name"
            required
            inputProps={{
              ...name.props,
              maxLength: 200,
              placeholder: "June Discount Campaign",
            }}
            errors={name.errors}
          />
          {resendAudience ? (
            <div data-testid="resend-audience">
              <p className="text-sm font-medium text-slate-700">Audience</p>
              <p className="mt-1 rounded-lg border border-slate-200 bg-slate-50 px-3 py-2 text-sm text-slate-900">
                {resendAudience}
              </p>
              <p className="mt-1 text-xs text-slate-500">
                Fixed for a resend: counted again at launch, so anyone who opens the original before then is left out.
              </p>
            </div>
          ) : (
            <SelectField
              label="Target Segment"
              required
              placeholder="Select a segment"
              options={options}
              selectProps={segmentId.props}
              errors={segmentId.errors}
              hint={
                !hasSegments ? (
                  <Link to="/segments/new" className="text-primary underline">
                    Create a segment first
                  </Link>
                ) : undefined
              }
            />
          )}
          {resendAudience ? null : (
            <noscript>
              <button type="submit" name="intent" value="preview" className="btn-ghost text-xs">
                Preview audience
              </button>
            </noscript>
          )}
        </section>
        {resendAudience ? null : (
          <aside>
            <AudiencePanel sample={sample} loading={sampleLoading} />
          </aside>
        )}
      </div>
    </div>
  );
}

/** Step 2: the subject and the message, with the e-mail's preview and the AI's suggestions. */
/** A template the message can start from, as the wizard lists them. */
export type TemplateChoice = {
  id: string;
  name: string;
  subject: string;
  starter: boolean;
  /** The template's own From name and Reply-To, the campaign's when it gives none ("": the sender's). */
  fromName: string;
  replyTo: string;
};

export function MessageStep({
  hidden,
  templateField,
  senderFields,
  templates,
  template,
  previewCustomer,
  subjectField,
  messageField,
  tracking,
  subject,
  message,
  personaliseHint,
  sampleName,
  sender,
  hydrated,
  segment,
  onSubjectTyped,
  onUseSuggestion,
}: {
  hidden: boolean;
  templateField: FieldState<ReturnType<typeof getSelectProps>>;
  /** A message from a template: its own From name, Reply-To and preheader. */
  senderFields: Record<"fromName" | "replyTo" | "preheader", FieldState<InputProps>>;
  templates: TemplateChoice[];
  /** The template chosen, or null for a message written here. */
  template: TemplateChoice | null;
  /** Whose values fill the template's preview: the segment's first customer. */
  previewCustomer: { id: string; name: string } | null;
  subjectField: FieldState<InputProps>;
  messageField: FieldState<ReturnType<typeof getTextareaProps>>;
  tracking: InputProps;
  subject: string;
  message: string;
  personaliseHint: string | null;
  sampleName: string;
  sender: { name: string; postalAddress: string | undefined; exampleUnsubscribeUrl: string };
  hydrated: boolean;
  segment: { id: string; name: string } | null;
  /** The user typed in the subject: it no longer follows the name. */
  onSubjectTyped: () => void;
  onUseSuggestion: (text: string) => void;
}) {
  return (
    <div hidden={hidden} data-testid="step-2">
      <section className="card space-y-4 p-5" aria-label="Create Message">
        {templates.length > 0 ? (
          <SelectField
            label="Start from"
            hint="A template of yours or a starter: its design is copied into the campaign when you launch, so changing the template later changes nothing this campaign sent."
            selectProps={templateField.props}
            errors={templateField.errors}
            placeholder="Plain text, written below"
            options={templates.map((t) => ({
              value: t.id,
              label: t.name,
              group: t.starter ? "Starter templates" : "Your templates",
            }))}
          />
        ) : null}
        <Field
          label="Subject line"
          required={template === null}
          hint={template ? "Leave it empty to use the template's subject. Merge tags work here too." : undefined}
          inputProps={{
            ...subjectField.props,
            maxLength: 300,
            placeholder: template ? template.subject : "A little something for you",
            // Typed by the user (the name's updates come as untrusted events): it no longer follows the name.
            onInput: (event) => {
              if (event.nativeEvent.isTrusted) onSubjectTyped();
            },
          }}
          errors={subjectField.errors}
        />
        {template ? (
          <div className="space-y-3">
            <p className="flex gap-2 text-sm text-slate-700">
              <Info className="mt-0.5 h-4 w-4 shrink-0 text-primary" aria-hidden="true" />
              <span>
                The message is the template <strong>{template.name}</strong>.{" "}
                {template.starter ? (
                  <Link to="/templates" className="link" target="_blank" rel="noreferrer">
                    Duplicate it on the Templates screen to change it
                  </Link>
                ) : (
                  <Link to={`/templates/${template.id}`} className="link" target="_blank" rel="noreferrer">
                    Edit the template
                  </Link>
                )}
              </span>
            </p>
            <TemplateMessagePreview templateId={template.id} customer={previewCustomer} hydrated={hydrated} />
          </div>
        ) : null}
        <div hidden={template === null} className="grid gap-4 sm:grid-cols-2">
          <Field
            label="From name"
            hint={`Leave it empty for ${template?.fromName || sender.name || "your shop's name"}${template?.fromName ? ", the template's" : ""}. The address stays your sending address.`}
            inputProps={{ ...senderFields.fromName.props, maxLength: 100 }}
            errors={senderFields.fromName.errors}
          />
          <Field
            label="Reply-To"
            hint={
              template?.replyTo
                ? `Where replies go; leave it empty for ${template.replyTo}, the template's.`
                : "Where replies go; leave it empty for the usual address."
            }
            inputProps={{ ...senderFields.replyTo.props, maxLength: 254 }}
            errors={senderFields.replyTo.errors}
          />
          <div className="sm:col-span-2">
            <Field
              label="Preheader"
              hint="The line inbox lists show after the subject; leave it empty for the template's."
              inputProps={{ ...senderFields.preheader.props, maxLength: 200 }}
              errors={senderFields.preheader.errors}
            />
          </div>
        </div>
        <div hidden={template !== null} className="space-y-4">
          <TextareaField
            label="Message Content"
            required
            textareaProps={{
              ...messageField.props,
              rows: 5,
              maxLength: 10_000,
              placeholder: "Hi {NAME}, ...",
            }}
            errors={messageField.errors}
          />
          <p className="flex gap-2 rounded-lg bg-primary-light/60 px-3 py-2 text-sm text-slate-700">
            <Info className="mt-0.5 h-4 w-4 shrink-0 text-primary" aria-hidden="true" />
            <span>
              Use <code className="font-mono font-semibold">{"{NAME}"}</code> to personalise: it becomes each
              customer&apos;s name. Use <code className="font-mono font-semibold">{UNSUBSCRIBE_PLACEHOLDER}</code> to
              place the unsubscribe link; without it, the link is added at the end.
            </span>
          </p>
          {personaliseHint ? (
            <p className="flex gap-2 text-sm text-amber-700" data-testid="personalise-warning">
              <AlertTriangle className="mt-0.5 h-4 w-4 shrink-0" aria-hidden="true" /> {personaliseHint}
            </p>
          ) : null}
          {message.trim() || subject.trim() ? (
            <EmailPreview
              subject={subject}
              message={message}
              sampleName={sampleName}
              senderName={sender.name}
              postalAddress={sender.postalAddress}
              unsubscribeUrl={sender.exampleUnsubscribeUrl}
              interactive={hydrated}
            />
          ) : null}
        </div>
        <CheckboxField label={TRACKING_TEXTS.checkbox} hint={TRACKING_TEXTS.checkboxHint} inputProps={tracking} />
        {hydrated && template === null ? (
          <SuggestionsPanel segmentId={segment?.id ?? ""} segmentName={segment?.name ?? ""} onUse={onUseSuggestion} />
        ) : null}
      </section>
    </div>
  );
}

/** A name of the review's list: small grey capitals. */
const REVIEW_LABEL = "text-xs uppercase tracking-wide text-slate-500";
/** A value of the review that wraps a long word instead of widening the card. */
const WRAPPED_VALUE = "break-words font-medium text-slate-900";
/** A review item across both columns. */
const WIDE_ITEM = "min-w-0 sm:col-span-2";

/** One item of the review: its name over its value. */
function ReviewItem({
  label,
  className,
  valueClassName,
  testId,
  children,
}: {
  label: string;
  className?: string;
  valueClassName: string;
  testId?: string;
  children: ReactNode;
}) {
  return (
    <div className={className}>
      <dt className={REVIEW_LABEL}>{label}</dt>
      <dd className={valueClassName} data-testid={testId}>
        {children}
      </dd>
    </div>
  );
}

/** Step 3: what will be sent, to whom, before the launch. */
export function ReviewStep({
  hidden,
  name,
  subject,
  trackingOn,
  resendAudience,
  segmentName,
  audienceSize,
  reach,
  message,
  personaliseHint,
  started,
}: {
  hidden: boolean;
  name: string;
  subject: string;
  trackingOn: boolean;
  resendAudience: string | null;
  segmentName: string | null;
  audienceSize: number;
  reach: AudienceReach | null;
  message: string;
  personaliseHint: string | null;
  started: boolean;
}) {
  return (
    <div hidden={hidden} data-testid="step-3">
      <section className="card space-y-4 p-5" aria-label="Review & Launch">
        <h3 className="font-semibold text-slate-900">Review</h3>
        <dl className="grid gap-4 text-sm sm:grid-cols-2">
          <ReviewItem label="Campaign Name" className="min-w-0" valueClassName={WRAPPED_VALUE} testId="review-name">
            {name}
          </ReviewItem>
          <ReviewItem
            label={resendAudience ? "Audience" : "Target Segment"}
            className="min-w-0"
            valueClassName={WRAPPED_VALUE}
            testId="review-segment"
          >
            {resendAudience ?? segmentName ?? "No segment"}
          </ReviewItem>
          <div>
            <dt className={REVIEW_LABEL}>Audience Size</dt>
            <dd className="font-medium text-slate-900" data-testid="review-audience">
              {audienceSize.toLocaleString("en-IN")} customers
            </dd>
            {reach ? (
              <dd
                className={`mt-0.5 text-sm ${reach.suppressed > 0 ? "text-amber-700" : "text-slate-600"}`}
                data-testid="review-reach"
              >
                {audienceReachText(reach)}
              </dd>
            ) : null}
          </div>
          <ReviewItem label="Expected Delivery Rate" valueClassName="font-medium text-green-700">
            ~90% (based on historical data)
          </ReviewItem>
          <ReviewItem
            label="Subject line"
            className={WIDE_ITEM}
            valueClassName="break-words text-slate-900"
            testId="review-subject"
          >
            {subject}
          </ReviewItem>
          <ReviewItem
            label="Message"
            className={WIDE_ITEM}
            valueClassName="whitespace-pre-wrap break-words rounded-lg bg-slate-50 p-3 text-slate-900"
            testId="review-message"
          >
            {message}
          </ReviewItem>
          <ReviewItem label="Tracking" className={WIDE_ITEM} valueClassName="text-slate-900" testId="review-tracking">
            {trackingOn ? TRACKING_TEXTS.on : TRACKING_TEXTS.off}
          </ReviewItem>
        </dl>
        {personaliseHint ? <p className="text-sm text-amber-700">{personaliseHint}</p> : null}
        <p
          role="note"
          className="flex gap-2 rounded-lg border border-amber-200 bg-amber-50 px-3 py-2 text-sm text-amber-900"
        >
          <AlertTriangle className="mt-0.5 h-4 w-4 shrink-0" aria-hidden="true" />
          <span>
            Delivery begins immediately once you launch. You can view the campaign&apos;s statistics once it is
            complete.
            {started ? " Launching creates a new campaign." : ""}
          </span>
        </p>
      </section>
    </div>
  );
}

/** Under the steps: Cancel or Back, Save as draft, and Continue or Launch Campaign. */
export function WizardButtons({
  step,
  lastStep,
  busy,
  launching,
}: {
  step: number;
  lastStep: number;
  busy: boolean;
  launching: boolean;
}) {
  return (
    <div className="flex flex-wrap items-center justify-between gap-2">
      {step === 1 ? (
        <Link to="/campaigns" className="btn-secondary">
          Cancel
        </Link>
      ) : (
        <button type="submit" name="intent" value="back" formNoValidate className="btn-secondary" disabled={busy}>
          Back
        </button>
      )}
      <div className="flex flex-wrap gap-2">
        <button type="submit" name="intent" value="draft" className="btn-secondary" disabled={busy}>
          <Save className="h-4 w-4" aria-hidden="true" /> Save as draft
        </button>
        {step < lastStep ? (
          <button type="submit" name="intent" value="continue" className="btn-primary" disabled={busy}>
            Continue
          </button>
        ) : (
          <button type="submit" name="intent" value="launch" className="btn-primary" disabled={busy}>
            {launching ? (
              <Loader2 className="h-4 w-4 animate-spin" aria-hidden="true" />
            ) : (
              <Rocket className="h-4 w-4" aria-hidden="true" />
            )}
            Launch Campaign
          </button>
        )}
      </div>
    </div>
  );
}
