// /campaigns/new and /campaigns/edit/{id}: the Create Campaign wizard in three steps (Select
// Audience, Create Message, Review & Launch). All fields stay in one form and the steps that are
// not shown are hidden, so every submission carries everything typed so far. With JavaScript,
// Continue and Back check the step with Conform in the browser and move without a request; without
// it, each step is a real submission the action checks with the same schemas and answers with the
// next step (or the same one with its messages). Launch and Save as draft always go to the server.
// A launch carries the key the page was rendered with, so repeated submits of one launch (a
// double-click, a resubmitted page) make one campaign (docs/rules.md#one-launch-one-send).
import { getFormProps, getInputProps, getSelectProps, getTextareaProps, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data } from "@remix-run/node";
import { randomUUID } from "node:crypto";
import { Form, Link, useActionData, useLoaderData, useNavigation, useParams } from "@remix-run/react";
import { AlertTriangle, ArrowLeft, Info, Loader2, Rocket, Save } from "lucide-react";
import { useEffect, useMemo, useRef, useState } from "react";
import { toast } from "sonner";
import { z } from "zod";
import {
  type AudienceSample,
  AudiencePanel,
  fetchAudienceSample,
  Stepper,
  SuggestionsPanel,
  WIZARD_TOAST_MS,
} from "~/components/campaign-wizard-parts";
import { fetchAudienceReach, type SegmentReach } from "~/components/audience-reach";
import { EmailPreview } from "~/components/email-preview";
import { RouteErrorBoundary } from "~/components/error-boundary";
import { CheckboxField, Field, FormAlert, LIVE_VALIDATION, SelectField, TextareaField } from "~/components/forms";
import { allowMethods, ApiError, keepAllowHeader } from "~/lib/api.server";
import { BRAND } from "~/lib/brand";
import { audienceReachText, hasNamePlaceholder, launchedMessage } from "~/lib/campaigns";
import { nonOpenersText } from "~/lib/campaign-resend";
import { replyRefused } from "~/lib/forms.server";
import { UNSUBSCRIBE_PLACEHOLDER } from "~/lib/email-body";
import { TRACKING_TEXTS } from "~/lib/engagement";
import { orRespond } from "~/lib/responses";
import { isId } from "~/lib/id";
import {
  CAMPAIGN_MESSAGES,
  CampaignAudienceSchema,
  CampaignContentSchema,
  CampaignMessageSchema,
  IdempotencyKeySchema,
  TrackingCheckboxSchema,
} from "~/schemas/campaign";
import { getEnv } from "~/env.server";
import { requireUser } from "~/services/auth.server";
import { saveDraft } from "~/services/campaigns/drafts.server";
import { saveOrLaunchOnce } from "~/services/campaigns/launch.server";
import { audienceReach, resendReach } from "~/services/campaigns/reach.server";
import { type CampaignDto, getCampaign } from "~/services/campaigns/views.server";
import { listSegments, segmentAudienceCount, segmentOverview } from "~/services/segments.server";
import { senderOf } from "~/services/email/sender.server";
import { redirectWithFlash } from "~/services/session.server";

// A 405 keeps its Allow header on the rendered page (app/lib/api.server.ts).
export const headers = keepAllowHeader;

export const meta: MetaFunction = ({ params }) => [
  { title: `${params.id ? "Edit Campaign" : "Create Campaign"} · ${BRAND}` },
];

const NOT_FOUND = "Campaign not found";
const LAUNCH_FAILED = "Failed to launch campaign";
const DRAFT_FAILED = "Failed to save the draft";
/** A launch key sent again with other content (the page was kept, e.g. by the browser's Back). */
const LAUNCH_KEY_REUSED =
  "This page has already launched a campaign with other content. Open the wizard again to launch another one.";
const LAST_STEP = 3;
/** What the sample recipient is called in the preview when the segment gives none. */
const PREVIEW_NAME = "John";

