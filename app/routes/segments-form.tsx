// /segments/new and /segments/edit/{id}: name, description, the rule builder with nested groups
// (its rows test the customer's figures, fields and tags: the loader gives the tenant's fields),
// the live Audience Preview and the 'Use AI' dialog. The form works without JavaScript too: the
// builder's add/remove buttons are Conform intents the action answers with the changed form, and
// the action renders the preview of what was posted.
import { getFormProps, getInputProps, getTextareaProps, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation, useParams } from "@remix-run/react";
import { ArrowLeft, Loader2, Sparkles, Users } from "lucide-react";
import { useEffect, useState } from "react";
import { toast } from "sonner";
import { RouteErrorBoundary } from "~/components/error-boundary";
import { Field, FormAlert, LIVE_VALIDATION, TextareaField } from "~/components/forms";
import { SegmentBuilder } from "~/components/segment-builder";
import { AudiencePreviewPanel, type PreviewData, UseAiDialog, useLivePreview } from "~/components/segment-preview";
import { allowMethods, ApiError, keepAllowHeader } from "~/lib/api.server";
import { BRAND } from "~/lib/brand";
import { formatCount } from "~/lib/numbers";
import { replyRefused, replyUnfinished } from "~/lib/forms.server";
import { orRespond } from "~/lib/responses";
import { duplicateNameWarning } from "~/lib/segment-descriptions";
import { builderRows, newBuilder, rowFieldNames, rowSegmentIds, treeToBuilder } from "~/lib/segments-builder";
import { builderFields } from "~/lib/segment-builder-fields";
import { BuilderConditionsSchema, SegmentFormSchema, type SegmentFormInput } from "~/schemas/segment";
import { requireUser } from "~/services/auth.server";
import { fieldDefinitions } from "~/services/custom-fields.server";
import { redirectWithFlash } from "~/services/session.server";
import { createSegment, getSegment, otherSegments, previewAudience, updateSegment } from "~/services/segments.server";

// A 405 keeps its Allow header on the rendered page (app/lib/api.server.ts).
export const headers = keepAllowHeader;

export const meta: MetaFunction = ({ params }) => [
  { title: `${params.id ? "Edit Segment" : "Create Segment"} · ${BRAND}` },
];

const EDIT_LOAD_FAILED = "Failed to load segment data.";
const LOAD_FAILED = "Failed to load segment data. Please try again.";
const SAVE_FAILED = "Failed to create or update segment:";

/**
 * The audience of posted builder rows, when they pass the conditions schema and the tenant's
 * fields (a field deleted since, or an operator its type does not take, previews nothing: saving
 * says why).
 */
async function previewOf(userId: string, rows: unknown, segmentId?: string): Promise<PreviewData | null> {
  const parsed = BuilderConditionsSchema.safeParse(rows ?? {});
  if (!parsed.success) return null;
  try {
    return await previewAudience(userId, parsed.data, segmentId);
  } catch (error) {
    if (error instanceof ApiError) return null;
    throw error;
  }
}

export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const catalog = await orRespond(fieldDefinitions(user.id), params.id ? EDIT_LOAD_FAILED : LOAD_FAILED);
  if (!params.id) {
    const values: SegmentFormInput = { name: "", description: "", conditions: builderRows(newBuilder()) };
    const others = await orRespond(otherSegments(user.id), LOAD_FAILED);
    return {
      id: null,
      values,
      preview: null,
      otherNames: others.map((s) => s.name),
      fields: builderFields(catalog, [], others),
    };
  }
  const segment = await orRespond(getSegment(user.id, params.id), EDIT_LOAD_FAILED);
  const conditions = builderRows(treeToBuilder(segment.tree));
  const values: SegmentFormInput = { name: segment.name, description: segment.description, conditions };
  // The segments a rule may include: all the others (a segment cannot include itself).
  const others = await orRespond(otherSegments(user.id, segment.id), EDIT_LOAD_FAILED);
  return {
    id: segment.id,
    values,
    preview: await previewOf(user.id, conditions, segment.id),
    otherNames: others.map((s) => s.name),
    // A retired or deleted field, or a deleted segment, the segment uses stays listed on its rows.
    fields: builderFields(catalog, rowFieldNames(conditions), others, rowSegmentIds(conditions)),
  };
}

