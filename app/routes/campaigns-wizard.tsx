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
import { ArrowLeft } from "lucide-react";
import { useEffect, useMemo, useRef, useState } from "react";
import { toast } from "sonner";
import { type AudienceSample, fetchAudienceSample, Stepper, WIZARD_TOAST_MS } from "~/components/campaign-wizard-parts";
import { fetchAudienceReach, type SegmentReach } from "~/components/audience-reach";
import { RouteErrorBoundary } from "~/components/error-boundary";
import {
  draftSchema,
  fromTemplate,
  launchKeyOf,
  LAST_STEP,
  launchSchema,
  readIntent,
  readStep,
  scheduleSchema,
  schemaFor,
  stepOfErrors,
} from "~/schemas/campaign-wizard";
import {
  AudienceStep,
  MessageStep,
  RelaunchNote,
  ReviewStep,
  WizardButtons,
} from "~/components/campaigns/wizard-steps";
import { FormAlert, LIVE_VALIDATION } from "~/components/forms";
import { ScheduleCard } from "~/components/campaigns/schedule-card";
import { useTimeZone } from "~/components/date-time";
import { formatDateTime, wallTimeToMs, zoneName } from "~/lib/dates";
import { viewerTimeZone } from "~/services/time-zone.server";
import { allowMethods, ApiError, keepAllowHeader } from "~/lib/api.server";
import { BRAND } from "~/lib/brand";
import { hasNamePlaceholder, launchedMessage } from "~/lib/campaigns";
import { nonOpenersText } from "~/lib/campaign-resend";
import { replyRefused } from "~/lib/forms.server";
import { orRespond } from "~/lib/responses";
import { isId } from "~/lib/id";
import { CAMPAIGN_MESSAGES } from "~/schemas/campaign";
import { getEnv } from "~/env.server";
import { requireUser } from "~/services/auth.server";
import { saveDraft } from "~/services/campaigns/drafts.server";
import { saveOrLaunchOnce } from "~/services/campaigns/launch.server";
import { emptySegmentCheck, wizardReach, wizardSample, wizardStart } from "~/services/campaigns/wizard.server";
import { type CampaignDto, getCampaign } from "~/services/campaigns/views.server";
import { listSegments } from "~/services/segments.server";
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
const SCHEDULE_FAILED = "Failed to schedule campaign";
/** A launch key sent again with other content (the page was kept, e.g. by the browser's Back). */
const LAUNCH_KEY_REUSED =
  "This page has already launched a campaign with other content. Open the wizard again to launch another one.";
/** What the sample recipient is called in the preview when the segment gives none. */
const PREVIEW_NAME = "John";

/** A field's current value as text (Conform gives unknown for a field it has not seen). */
const text = (value: unknown) => (typeof value === "string" ? value : "");