// What each button checks: Continue the fields of its step (and those before), Launch everything,
// Save as draft only what identifies the campaign, Back and the audience preview nothing. Continue
// and Launch also refuse a segment with no customers, at step 1 where it is chosen: `isEmpty` knows
// the counts (the loader's in the browser, a fresh count on the server).
// A resend draft's audience is fixed (the non-openers of its source): `null` instead of `isEmpty`,
// and no segment is asked for (docs/rules.md#resend-to-non-openers).
type IsEmpty = (segmentId: string) => boolean;
const NO_SEGMENT = { segmentId: z.string().trim().optional().default("") };
const audienceStep = (isEmpty: IsEmpty | null) =>
  isEmpty === null
    ? CampaignAudienceSchema.extend(NO_SEGMENT)
    : CampaignAudienceSchema.extend({
        segmentId: CampaignAudienceSchema.shape.segmentId.refine((id) => !isEmpty(id), CAMPAIGN_MESSAGES.emptySegment),
      });
// The tracking checkbox is absent when unticked (the API's field is absent when on).
const TRACKING = { trackingEnabled: TrackingCheckboxSchema };
const launchSchema = (isEmpty: IsEmpty | null) =>
  CampaignContentSchema.extend(audienceStep(isEmpty).shape).extend(TRACKING);
const DraftSchema = CampaignAudienceSchema.extend({
  ...TRACKING,
  subject: z.string().trim().max(300, "Subject line must be at most 300 characters").optional(),
  message: z.string().trim().max(10_000, "Message content must be at most 10000 characters").optional(),
  description: z.string().trim().max(2000, "Description must be at most 2000 characters").optional(),
});
const NothingSchema = z.object({});
const draftSchema = (isEmpty: IsEmpty | null) => (isEmpty === null ? DraftSchema.extend(NO_SEGMENT) : DraftSchema);

type WizardValues = {
  name: string;
  segmentId: string;
  subject: string;
  message: string;
  description: string;
  trackingEnabled: boolean;
};
type Intent = "continue" | "back" | "launch" | "draft" | "preview";

function readIntent(formData: FormData): Intent {
  const value = formData.get("intent");
  return value === "back" || value === "launch" || value === "draft" || value === "preview" ? value : "continue";
}

function readStep(formData: FormData): number {
  const n = Number(formData.get("step"));
  return Number.isInteger(n) ? Math.min(LAST_STEP, Math.max(1, n)) : 1;
}

function schemaFor(formData: FormData, isEmpty: IsEmpty | null): z.ZodType<Partial<WizardValues>> {
  const intent = readIntent(formData);
  if (intent === "back" || intent === "preview") return NothingSchema;
  if (intent === "draft") return draftSchema(isEmpty);
  if (intent === "launch") return launchSchema(isEmpty);
  const step = readStep(formData);
  if (step === 1) return audienceStep(isEmpty);
  return step === 2 ? audienceStep(isEmpty).extend(CampaignMessageSchema.shape) : launchSchema(isEmpty);
}

/** On the server: whether the chosen segment has no customers now (an unknown one is left to the schema). */
async function emptyOnServer(userId: string, formData: FormData): Promise<IsEmpty> {
  const chosen = String(formData.get("segmentId") ?? "").trim();
  const count = isId(chosen) ? await segmentAudienceCount(userId, chosen).catch(() => null) : null;
  return (segmentId) => segmentId === chosen && count === 0;
}

/** The launch key the page was rendered with (absent or malformed: the launch simply has none). */
function launchKeyOf(formData: FormData): string | null {
  const parsed = IdempotencyKeySchema.safeParse(formData.get("launchKey"));
  return parsed.success ? parsed.data : null;
}

/** A field's current value as text (Conform gives unknown for a field it has not seen). */
const text = (value: unknown) => (typeof value === "string" ? value : "");

/** The step that shows the first field with a message (a refused step, or a refused launch). */
function stepOfErrors(error: Record<string, unknown> | null | undefined, fallback: number): number {
  const names = Object.keys(error ?? {}).filter((k) => k !== "");
  if (names.some((n) => n === "name" || n === "segmentId")) return 1;
  if (names.some((n) => n === "subject" || n === "message")) return 2;
  return fallback;
}

