// /templates/:id: a template's editor and preview (docs/decisions/0043-templates-and-merge-tags.md).
// Name, subject, preheader, the design (the block editor for blocks, a text area for HTML and
// Markdown) and the text part (empty: derived from the design), saved by one form that names the
// version it was read at, so a save from another tab's older copy is refused with a message instead
// of overwriting it. The preview beside it is the saved template as it is sent. A starter is shown
// read-only with "Use this template". HTML and Markdown work without JavaScript; the block editor
// needs it, and without it the page says so and offers an HTML copy to edit.
import { getFormProps, getInputProps, getTextareaProps, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import {
  Form,
  Link,
  type ShouldRevalidateFunctionArgs,
  useActionData,
  useLoaderData,
  useNavigation,
} from "@remix-run/react";
import { Code, Copy, Save, Send, Trash2 } from "lucide-react";
import { useRef } from "react";
import { ConfirmDialog } from "~/components/confirm-dialog";
import { PostButton } from "~/components/post-button";
import { RouteErrorBoundary } from "~/components/error-boundary";
import { Field, FormAlert, LIVE_VALIDATION, TextareaField } from "~/components/forms";
import { useHydrated } from "~/components/hydrated";
import { SubmitButton } from "~/components/submit-button";
import { DateTime } from "~/components/date-time";
import { autosaveText, useAutosave } from "~/components/templates/autosave";
import { BlockEditor } from "~/components/templates/block-editor";
import { isPreviewView, type PreviewView, TemplatePreview } from "~/components/templates/template-preview";
import { allowMethods, ApiError, keepAllowHeader } from "~/lib/api.server";
import { BRAND } from "~/lib/brand";
import { replyRefused, replyUnfinished } from "~/lib/forms.server";
import { orRespond, refusedWith } from "~/lib/responses";
import { type Block, draftBlocks } from "~/lib/template-blocks";
import { TEMPLATE_FORMAT_LABELS } from "~/lib/templates";
import { TemplateFormSchema } from "~/schemas/template-form";
import { TemplateTestSchema } from "~/schemas/template";
import { SendTestForm } from "~/components/templates/send-test-form";
import { sendTemplateTest, type TestSendAnswer } from "~/services/templates/test-send.server";
import { requireUser } from "~/services/auth.server";
import { redirectWithFlash } from "~/services/session.server";
import {
  copyAsHtml,
  deleteTemplate,
  discardTemplateDraft,
  templateDraft,
  duplicateTemplate,
  getTemplate,
  previewTemplate,
  saveTemplate,
} from "~/services/templates.server";

// A 405 keeps its Allow header on the rendered page (app/lib/api.server.ts).
export const headers = keepAllowHeader;

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: `${data?.template.name ?? "Template"} · Templates · ${BRAND}` },
];

const LOAD_FAILED = "Failed to load the template. Please try again.";
const SAVE_FAILED = "The template was not saved";

/**
 * After a save that was refused (an older copy, a template that does not parse), the page is not
 * loaded again: the form keeps what she typed, and the message says why it was not saved.
 */
export function shouldRevalidate({ actionResult, defaultShouldRevalidate }: ShouldRevalidateFunctionArgs) {
  const refused =
    typeof actionResult === "object" &&
    actionResult !== null &&
    "status" in actionResult &&
    actionResult.status === "error";
  return refused ? false : defaultShouldRevalidate;
}

export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const id = params.id ?? "";
  const template = await orRespond(getTemplate(user.id, id), LOAD_FAILED);
  const search = new URL(request.url).searchParams;
  const [preview, draft] = await Promise.all([previewOrProblem(user.id, id), templateDraft(user.id, id)]);
  const asked = search.get("view");
  const view: PreviewView = isPreviewView(asked) ? asked : "phone";
  return { template, draft, ...preview, view, deleting: search.get("delete") === "1", testTo: user.email };
}

/**
 * The saved template's preview, or why there is none (a render past its limits): the editor opens
 * either way, so the template can be mended.
 */
async function previewOrProblem(userId: string, id: string) {
  try {
    const { message, problems } = await previewTemplate(userId, id);
    return { preview: message, problems, previewFailed: null };
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    return { preview: null, problems: [], previewFailed: error.message };
  }
}

