// /segments/new and /segments/edit/{id}: name, description, the rule builder with nested groups,
// the live Audience Preview and the 'Use AI' dialog. The form posts without JavaScript too: the
// builder's add/remove buttons round-trip through the action, which also renders the preview.
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation, useParams, useRouteError } from "@remix-run/react";
import { ArrowLeft, Sparkles } from "lucide-react";
import { useEffect, useState } from "react";
import { toast } from "sonner";
import { SegmentBuilder } from "~/components/segment-builder";
import { AudiencePreviewPanel, type PreviewData, UseAiDialog, useLivePreview } from "~/components/segment-preview";
import { ApiError, fieldErrors } from "~/lib/api.server";
import { BRAND } from "~/lib/brand";
import {
  type BuilderErrors,
  type BuilderGroup,
  addCondition,
  addGroup,
  builderFromForm,
  builderToTree,
  newBuilder,
  parsePath,
  removeNode,
  treeToBuilder,
  validateBuilder,
  validateConditions,
} from "~/lib/segments-builder";
import { SegmentFormSchema } from "~/schemas/segment";
import { requireUser } from "~/services/auth.server";
import { redirectWithFlash } from "~/services/session.server";
import { createSegment, getSegment, previewAudience, updateSegment } from "~/services/segments.server";

export const meta: MetaFunction = ({ params }) => [{ title: `${params.id ? "Edit Segment" : "Create Segment"} · ${BRAND}` }];

type Values = { name: string; description: string; builder: BuilderGroup };

async function previewOf(userId: string, builder: BuilderGroup): Promise<PreviewData | null> {
  if (validateConditions(builder)) return null;
  return previewAudience(userId, builderToTree(builder));
}

export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  if (!params.id) {
    return { id: null, values: { name: "", description: "", builder: newBuilder() } as Values, preview: null };
  }
  let segment;
  try {
    segment = await getSegment(user.id, params.id);
  } catch (error) {
    if (error instanceof ApiError) throw data("Failed to load segment data.", { status: error.status });
    throw error;
  }
  const builder = treeToBuilder(segment.tree);
  return {
    id: segment.id,
    values: { name: segment.name, description: segment.description, builder } as Values,
    preview: await previewOf(user.id, builder),
  };
}

type ActionResult = { values: Values; errors: BuilderErrors; formError?: string; preview: PreviewData | null };

export async function action({ request, params }: ActionFunctionArgs) {
  const user = await requireUser(request);
  const form = await request.formData();
  const values: Values = {
    name: String(form.get("name") ?? "").slice(0, 200),
    description: String(form.get("description") ?? "").slice(0, 2000),
    builder: builderFromForm(form.entries()),
  };
  const intent = String(form.get("intent") ?? "save");

  // The builder's buttons without JavaScript: change the builder and show the form again.
  if (intent !== "save") {
    const [verb, where = ""] = intent.split(":");
    const path = parsePath(where);
    if (path) {
      if (verb === "add-condition") values.builder = addCondition(values.builder, path);
      else if (verb === "add-group") values.builder = addGroup(values.builder, path);
      else if (verb === "remove") values.builder = removeNode(values.builder, path);
    }
    return data<ActionResult>({ values, errors: {}, preview: await previewOf(user.id, values.builder) });
  }

  const parsed = SegmentFormSchema.safeParse(values);
  if (!parsed.success) {
    const fields = fieldErrors(parsed.error);
    return data<ActionResult>(
      { values, errors: { name: fields.name, conditions: fields.conditions }, preview: await previewOf(user.id, values.builder) },
      { status: 400 },
    );
  }
  try {
    if (params.id) await updateSegment(user.id, params.id, parsed.data);
    else await createSegment(user.id, parsed.data);
  } catch (error) {
    const message = error instanceof ApiError ? error.message : error instanceof Error ? error.message : "Unknown error";
    if (!(error instanceof ApiError)) console.error(error);
    return data<ActionResult>(
      { values, errors: {}, formError: `Failed to create or update segment: ${message}`, preview: null },
      { status: error instanceof ApiError ? error.status : 500 },
    );
  }
  return redirectWithFlash(request, "/segments", {
    kind: "toast",
    type: "success",
    message: params.id ? "Segment updated successfully" : "Segment created successfully",
  });
}

export default function SegmentForm() {
  const loaded = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  // A new answer from the action (a no-JavaScript builder step or a refused save) resets the editor.
  const source = result ?? loaded;
  return <SegmentEditor key={result ? JSON.stringify(result.values) + (result.formError ?? "") : "loaded"} id={loaded.id} source={source} result={result} />;
}