async function sampleOf(userId: string, segmentId: string): Promise<AudienceSample | null> {
  if (!isId(segmentId)) return null;
  try {
    const { count, customers } = await segmentOverview(userId, segmentId);
    return {
      segmentId,
      count,
      customers: customers.map((c) => ({ _id: c.id, firstName: c.firstName, lastName: c.lastName, email: c.email })),
    };
  } catch (error) {
    if (error instanceof ApiError) return null;
    throw error;
  }
}

/** Who a launch to the segment would reach now (null for no segment, or one that is not the user's). */
async function reachOf(userId: string, segmentId: string): Promise<SegmentReach | null> {
  if (!isId(segmentId)) return null;
  try {
    return { segmentId, ...(await audienceReach(userId, segmentId)) };
  } catch (error) {
    if (error instanceof ApiError) return null;
    throw error;
  }
}

export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const segments = (await listSegments(user.id)).map((s) => ({
    id: s.id,
    name: s.name,
    customerCount: s.customerCount,
  }));
  let campaign: Awaited<ReturnType<typeof getCampaign>> | null = null;
  if (params.id) campaign = await orRespond(getCampaign(user.id, params.id.toLowerCase()), NOT_FOUND);
  const asked = campaign?.segmentId ?? new URL(request.url).searchParams.get("segmentId") ?? "";
  // A segment since deleted (or not the user's) is not chosen: the user picks again.
  const segmentId = segments.some((s) => s.id === asked) ? asked : "";
  // A resend draft's fixed audience: the non-openers of its source campaign, counted now.
  const resend =
    campaign?.status === "Draft" && campaign.resendOfId
      ? {
          sourceName: await getCampaign(user.id, campaign.resendOfId).then(
            (source) => source.name,
            () => null,
          ),
          reach: await resendReach(user.id, campaign.resendOfId),
        }
      : null;
  const values: WizardValues = {
    name: campaign?.name ?? "",
    segmentId,
    subject: campaign?.subject ?? "",
    message: campaign?.message ?? "",
    description: campaign?.description ?? "",
    // On for a new campaign (docs/rules.md#opens-and-clicks).
    trackingEnabled: campaign?.trackingEnabled ?? true,
  };
  return {
    id: campaign?.id ?? null,
    resend,
    started: campaign ? campaign.status !== "Draft" : false,
    segments,
    values,
    sample: segmentId ? await sampleOf(user.id, segmentId) : null,
    reach: segmentId ? await reachOf(user.id, segmentId) : null,
    // The message preview shows the e-mail as sent: from the tenant's sender, with an example
    // unsubscribe link (each recipient's own is made at send).
    ...(await senderOf(user.id).then((s) => ({ senderName: s.name, senderPostalAddress: s.postalAddress }))),
    exampleUnsubscribeUrl: `${getEnv().publicUrl}/u/example`,
    // One key per rendered wizard: every submit of its Launch carries it.
    launchKey: randomUUID(),
  };
}