export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const segments = (await listSegments(user.id)).map((s) => ({
    id: s.id,
    name: s.name,
    customerCount: s.customerCount,
  }));
  let campaign: Awaited<ReturnType<typeof getCampaign>> | null = null;
  if (params.id) campaign = await orRespond(getCampaign(user.id, params.id.toLowerCase()), NOT_FOUND);
  const url = new URL(request.url);
  const { segmentId, resend, templates, values } = await wizardStart(
    user.id,
    campaign,
    { segmentId: url.searchParams.get("segmentId") ?? "", templateId: url.searchParams.get("templateId") ?? "" },
    segments.map((s) => s.id),
    viewerTimeZone(request, user).timeZone,
  );
  return {
    id: campaign?.id ?? null,
    resend,
    templates,
    started: campaign ? campaign.status !== "Draft" : false,
    scheduledAt: campaign?.status === "Draft" ? campaign.scheduledAt : null,
    segments,
    values,
    sample: segmentId ? await wizardSample(user.id, segmentId) : null,
    reach: segmentId ? await wizardReach(user.id, segmentId) : null,
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
    sample: await wizardSample(user.id, chosen),
    reach: shown === LAST_STEP ? await wizardReach(user.id, chosen) : null,
  });
  const editId = params.id?.toLowerCase();
  const editing = editId ? await getCampaign(user.id, editId).catch(() => null) : null;
  const isEmpty = editing?.status === "Draft" && editing.resendOfId ? null : await emptySegmentCheck(user.id, formData);

  if (intent === "launch" || intent === "schedule") {
    const templated = fromTemplate(formData);
    const schema = intent === "schedule" ? scheduleSchema(isEmpty, templated) : launchSchema(isEmpty, templated);
    const submission = parseWithZod(formData, { schema });
    if (submission.status !== "success") {
      const result = submission.reply();
      return data({ result, ...(await showing(stepOfErrors(result.error, step))), failure: null }, { status: 400 });
    }
    const launchKey = launchKeyOf(formData);
    // A schedule's time is the wall-clock time the page showed, in the viewer's zone.
    const { timeZone } = viewerTimeZone(request, user);
    const scheduledAt =
      intent === "schedule" ? (wallTimeToMs(String(formData.get("scheduledAt")), timeZone) ?? Number.NaN) : undefined;
    let launched: CampaignDto;
    try {
      // A draft launches (or is scheduled) in place; launching a campaign that has started makes a
      // new one (the page says so): the service's draft rule (CampaignTarget.editing).
      ({ campaign: launched } = await saveOrLaunchOnce(
        user.id,
        {
          status: intent === "schedule" ? "Scheduled" : "Active",
          content: submission.value,
          editing: editId,
          scheduledAt,
        },
        launchKey ? { key: launchKey, scope: `wizard:${editId ?? "new"}`, mismatch: LAUNCH_KEY_REUSED } : null,
      ));
    } catch (error) {
      const reason = error instanceof ApiError ? error.message : "Unknown error";
      const failed = intent === "schedule" ? SCHEDULE_FAILED : LAUNCH_FAILED;
      const refused = replyRefused(submission, error, `${failed}: ${reason}`);
      return data(
        { result: refused.data, ...(await showing(LAST_STEP)), failure: { title: failed, reason } },
        refused.init ?? undefined,
      );
    }
    // Lands on the campaign: a launched one's figures follow the send, and the message says who the
    // launch left out as suppressed, if anyone ("… 3,120 of 3,271 will receive it; 151 suppressed").
    return redirectWithFlash(request, `/campaigns/${launched.id}`, {
      kind: "toast",
      type: "success",
      message:
        scheduledAt === undefined
          ? launchedMessage(launched)
          : `Campaign scheduled for ${formatDateTime(scheduledAt, timeZone)} (${zoneName(scheduledAt, timeZone)})`,
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
      templateId: v.templateId,
      fromName: v.fromName,
      replyTo: v.replyTo,
      preheader: v.preheader,
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
  // A message from a template takes the template's subject when none is typed.
  if (next === 2 && step === 1 && !String(formData.get("subject") ?? "").trim() && name && !fromTemplate(formData)) {
    result.initialValue = { ...result.initialValue, subject: name };
  }
  return data({ result, ...(await showing(next)), failure: null });
}

export default function CampaignWizard() {
  const {
    id,
    resend,
    templates,
    started,
    scheduledAt,
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
    const { failure } = actionData;
    if (failure) toast.error(failure.title, { description: failure.reason, duration: WIZARD_TOAST_MS });
  }, [actionData]);

  const segmentId = text(fields.segmentId.value);
  const segment = segments.find((s) => s.id === segmentId) ?? null;
  const name = text(fields.name.value);
  const subject = text(fields.subject.value);
  const template = templates.find((t) => t.id === text(fields.templateId.value)) ?? null;

  // A template chosen gives its subject (another template, its own), unless the user typed one.
  useEffect(() => {
    if (!hydrated || !template || subjectEdited) return;
    form.update({ name: fields.subject.name, value: template.subject });
    // Only the choice of template moves the subject.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [template?.id, hydrated]);

  useEffect(() => {
    if (!hydrated || subjectEdited || template || subject === name) return;
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
  const timeZone = useTimeZone();
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

      {started ? <RelaunchNote /> : null}

      <div className="card p-4">
        <Stepper step={step} />
      </div>

      <FormAlert id={form.errorId} errors={form.errors} />

      <Form method="post" className="space-y-4" {...getFormProps(form)}>
        {/* The default button: Enter in a field continues, it never launches. */}
        <button type="submit" name="intent" value="continue" className="sr-only" tabIndex={-1} aria-hidden="true" />
        <input type="hidden" name="step" value={step} />
        <input type="hidden" name="launchKey" value={launchKey} />

        <AudienceStep
          hidden={step !== 1}
          name={{ props: getInputProps(fields.name, { type: "text" }), errors: fields.name.errors }}
          segmentId={{ props: getSelectProps(fields.segmentId), errors: fields.segmentId.errors }}
          resendAudience={resendAudience}
          options={options}
          hasSegments={segments.length > 0}
          sample={shownSample}
          sampleLoading={sampleLoading}
        />

        <MessageStep
          hidden={step !== 2}
          templateField={{ props: getSelectProps(fields.templateId), errors: fields.templateId.errors }}
          senderFields={{
            fromName: { props: getInputProps(fields.fromName, { type: "text" }), errors: fields.fromName.errors },
            replyTo: { props: getInputProps(fields.replyTo, { type: "email" }), errors: fields.replyTo.errors },
            preheader: { props: getInputProps(fields.preheader, { type: "text" }), errors: fields.preheader.errors },
          }}
          templates={templates}
          template={template}
          previewCustomer={
            shownSample?.customers[0]
              ? {
                  id: shownSample.customers[0]._id,
                  name: `${shownSample.customers[0].firstName} ${shownSample.customers[0].lastName}`.trim(),
                }
              : null
          }
          subjectField={{ props: getInputProps(fields.subject, { type: "text" }), errors: fields.subject.errors }}
          messageField={{ props: getTextareaProps(fields.message), errors: fields.message.errors }}
          tracking={getInputProps(fields.trackingEnabled, { type: "checkbox" })}
          subject={subject}
          message={message}
          personaliseHint={personaliseHint}
          sampleName={sampleName}
          sender={{ name: senderName, postalAddress: senderPostalAddress, exampleUnsubscribeUrl }}
          hydrated={hydrated}
          segment={segment}
          onSubjectTyped={() => setSubjectEdited(true)}
          onUseSuggestion={(text) => form.update({ name: fields.message.name, value: text, validated: true })}
        />

        <ReviewStep
          hidden={step !== 3}
          name={name}
          subject={subject || template?.subject || ""}
          trackingOn={fields.trackingEnabled.value === "on"}
          resendAudience={resendAudience}
          segmentName={segment?.name ?? null}
          audienceSize={audienceSize}
          reach={shownReach}
          message={template ? `From the template "${template.name}"` : message}
          personaliseHint={template ? null : personaliseHint}
          started={started}
        />

        <ScheduleCard
          hidden={step !== 3}
          field={{
            props: getInputProps(fields.scheduledAt, { type: "datetime-local" }),
            errors: fields.scheduledAt.errors,
          }}
          zoneLabel={zoneName(Date.now(), timeZone)}
          scheduledText={scheduledAt ? formatDateTime(scheduledAt, timeZone) : null}
          busy={busy}
          scheduling={submittingIntent === "schedule"}
        />

        <WizardButtons step={step} lastStep={LAST_STEP} busy={busy} launching={launching} />
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