export async function action({ request, params }: ActionFunctionArgs) {
  allowMethods(request, "GET", "POST");
  const user = await requireUser(request);
  const submission = parseWithZod(await request.formData(), { schema: SegmentFormSchema });
  if (submission.status !== "success") {
    // A row added or removed without JavaScript, or a refused save: the form again, with the
    // preview of what was posted (without JavaScript nothing else counts it).
    const reply = replyUnfinished(submission);
    const preview = await previewOf(user.id, submission.payload.conditions, params.id);
    return data({ result: reply.data, preview }, reply.init ?? undefined);
  }
  try {
    if (params.id) await updateSegment(user.id, params.id, submission.value);
    else await createSegment(user.id, submission.value);
  } catch (error) {
    const refused = replyRefused(
      submission,
      error,
      `${SAVE_FAILED} ${error instanceof ApiError ? error.message : "Unknown error"}`,
    );
    return data({ result: refused.data, preview: null }, refused.init ?? undefined);
  }
  return redirectWithFlash(request, "/segments", {
    kind: "toast",
    type: "success",
    message: params.id ? "Segment updated successfully" : "Segment created successfully",
  });
}

export default function SegmentForm() {
  const { id, values, preview, otherNames, fields: offered } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const lastResult = actionData?.result;
  const navigation = useNavigation();
  const saving = navigation.state === "submitting";
  const [hydrated, setHydrated] = useState(false);
  const [aiOpen, setAiOpen] = useState(false);
  const [form, fields] = useForm({
    id: "segment-form",
    lastResult,
    defaultValue: values,
    onValidate: ({ formData }) => parseWithZod(formData, { schema: SegmentFormSchema }),
    ...LIVE_VALIDATION,
  });
  const conditions = fields.conditions.getFieldset();
  const live = useLivePreview(fields.conditions.value, actionData?.preview ?? preview);

  useEffect(() => setHydrated(true), []);
  const saveFailed = lastResult?.error?.[""]?.find((m) => m?.startsWith(SAVE_FAILED));
  useEffect(() => {
    if (saveFailed) toast.error(saveFailed);
  }, [saveFailed, lastResult]);

  // Every message about the rules, the whole tree's and any single row's, in one place above them.
  const conditionErrors = Object.entries(form.allErrors)
    .filter(([name]) => name === fields.conditions.name || name.startsWith(`${fields.conditions.name}.`))
    .flatMap(([, messages]) => messages)
    .slice(0, 1);
  const conditionsErrorId = conditionErrors.length ? fields.conditions.errorId : undefined;
  // That message is about the rows together, but Conform re-checks only a field checked before, so
  // a row added after the message appeared left it standing until the row lost focus; its removal
  // then moved the builder under the pointer mid-click (a click on AND/OR got lost). While it
  // shows, any edit of a row checks the rules again.
  const recheckRules = (event: React.FormEvent<HTMLFormElement>) => {
    const target = event.target;
    const inRules =
      "name" in target && typeof target.name === "string" && target.name.startsWith(`${fields.conditions.name}.`);
    if (conditionsErrorId && inRules) form.validate({ name: fields.conditions.name });
  };
  const title = id ? "Edit Segment" : "Create Segment";
  // Another segment with this name is allowed, but said as the user types (the API says it too).
  const nameWarning = duplicateNameWarning(typeof fields.name.value === "string" ? fields.name.value : "", otherNames);

  return (
    <div className="mx-auto max-w-6xl space-y-4">
      <div className="flex items-center gap-2">
        <Link to={id ? `/segments/${id}` : "/segments"} className="btn-ghost" aria-label="Back">
          <ArrowLeft className="h-5 w-5" />
        </Link>
        <h2 className="text-2xl font-bold text-slate-900">{title}</h2>
      </div>

      <FormAlert id={form.errorId} errors={form.errors} />

      <Form
        method="post"
        className="grid grid-cols-1 gap-4 lg:grid-cols-[minmax(0,1fr)_340px]"
        {...getFormProps(form)}
        onInput={recheckRules}
      >
        {/* The default button: Enter in a field saves, not the builder's first button. */}
        <button type="submit" className="sr-only" tabIndex={-1} aria-hidden="true" />
        <div className="space-y-4">
          <section className="card space-y-4 p-5">
            <Field
              label="Segment Name"
              inputProps={{
                ...getInputProps(fields.name, { type: "text" }),
                maxLength: 120,
                placeholder: "e.g. High-value regulars",
              }}
              errors={fields.name.errors}
              hint={
                nameWarning ? (
                  <span className="font-medium text-amber-700" data-testid="name-warning">
                    {nameWarning} You can still save this one with the same name.
                  </span>
                ) : undefined
              }
            />
            <TextareaField
              label="Description"
              textareaProps={{
                ...getTextareaProps(fields.description),
                rows: 2,
                maxLength: 1000,
                placeholder: "Who is in this segment and why",
              }}
              errors={fields.description.errors}
            />
          </section>

          <section className="card space-y-4 p-5" aria-labelledby="rules-title">
            <div className="flex flex-wrap items-center justify-between gap-2">
              <div>
                <h3 id="rules-title" className="font-semibold text-slate-900">
                  Conditions
                </h3>
                <p className="text-sm text-slate-500">Customers who match these rules join the segment.</p>
              </div>
              {hydrated ? (
                <button type="button" className="btn-secondary" onClick={() => setAiOpen(true)}>
                  <Sparkles className="h-4 w-4 text-secondary" aria-hidden="true" /> Use AI
                </button>
              ) : null}
            </div>
            {conditionsErrorId ? (
              <div data-testid="conditions-error">
                <FormAlert id={conditionsErrorId} errors={conditionErrors} />
              </div>
            ) : null}
            <SegmentBuilder
              form={form}
              logic={conditions.logic}
              rows={conditions.children}
              fields={offered}
              describedBy={conditionsErrorId}
            />
            <noscript>
              <button type="submit" className="btn-ghost text-xs" {...form.validate.getButtonProps()}>
                Update fields and preview
              </button>
            </noscript>
          </section>

          <div className="flex justify-end gap-2">
            <Link to="/segments" className="btn-secondary">
              Cancel
            </Link>
            <button type="submit" className="btn-primary" disabled={saving}>
              {saving ? "Saving..." : id ? "Update Segment" : "Create Segment"}
            </button>
          </div>

          {/* Below lg the preview sits under the form: this bar keeps its count in sight while the
              rules are edited, and takes the user to the sample. */}
          <div
            className="sticky bottom-0 z-10 -mx-4 flex items-center justify-between gap-3 border-t border-slate-200 bg-white px-4 py-2 shadow-[0_-4px_12px_rgba(15,23,42,0.08)] lg:hidden"
            data-testid="sticky-audience"
            aria-live="polite"
          >
            <p className="flex min-w-0 items-center gap-2 text-sm text-slate-700">
              {live.loading ? (
                <Loader2 className="h-4 w-4 shrink-0 animate-spin text-primary" aria-hidden="true" />
              ) : (
                <Users className="h-4 w-4 shrink-0 text-primary" aria-hidden="true" />
              )}
              {live.preview ? (
                <span className="truncate">
                  <strong className="text-lg text-primary" data-testid="sticky-count">
                    {formatCount(live.preview.count)}
                  </strong>{" "}
                  {live.preview.count === 1 ? "customer matches" : "customers match"}
                </span>
              ) : (
                <span className="truncate text-slate-500">
                  {live.problem ? "Complete the conditions" : live.loading ? "Counting..." : "No preview yet"}
                </span>
              )}
            </p>
            <a href="#audience-preview" className="btn-secondary shrink-0 text-xs">
              View sample
            </a>
          </div>
        </div>

        <aside id="audience-preview" className="scroll-mt-20 lg:sticky lg:top-4 lg:self-start">
          <AudiencePreviewPanel preview={live.preview} loading={live.loading} problem={live.problem} />
        </aside>
      </Form>

      <UseAiDialog
        open={aiOpen}
        onClose={() => setAiOpen(false)}
        onApply={(builder) => form.update({ name: fields.conditions.name, value: builderRows(builder) })}
      />
    </div>
  );
}

export function ErrorBoundary() {
  const params = useParams();
  return (
    <RouteErrorBoundary
      backTo="/segments"
      backLabel="Back to Segments"
      fallback={params.id ? EDIT_LOAD_FAILED : LOAD_FAILED}
    />
  );
}