export async function action({ request, params }: ActionFunctionArgs) {
  allowMethods(request, "GET", "POST");
  const user = await requireUser(request);
  const formData = await request.formData();
  const intent = readIntent(formData);
  const step = readStep(formData);
  const chosen = String(formData.get("segmentId") ?? "");
  // The step an answer shows, with what it shows of the chosen segment: its sample, and on the
  // Review step its reach.
  const showing = async (shown: number) => ({
    step: shown,
    sample: await sampleOf(user.id, chosen),
    reach: shown === LAST_STEP ? await reachOf(user.id, chosen) : null,
  });
  const editId = params.id?.toLowerCase();
  const editing = editId ? await getCampaign(user.id, editId).catch(() => null) : null;
  const isEmpty = editing?.status === "Draft" && editing.resendOfId ? null : await emptyOnServer(user.id, formData);

  if (intent === "launch") {
    const submission = parseWithZod(formData, { schema: launchSchema(isEmpty) });
    if (submission.status !== "success") {
      const result = submission.reply();
      return data({ result, ...(await showing(stepOfErrors(result.error, step))), failure: null }, { status: 400 });
    }
    const launchKey = launchKeyOf(formData);
    let launched: CampaignDto;
    try {
      // A draft launches in place; launching a campaign that has started makes a new one (the page
      // says so): the service's draft rule (CampaignTarget.editing).
      ({ campaign: launched } = await saveOrLaunchOnce(
        user.id,
        { status: "Active", content: submission.value, editing: editId },
        launchKey ? { key: launchKey, scope: `wizard:${editId ?? "new"}`, mismatch: LAUNCH_KEY_REUSED } : null,
      ));
    } catch (error) {
      const reason = error instanceof ApiError ? error.message : "Unknown error";
      const refused = replyRefused(submission, error, `${LAUNCH_FAILED}: ${reason}`);
      return data({ result: refused.data, ...(await showing(LAST_STEP)), failure: reason }, refused.init ?? undefined);
    }
    // Lands on the launched campaign, whose figures follow the send, and says who the launch left out
    // as suppressed, if anyone ("… 3,120 of 3,271 will receive it; 151 suppressed").
    return redirectWithFlash(request, `/campaigns/${launched.id}`, {
      kind: "toast",
      type: "success",
      message: launchedMessage(launched),
    });
  }

  if (intent === "draft") {
    const submission = parseWithZod(formData, { schema: draftSchema(isEmpty) });
    if (submission.status !== "success") {
      const result = submission.reply();
      return data({ result, ...(await showing(stepOfErrors(result.error, step))), failure: null }, { status: 400 });
    }
    const v = submission.value;
    const content = {
      name: v.name,
      segmentId: v.segmentId,
      subject: v.subject ?? "",
      message: v.message ?? "",
      description: v.description ?? "",
      trackingEnabled: v.trackingEnabled,
    };
    try {
      // A draft is saved in place; a campaign that has started keeps its record and the draft is new.
      await saveDraft(user.id, content, { editing: editId });
    } catch (error) {
      const reason = error instanceof ApiError ? error.message : "Unknown error";
      const refused = replyRefused(submission, error, `${DRAFT_FAILED}: ${reason}`);
      return data({ result: refused.data, ...(await showing(step)), failure: null }, refused.init ?? undefined);
    }
    return redirectWithFlash(request, "/campaigns", {
      kind: "toast",
      type: "success",
      message: "Campaign saved as draft",
    });
  }

  // Without JavaScript: a step forward or back, or the preview of the chosen segment.
  const submission = parseWithZod(formData, { schema: schemaFor(formData, isEmpty) });
  const result = submission.reply();
  if (submission.status !== "success") {
    return data({ result, ...(await showing(stepOfErrors(result.error, step))), failure: null }, { status: 400 });
  }
  const next = intent === "back" ? Math.max(1, step - 1) : intent === "preview" ? step : Math.min(LAST_STEP, step + 1);
  // The subject starts as the campaign's name (with JavaScript it follows the name until edited).
  const name = String(formData.get("name") ?? "").trim();
  if (next === 2 && step === 1 && !String(formData.get("subject") ?? "").trim() && name) {
    result.initialValue = { ...result.initialValue, subject: name };
  }
  return data({ result, ...(await showing(next)), failure: null });
}