export async function action({ request, params }: ActionFunctionArgs) {
  allowMethods(request, "GET", "POST");
  const user = await requireUser(request);
  const id = params.id ?? "";
  const formData = await request.formData();
  const intent = formData.get("intent");
  if (intent === "discard-draft") {
    await orRespond(discardTemplateDraft(user.id, id), refusedWith("Discard failed"));
    return redirectWithFlash(request, `/templates/${id}`, {
      kind: "toast",
      type: "success",
      message: "Unsaved changes discarded",
    });
  }
  if (intent === "test") {
    const to = String(formData.get("to") ?? "")
      .split(/[\s,;]+/)
      .filter(Boolean);
    const parsed = TemplateTestSchema.safeParse({ to });
    const answer = parsed.success
      ? await sendTemplateTest(user.id, id, parsed.data).then(
          ({ sent }) => testAnswer(sent),
          (error: unknown) => {
            if (error instanceof ApiError) return { ok: false, text: `The test was not sent: ${error.message}` };
            throw error;
          },
        )
      : { ok: false, text: `The test was not sent: ${parsed.error.issues[0]?.message ?? "check the addresses"}` };
    return redirectWithFlash(request, `/templates/${id}`, {
      kind: "toast",
      type: answer.ok ? "success" : "error",
      message: answer.text,
    });
  }
  if (intent === "delete") {
    await orRespond(deleteTemplate(user.id, id), refusedWith("Delete failed"));
    return redirectWithFlash(request, "/templates", { kind: "toast", type: "success", message: "Template deleted" });
  }
  if (intent === "duplicate" || intent === "copy-html") {
    const copy = await orRespond(
      intent === "duplicate" ? duplicateTemplate(user.id, id) : copyAsHtml(user.id, id),
      refusedWith("Copy failed"),
    );
    return redirectWithFlash(request, `/templates/${copy.id}`, {
      kind: "toast",
      type: "success",
      message: `"${copy.name}" is yours to edit`,
    });
  }
  const submission = parseWithZod(formData, { schema: TemplateFormSchema });
  if (submission.status !== "success") return replyUnfinished(submission, SAVE_FAILED);
  try {
    await saveTemplate(user.id, id, submission.value);
  } catch (error) {
    return replyRefused(
      submission,
      error,
      `${SAVE_FAILED}: ${error instanceof ApiError ? error.message : "Unknown error"}`,
    );
  }
  return redirectWithFlash(request, `/templates/${id}`, { kind: "toast", type: "success", message: "Template saved" });
}

/** What the page says of a test send: to whom it went, and what the channel said of the others. */
function testAnswer(sent: TestSendAnswer[]): { ok: boolean; text: string } {
  const went = sent.filter((s) => s.status === "accepted").map((s) => s.to);
  const not = sent.filter((s) => s.status !== "accepted").map((s) => `${s.to} (${s.details})`);
  if (not.length === 0) return { ok: true, text: `Test sent to ${went.join(", ")}` };
  return {
    ok: false,
    text: `${went.length > 0 ? `Test sent to ${went.join(", ")}; not` : "The test was not"} sent to ${not.join(", ")}`,
  };
}