function SegmentEditor({
  id,
  source,
  result,
}: {
  id: string | null;
  source: { values: Values; preview: PreviewData | null };
  result: ActionResult | undefined;
}) {
  const navigation = useNavigation();
  const saving = navigation.state === "submitting" && navigation.formData?.get("intent") === "save";
  const [name, setName] = useState(source.values.name);
  const [description, setDescription] = useState(source.values.description);
  const [builder, setBuilder] = useState<BuilderGroup>(source.values.builder);
  const [showErrors, setShowErrors] = useState(Boolean(result && (result.errors.name || result.errors.conditions)));
  const [hydrated, setHydrated] = useState(false);
  const [aiOpen, setAiOpen] = useState(false);
  const live = useLivePreview(builder, source.preview);

  useEffect(() => setHydrated(true), []);
  useEffect(() => {
    if (result?.formError) toast.error(result.formError);
  }, [result]);

  // Before JavaScript: the server's messages. After: the same rules, live.
  const errors: BuilderErrors = hydrated ? (showErrors ? validateBuilder(name, builder) : {}) : (result?.errors ?? {});
  const title = id ? "Edit Segment" : "Create Segment";

  return (
    <div className="mx-auto max-w-6xl space-y-4">
      <div className="flex items-center gap-2">
        <Link to={id ? `/segments/${id}` : "/segments"} className="btn-ghost" aria-label="Back">
          <ArrowLeft className="h-5 w-5" />
        </Link>
        <h2 className="text-2xl font-bold text-slate-900">{title}</h2>
      </div>

      {result?.formError ? (
        <p role="alert" className="rounded-lg border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-700">{result.formError}</p>
      ) : null}

      <Form
        method="post"
        noValidate
        className="grid grid-cols-1 gap-4 lg:grid-cols-[minmax(0,1fr)_340px]"
        onSubmit={(e) => {
          const submitter = (e.nativeEvent as SubmitEvent).submitter as HTMLButtonElement | null;
          if (submitter?.value && submitter.value !== "save") return;
          const problems = validateBuilder(name, builder);
          if (problems.name || problems.conditions) {
            e.preventDefault();
            setShowErrors(true);
          }
        }}
      >
        {/* The default button: Enter in a field saves, not the builder's first button. */}
        <button type="submit" name="intent" value="save" className="sr-only" tabIndex={-1} aria-hidden="true" />
        <div className="space-y-4">
          <section className="card space-y-4 p-5">
            <div>
              <label htmlFor="name" className="label">Segment Name</label>
              <input
                id="name"
                name="name"
                className="input"
                value={name}
                maxLength={120}
                placeholder="e.g. High-value regulars"
                onChange={(e) => setName(e.target.value)}
                aria-invalid={Boolean(errors.name)}
                aria-describedby={errors.name ? "name-error" : undefined}
              />
              {errors.name ? <p id="name-error" className="field-error">{errors.name}</p> : null}
            </div>
            <div>
              <label htmlFor="description" className="label">Description</label>
              <textarea
                id="description"
                name="description"
                rows={2}
                className="input"
                value={description}
                maxLength={1000}
                placeholder="Who is in this segment and why"
                onChange={(e) => setDescription(e.target.value)}
              />
            </div>
          </section>

          <section className="card space-y-4 p-5" aria-labelledby="rules-title">
            <div className="flex flex-wrap items-center justify-between gap-2">
              <div>
                <h3 id="rules-title" className="font-semibold text-slate-900">Conditions</h3>
                <p className="text-sm text-slate-500">Customers who match these rules join the segment.</p>
              </div>
              {hydrated ? (
                <button type="button" className="btn-secondary" onClick={() => setAiOpen(true)}>
                  <Sparkles className="h-4 w-4 text-secondary" aria-hidden="true" /> Use AI
                </button>
              ) : null}
            </div>
            {errors.conditions ? (
              <p role="alert" className="rounded-lg border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-700" data-testid="conditions-error">
                {errors.conditions}
              </p>
            ) : null}
            <SegmentBuilder root={builder} onChange={setBuilder} interactive={hydrated} />
            <noscript>
              <button type="submit" name="intent" value="refresh" className="btn-ghost text-xs">
                Update fields and preview
              </button>
            </noscript>
          </section>

          <div className="flex justify-end gap-2">
            <Link to="/segments" className="btn-secondary">Cancel</Link>
            <button type="submit" name="intent" value="save" className="btn-primary" disabled={saving}>
              {saving ? "Saving..." : id ? "Update Segment" : "Create Segment"}
            </button>
          </div>
        </div>

        <aside className="lg:sticky lg:top-4 lg:self-start">
          <AudiencePreviewPanel preview={live.preview} loading={live.loading} problem={live.problem} />
        </aside>
      </Form>

      <UseAiDialog open={aiOpen} onClose={() => setAiOpen(false)} onApply={(b) => setBuilder(b)} />
    </div>
  );
}

export function ErrorBoundary() {
  const error = useRouteError();
  const params = useParams();
  console.error(error);
  return (
    <div className="card mx-auto max-w-lg p-6 text-center">
      <p className="font-semibold text-slate-900">{params.id ? "Failed to load segment data." : "Failed to load segment data. Please try again."}</p>
      <Link to="/segments" className="btn-secondary mt-4">Back to Segments</Link>
    </div>
  );
}