export default function CampaignWizard() {
  const {
    id,
    resend,
    started,
    segments,
    values,
    sample: loadedSample,
    reach: loadedReach,
    launchKey,
    senderName,
    senderPostalAddress,
    exampleUnsubscribeUrl,
  } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const navigation = useNavigation();
  const [step, setStep] = useState(actionData?.step ?? 1);
  const [hydrated, setHydrated] = useState(false);
  const [sample, setSample] = useState<AudienceSample | null>(actionData?.sample ?? loadedSample);
  const [sampleLoading, setSampleLoading] = useState(false);
  const [reach, setReach] = useState<SegmentReach | null>(actionData?.reach ?? loadedReach);
  // The subject follows the campaign's name until the user types in it.
  const [subjectEdited, setSubjectEdited] = useState(values.subject !== "" && values.subject !== values.name);
  const topRef = useRef<HTMLDivElement>(null);
  // Set when Launch is submitted, so a second click before the button shows disabled sends nothing.
  const launchSent = useRef(false);
  const isEmpty = useMemo(() => {
    const counts = new Map(segments.map((s) => [s.id, s.customerCount]));
    return (segmentId: string) => counts.get(segmentId) === 0;
  }, [segments]);

  const [form, fields] = useForm({
    id: "campaign-wizard",
    lastResult: actionData?.result,
    defaultValue: values,
    onValidate: ({ formData }) => parseWithZod(formData, { schema: schemaFor(formData, resend ? null : isEmpty) }),
    onSubmit: (event, { formData }) => {
      // Continue and Back move in the browser once the step checks out; the rest goes to the server.
      const intent = readIntent(formData);
      if (intent === "launch") {
        if (launchSent.current) event.preventDefault();
        launchSent.current = true;
        return;
      }
      if (intent !== "continue" && intent !== "back") return;
      event.preventDefault();
      const current = readStep(formData);
      setStep(intent === "back" ? Math.max(1, current - 1) : Math.min(LAST_STEP, current + 1));
      topRef.current?.scrollIntoView({ block: "start" });
    },
    ...LIVE_VALIDATION,
  });

  useEffect(() => setHydrated(true), []);
  // A launch the server answered without moving the page (refused) may be sent again.
  useEffect(() => {
    if (navigation.state === "idle") launchSent.current = false;
  }, [navigation.state]);
  useEffect(() => {
    if (!actionData) return;
    setStep(actionData.step);
    if (actionData.reach) setReach(actionData.reach);
    if (actionData.failure) toast.error(LAUNCH_FAILED, { description: actionData.failure, duration: WIZARD_TOAST_MS });
  }, [actionData]);

  const segmentId = text(fields.segmentId.value);
  const segment = segments.find((s) => s.id === segmentId) ?? null;
  const name = text(fields.name.value);
  const subject = text(fields.subject.value);

  useEffect(() => {
    if (!hydrated || subjectEdited || subject === name) return;
    form.update({ name: fields.subject.name, value: name });
    // Only the name moves the subject; the subject's own value is read to skip a write that changes nothing.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [name, subjectEdited, hydrated]);

  // A segment with no customers is refused as soon as it is chosen, under the picker.
  useEffect(() => {
    if (hydrated && isEmpty(segmentId)) form.validate({ name: fields.segmentId.name });
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [segmentId, hydrated]);

  // The preview follows the chosen segment (the server rendered the first one).
  useEffect(() => {
    if (!hydrated) return;
    if (!isId(segmentId)) {
      setSample(null);
      return;
    }
    if (sample?.segmentId === segmentId) return;
    const controller = new AbortController();
    setSampleLoading(true);
    fetchAudienceSample(segmentId, controller.signal)
      .then(setSample)
      .catch(() => {
        if (controller.signal.aborted) return;
        setSample(null);
        toast.error("Failed to load audience preview", { duration: WIZARD_TOAST_MS });
      })
      .finally(() => {
        if (!controller.signal.aborted) setSampleLoading(false);
      });
    return () => controller.abort();
    // The sample is what this effect sets; it only reacts to the choice.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [segmentId, hydrated]);

  // The Review step asks again each time it is shown: suppressions change (an unsubscribe, an import).
  const reviewing = step === LAST_STEP;
  useEffect(() => {
    if (!hydrated || !reviewing || !isId(segmentId)) return;
    const controller = new AbortController();
    fetchAudienceReach(segmentId, controller.signal)
      .then(setReach)
      // Without it the step still shows the audience size; the launch says who it left out.
      .catch(() => undefined);
    return () => controller.abort();
  }, [segmentId, reviewing, hydrated]);

  const shownSample = sample && sample.segmentId === segmentId ? sample : null;
  const shownReach = resend ? resend.reach : reach && reach.segmentId === segmentId ? reach : null;
  const audienceSize = resend ? resend.reach.audience : (shownSample?.count ?? segment?.customerCount ?? 0);
  const resendAudience = resend
    ? nonOpenersText(resend.reach.audience, resend.sourceName ?? "a deleted campaign")
    : null;
  const message = text(fields.message.value);
  // The preview reads as the segment's first customer with a name will read it (their name as sent).
  const sampleName =
    shownSample?.customers.map((c) => `${c.firstName ?? ""} ${c.lastName ?? ""}`.trim()).find(Boolean) ?? PREVIEW_NAME;
  const personaliseHint = message.trim() && !hasNamePlaceholder(message) ? CAMPAIGN_MESSAGES.personalise : null;
  const submittingIntent = navigation.state !== "idle" ? navigation.formData?.get("intent") : null;
  const launching = submittingIntent === "launch";
  // Every button waits until the page has moved on (or the server's answer has come back).
  const busy = navigation.state !== "idle";
  const options = useMemo(
    () =>
      segments.map((s) => ({
        value: s.id,
        label: `${s.name} (${s.customerCount.toLocaleString("en-IN")} customer${s.customerCount === 1 ? "" : "s"})`,
      })),
    [segments],
  );

  return (
    <div className="mx-auto max-w-6xl space-y-4" ref={topRef}>
      <div className="flex items-center gap-2">
        <Link to="/campaigns" className="btn-ghost" aria-label="Back to Campaigns">
          <ArrowLeft className="h-5 w-5" />
        </Link>
        <h2 className="text-2xl font-bold text-slate-900">{id ? "Edit Campaign" : "Create Campaign"}</h2>
      </div>

      {started ? (
        <div
          role="note"
          className="flex gap-2 rounded-lg border border-amber-200 bg-amber-50 px-3 py-2 text-sm text-amber-900"
          data-testid="relaunch-note"
        >
          <Info className="mt-0.5 h-4 w-4 shrink-0" aria-hidden="true" />
          <p>
            This campaign has already started sending. Launching creates a new campaign; the original keeps its delivery
            log and results.
          </p>
        </div>
      ) : null}

      <div className="card p-4">
        <Stepper step={step} />
      </div>

      <FormAlert id={form.errorId} errors={form.errors} />

      <Form method="post" className="space-y-4" {...getFormProps(form)}>
        {/* The default button: Enter in a field continues, it never launches. */}
        <button type="submit" name="intent" value="continue" className="sr-only" tabIndex={-1} aria-hidden="true" />
        <input type="hidden" name="step" value={step} />
        <input type="hidden" name="launchKey" value={launchKey} />

        <div hidden={step !== 1} data-testid="step-1">
          <div className="grid grid-cols-1 gap-4 lg:grid-cols-[minmax(0,1fr)_340px]">
            <section className="card space-y-4 self-start p-5" aria-label="Select Audience">
              <Field
                label="Campaign Name"
                required
                inputProps={{
                  ...getInputProps(fields.name, { type: "text" }),
                  maxLength: 200,
                  placeholder: "June Discount Campaign",
                }}
                errors={fields.name.errors}
              />
              {resendAudience ? (
                <div data-testid="resend-audience">
                  <p className="text-sm font-medium text-slate-700">Audience</p>
                  <p className="mt-1 rounded-lg border border-slate-200 bg-slate-50 px-3 py-2 text-sm text-slate-900">
                    {resendAudience}
                  </p>
                  <p className="mt-1 text-xs text-slate-500">
                    Fixed for a resend: counted again at launch, so anyone who opens the original before then is left
                    out.
                  </p>
                </div>
              ) : (
                <SelectField
                  label="Target Segment"
                  required
                  placeholder="Select a segment"
                  options={options}
                  selectProps={getSelectProps(fields.segmentId)}
                  errors={fields.segmentId.errors}
                  hint={
                    segments.length === 0 ? (
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
                <AudiencePanel sample={shownSample} loading={sampleLoading} />
              </aside>
            )}
          </div>
        </div>

        <div hidden={step !== 2} data-testid="step-2">
          <section className="card space-y-4 p-5" aria-label="Create Message">
            <Field
              label="Subject line"
              required
              inputProps={{
                ...getInputProps(fields.subject, { type: "text" }),
                maxLength: 300,
                placeholder: "A little something for you",
                // Typed by the user (the name's updates come as untrusted events): it no longer follows the name.
                onInput: (event) => {
                  if (event.nativeEvent.isTrusted) setSubjectEdited(true);
                },
              }}
              errors={fields.subject.errors}
            />
            <TextareaField
              label="Message Content"
              required
              textareaProps={{
                ...getTextareaProps(fields.message),
                rows: 5,
                maxLength: 10_000,
                placeholder: "Hi {NAME}, ...",
              }}
              errors={fields.message.errors}
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
                senderName={senderName}
                postalAddress={senderPostalAddress}
                unsubscribeUrl={exampleUnsubscribeUrl}
                interactive={hydrated}
              />
            ) : null}
            <CheckboxField
              label={TRACKING_TEXTS.checkbox}
              hint={TRACKING_TEXTS.checkboxHint}
              inputProps={getInputProps(fields.trackingEnabled, { type: "checkbox" })}
            />
            {hydrated ? (
              <SuggestionsPanel
                segmentId={segment?.id ?? ""}
                segmentName={segment?.name ?? ""}
                onUse={(text) => form.update({ name: fields.message.name, value: text, validated: true })}
              />
            ) : null}
          </section>
        </div>

        <div hidden={step !== 3} data-testid="step-3">
          <section className="card space-y-4 p-5" aria-label="Review & Launch">
            <h3 className="font-semibold text-slate-900">Review</h3>
            <dl className="grid gap-4 text-sm sm:grid-cols-2">
              <div className="min-w-0">
                <dt className="text-xs uppercase tracking-wide text-slate-500">Campaign Name</dt>
                <dd className="break-words font-medium text-slate-900" data-testid="review-name">
                  {text(fields.name.value)}
                </dd>
              </div>
              <div className="min-w-0">
                <dt className="text-xs uppercase tracking-wide text-slate-500">
                  {resendAudience ? "Audience" : "Target Segment"}
                </dt>
                <dd className="break-words font-medium text-slate-900" data-testid="review-segment">
                  {resendAudience ?? segment?.name ?? "No segment"}
                </dd>
              </div>
              <div>
                <dt className="text-xs uppercase tracking-wide text-slate-500">Audience Size</dt>
                <dd className="font-medium text-slate-900" data-testid="review-audience">
                  {audienceSize.toLocaleString("en-IN")} customers
                </dd>
                {shownReach ? (
                  <dd
                    className={`mt-0.5 text-sm ${shownReach.suppressed > 0 ? "text-amber-700" : "text-slate-600"}`}
                    data-testid="review-reach"
                  >
                    {audienceReachText(shownReach)}
                  </dd>
                ) : null}
              </div>
              <div>
                <dt className="text-xs uppercase tracking-wide text-slate-500">Expected Delivery Rate</dt>
                <dd className="font-medium text-green-700">~90% (based on historical data)</dd>
              </div>
              <div className="min-w-0 sm:col-span-2">
                <dt className="text-xs uppercase tracking-wide text-slate-500">Subject line</dt>
                <dd className="break-words text-slate-900" data-testid="review-subject">
                  {text(fields.subject.value)}
                </dd>
              </div>
              <div className="min-w-0 sm:col-span-2">
                <dt className="text-xs uppercase tracking-wide text-slate-500">Message</dt>
                <dd
                  className="whitespace-pre-wrap break-words rounded-lg bg-slate-50 p-3 text-slate-900"
                  data-testid="review-message"
                >
                  {message}
                </dd>
              </div>
              <div className="min-w-0 sm:col-span-2">
                <dt className="text-xs uppercase tracking-wide text-slate-500">Tracking</dt>
                <dd className="text-slate-900" data-testid="review-tracking">
                  {fields.trackingEnabled.value === "on" ? TRACKING_TEXTS.on : TRACKING_TEXTS.off}
                </dd>
              </div>
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
            {step < LAST_STEP ? (
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
      </Form>
    </div>
  );
}

export function ErrorBoundary() {
  const params = useParams();
  return (
    <RouteErrorBoundary
      backTo="/campaigns"
      backLabel="Back to Campaigns"
      fallback={params.id ? NOT_FOUND : "Failed to load segments"}
    />
  );
}