export default function TemplateDetail() {
  const { template, draft, preview, problems, previewFailed, view, deleting, testTo } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const hydrated = useHydrated();
  const navigation = useNavigation();
  const testing = navigation.state === "submitting" && navigation.formData?.get("intent") === "test";
  const busy = navigation.state === "submitting" && !testing;
  const formRef = useRef<HTMLFormElement>(null);
  const autosave = useAutosave(template.id, formRef);
  const saved = typeof template.content === "string" ? template.content : JSON.stringify(template.content);
  // What the editor starts from: the draft autosaved since the last save, else the saved template.
  const start = draft
    ? { fromName: template.fromName, replyTo: template.replyTo, ...draft }
    : { ...template, text: template.text ?? "", content: saved, version: template.version };
  const [form, fields] = useForm({
    // A new id (a save, a discarded draft) starts the form again from what the page now holds.
    id: `template-${template.id}-${template.version}-${draft?.at ?? "saved"}`,
    lastResult: actionData,
    defaultValue: {
      name: start.name,
      subject: start.subject,
      preheader: start.preheader,
      text: start.text,
      content: start.content,
      fromName: start.fromName,
      replyTo: start.replyTo,
    },
    onValidate: ({ formData }) => parseWithZod(formData, { schema: TemplateFormSchema }),
    ...LIVE_VALIDATION,
  });
  const blocks = typeof template.content === "string" ? null : (draftBlocksOf(draft?.content) ?? template.content);
  const formProps = getFormProps(form);
  // A draft typed on an older version keeps that version: its save is refused, not laid over the newer one.
  const stale = draft !== null && draft.version !== template.version;

  return (
    <div className="mx-auto max-w-7xl space-y-4">
      <div className="flex flex-wrap items-end justify-between gap-3">
        <div className="min-w-0">
          <Link to="/templates" className="text-sm text-primary hover:underline">
            ← Templates
          </Link>
          <h2 className="truncate text-2xl font-bold text-slate-900">{template.name}</h2>
          <p className="text-sm text-slate-600">
            {TEMPLATE_FORMAT_LABELS[template.format]} template{template.starter ? " · starter" : ""}
          </p>
        </div>
        <div className="flex flex-wrap gap-2">
          <Link to={`/campaigns/new?templateId=${template.id}`} className="btn-secondary">
            <Send className="h-4 w-4" aria-hidden /> Send as a campaign
          </Link>
          <PostButton fields={{ intent: "duplicate" }} className={template.starter ? "btn-primary" : "btn-secondary"}>
            <Copy className="h-4 w-4" aria-hidden /> {template.starter ? "Use this template" : "Duplicate"}
          </PostButton>
          {template.format !== "html" ? (
            <PostButton fields={{ intent: "copy-html" }} className="btn-secondary">
              <Code className="h-4 w-4" aria-hidden /> Copy as HTML
            </PostButton>
          ) : null}
          {template.starter ? null : (
            <Link to="?delete=1" className="btn-secondary" preventScrollReset>
              <Trash2 className="h-4 w-4" aria-hidden /> Delete
            </Link>
          )}
        </div>
      </div>

      <div className="grid grid-cols-1 gap-4 lg:grid-cols-2">
        <div className="min-w-0 space-y-4">
          {template.starter ? (
            <section className="card space-y-2 p-4" aria-label="Starter template">
              <p className="text-slate-700">
                Starter templates cannot be changed. <strong>Use this template</strong> makes a copy of your own to
                edit.
              </p>
            </section>
          ) : (
            <Form
              method="post"
              ref={formRef}
              className="card min-w-0 space-y-4 p-4"
              {...formProps}
              aria-label="Edit template"
              onInput={autosave.changed}
              onChange={autosave.changed}
              onSubmit={(event) => {
                autosave.cancel();
                formProps.onSubmit(event);
              }}
            >
              <input type="hidden" name="format" value={template.format} />
              <input type="hidden" name="version" value={start.version} />
              <FormAlert id={form.errorId} errors={form.errors} />
              {draft ? <DraftNotice at={draft.at} stale={stale} savedVersion={template.version} /> : null}
              <Field
                label="Name"
                inputProps={{ ...getInputProps(fields.name, { type: "text" }), autoComplete: "off" }}
                errors={fields.name.errors}
              />
              <Field
                label="Subject"
                hint='Merge tags fill it per customer: {{ customer.first_name | default: "there" }}'
                inputProps={{ ...getInputProps(fields.subject, { type: "text" }), autoComplete: "off" }}
                errors={fields.subject.errors}
              />
              <Field
                label="Preheader"
                hint="The line mail clients show after the subject."
                inputProps={{ ...getInputProps(fields.preheader, { type: "text" }), autoComplete: "off" }}
                errors={fields.preheader.errors}
              />
              <div className="grid gap-4 sm:grid-cols-2">
                <Field
                  label="From name"
                  hint="Of the campaigns made from it; empty: your sender name. A campaign may give its own."
                  inputProps={{ ...getInputProps(fields.fromName, { type: "text" }), autoComplete: "off" }}
                  errors={fields.fromName.errors}
                />
                <Field
                  label="Reply-To"
                  hint="Where replies go; empty: the install's reply address."
                  inputProps={{ ...getInputProps(fields.replyTo, { type: "email" }), autoComplete: "off" }}
                  errors={fields.replyTo.errors}
                />
              </div>
              {blocks ? (
                hydrated ? (
                  <div className="space-y-2">
                    <BlockEditor
                      key={form.id}
                      name={fields.content.name}
                      initialBlocks={blocks}
                      onChange={autosave.changed}
                    />
                    <FormAlert id={fields.content.errorId} errors={fields.content.errors} />
                  </div>
                ) : (
                  <div className="space-y-2 rounded-md border border-slate-200 bg-slate-50 p-3 text-sm text-slate-700">
                    <input type="hidden" name={fields.content.name} value={JSON.stringify(blocks)} />
                    <p>
                      The block editor needs JavaScript. Turn it on to edit the blocks, or use{" "}
                      <strong>Copy as HTML</strong> above to edit this design as HTML without it. The name, subject and
                      preheader can be saved here.
                    </p>
                    <FormAlert id={fields.content.errorId} errors={fields.content.errors} />
                  </div>
                )
              ) : (
                <TextareaField
                  label={template.format === "html" ? "HTML" : "Markdown"}
                  hint={
                    template.format === "html"
                      ? "The whole message as you want it sent. Without {{ unsubscribe_url }} the footer with the unsubscribe link is added."
                      : "Headings (#), **bold**, *italic*, [links](https://…) and lists; merge tags in {{ }}."
                  }
                  textareaProps={{
                    ...getTextareaProps(fields.content),
                    rows: 18,
                    className: "input font-mono text-sm",
                  }}
                  errors={fields.content.errors}
                />
              )}
              <TextareaField
                label="Text part"
                hint="Leave it empty to derive it from the design."
                textareaProps={{ ...getTextareaProps(fields.text), rows: 6, className: "input font-mono text-sm" }}
                errors={fields.text.errors}
              />
              <div className="flex flex-wrap items-center gap-3">
                <SubmitButton busy={busy} busyLabel="Saving..." icon={Save} className="btn-primary">
                  Save template
                </SubmitButton>
                <p role="status" className="text-sm text-slate-600" data-testid="autosave-status">
                  {autosaveText(autosave.status, autosave.message)}
                </p>
              </div>
            </Form>
          )}
          {preview ? <SendTestForm defaultTo={testTo} busy={testing} /> : null}
        </div>
        {preview ? (
          <TemplatePreview
            subject={preview.subject}
            html={preview.html}
            text={preview.text}
            view={view}
            problems={problems}
          />
        ) : (
          <section aria-label="Preview" className="card min-w-0 space-y-2 self-start p-4" data-testid="preview-failed">
            <h3 className="text-lg font-semibold text-slate-900">Preview</h3>
            <p className="text-sm text-red-700">
              The saved template cannot be shown: {previewFailed} Change it here and save it again.
            </p>
          </section>
        )}
      </div>

      <ConfirmDialog
        open={deleting && !template.starter}
        title="Delete template"
        message={
          <p>
            Delete <strong>“{template.name}”</strong>? This cannot be undone.
          </p>
        }
        cancelHref={`/templates/${template.id}`}
        action={`/templates/${template.id}`}
        fields={{ intent: "delete" }}
        confirmLabel="Delete"
      />
    </div>
  );
}

/** The blocks of a draft, as far as they are blocks (null: none, or not readable as blocks). */
function draftBlocksOf(content: string | undefined): Block[] | null {
  if (content === undefined) return null;
  try {
    return draftBlocks(JSON.parse(content));
  } catch {
    return null;
  }
}

/** Says that the form holds unsaved changes kept from before, and offers to drop them. */
function DraftNotice({ at, stale, savedVersion }: { at: string; stale: boolean; savedVersion: number }) {
  return (
    <div
      role="note"
      className="space-y-2 rounded-md border border-sky-200 bg-sky-50 p-3 text-sm text-sky-900"
      data-testid="draft-notice"
    >
      <p>
        Unsaved changes from <DateTime value={at} format="dateTime" /> are back in the form.{" "}
        {stale
          ? `The template was saved elsewhere since (version ${savedVersion}): saving these is refused until you discard them, so copy what you need first.`
          : "Save the template to keep them, or discard them to go back to the saved one."}
      </p>
      <button type="submit" name="intent" value="discard-draft" formNoValidate className="btn-secondary">
        Discard changes
      </button>
    </div>
  );
}

export function ErrorBoundary() {
  return <RouteErrorBoundary backTo="/templates" fallback={LOAD_FAILED} />;
}
