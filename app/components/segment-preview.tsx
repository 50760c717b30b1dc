// The Audience Preview panel (300 px, scrolls) and the 'Use AI' dialog of the segment form.
import { Dialog, DialogPanel, DialogTitle } from "@headlessui/react";
import { Loader2, Sparkles, Users } from "lucide-react";
import { useEffect, useRef, useState } from "react";
import { toast } from "sonner";
import { z } from "zod";
import { AudiencePreviewCard } from "~/components/audience-preview-card";
import { formatRupees } from "~/lib/money";
import { formatCount } from "~/lib/numbers";
import { type Conditions, toConditions } from "~/lib/segments";
import { parseConditions } from "~/lib/segment-parse";
import { describeTree, previewNote } from "~/lib/segment-descriptions";
import { interpretDescription } from "~/lib/segments-ai";
import { type BuilderGroup, MESSAGES, builderToTree, treeToBuilder } from "~/lib/segments-builder";
import { BuilderConditionsSchema } from "~/schemas/segment";

export type PreviewCustomer = {
  _id: string;
  firstName: string;
  lastName: string;
  email: string;
  phone: string;
  totalSpend: number;
};
export type PreviewData = { count: number; customers: PreviewCustomer[] };

type ApiFailure = { error?: { message?: string } };

// The answer is checked before the panel shows it: an answer of another shape (a proxy's page, a
// cut-off body) is a failed preview with a toast, not a crash of the form.
const PreviewAnswerSchema = z.object({
  count: z.number(),
  customers: z.array(
    z.object({
      _id: z.string(),
      firstName: z.string(),
      lastName: z.string(),
      email: z.string(),
      phone: z.string(),
      totalSpend: z.number(),
    }),
  ),
});

/** POST /api/segments/preview with the page's cookie. */
export async function fetchPreview(conditions: Conditions, signal?: AbortSignal): Promise<PreviewData> {
  const response = await fetch("/api/segments/preview", {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ conditions }),
    signal,
  });
  const body = (await response.json().catch(() => ({}))) as ApiFailure;
  if (!response.ok) throw new Error(body.error?.message ?? `The server answered ${response.status}`);
  const answer = PreviewAnswerSchema.safeParse(body);
  if (!answer.success) throw new Error("the server's answer could not be read");
  return answer.data;
}

const PREVIEW_DEBOUNCE_MS = 400;

/**
 * The live preview: re-counted (debounced) whenever the builder's rows (the form's `conditions`
 * value) change and pass the same schema the save does.
 */
export function useLivePreview(rows: unknown, initial: PreviewData | null) {
  const [preview, setPreview] = useState<PreviewData | null>(initial);
  const [loading, setLoading] = useState(false);
  const parsed = BuilderConditionsSchema.safeParse(rows ?? {});
  const problem = parsed.success ? undefined : (parsed.error.issues[0]?.message ?? MESSAGES.oneCondition);
  const key = parsed.success ? JSON.stringify(toConditions(parsed.data)) : null;
  const first = useRef(true);

  useEffect(() => {
    // The server already rendered the preview of the conditions the page opened with.
    if (first.current) {
      first.current = false;
      if (initial) return;
    }
    if (!key) {
      setPreview(null);
      setLoading(false);
      return;
    }
    const controller = new AbortController();
    setLoading(true);
    const timer = setTimeout(() => {
      fetchPreview(JSON.parse(key) as Conditions, controller.signal)
        .then((data) => {
          setPreview(data);
          toast.success("Audience preview loaded with real data", { id: "audience-preview" });
        })
        .catch((error: unknown) => {
          if (controller.signal.aborted) return;
          setPreview(null);
          toast.error(`Failed to preview audience: ${error instanceof Error ? error.message : String(error)}`, {
            id: "audience-preview",
          });
        })
        .finally(() => {
          if (!controller.signal.aborted) setLoading(false);
        });
    }, PREVIEW_DEBOUNCE_MS);
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
  }, [key, initial]);

  return { preview, loading, problem };
}

export function AudiencePreviewPanel({
  preview,
  loading,
  problem,
}: {
  preview: PreviewData | null;
  loading: boolean;
  problem?: string;
}) {
  const note = preview ? previewNote(preview.count) : null;
  return (
    <AudiencePreviewCard loading={loading}>
      {preview ? (
        <div className="mt-2">
          <p className="text-3xl font-bold text-primary" data-testid="preview-count">
            {formatCount(preview.count)}
          </p>
          <p className="text-sm text-slate-600">
            {preview.count === 1 ? "customer matches" : "customers match"} these conditions
          </p>
          {note ? (
            <p className="mt-1 text-xs text-slate-500" data-testid="preview-note">
              {note}
            </p>
          ) : null}
        </div>
      ) : (
        <p className="mt-2 text-sm text-slate-500" data-testid="preview-empty">
          {problem
            ? "Complete the conditions to see which customers match."
            : loading
              ? "Loading preview..."
              : "No preview yet."}
        </p>
      )}
      <div className="mt-3 h-[300px] overflow-y-auto rounded-lg border border-slate-100" data-testid="preview-list">
        {preview && preview.customers.length > 0 ? (
          <ul className="divide-y divide-slate-100">
            {preview.customers.map((c) => {
              const name = `${c.firstName ?? ""} ${c.lastName ?? ""}`.trim() || "Unknown Customer";
              return (
                <li key={c._id} className="flex items-start justify-between gap-3 px-3 py-2 text-sm">
                  <div className="min-w-0">
                    <p className="truncate font-medium text-slate-800">{name}</p>
                    <p className="truncate text-xs text-slate-500">{c.email || "No email provided"}</p>
                    <p className="truncate text-xs text-slate-400">{c.phone || "No phone provided"}</p>
                  </div>
                  <span className="shrink-0 text-xs font-medium text-slate-700">{formatRupees(c.totalSpend ?? 0)}</span>
                </li>
              );
            })}
          </ul>
        ) : (
          <div className="flex h-full flex-col items-center justify-center gap-2 px-4 text-center text-sm text-slate-400">
            <Users className="h-8 w-8" aria-hidden="true" />
            {preview ? "No customers match these conditions" : "Matching customers appear here"}
          </div>
        )}
      </div>
    </AudiencePreviewCard>
  );
}

/** The Use AI toasts share one id: a new result replaces a failure instead of standing beside it. */
const USE_AI_TOAST = "use-ai";

/** Conditions written from a description, and who wrote them: the configured LLM or the local rules. */
export type WrittenConditions = {
  builder: BuilderGroup;
  conditions: Conditions;
  summary: string;
  writer: "llm" | "local";
};
type WriteResult = { ok: true; written: WrittenConditions } | { ok: false; message: string };

/** The local writer, in the browser: what the dialog falls back on when the server cannot be asked. */
function writeLocally(description: string): WriteResult {
  const result = interpretDescription(description);
  if (!result.ok) return result;
  const tree = builderToTree(result.builder);
  return {
    ok: true,
    written: { builder: result.builder, conditions: toConditions(tree), summary: describeTree(tree), writer: "local" },
  };
}

const DescriptionAnswerSchema = z.object({
  conditions: z.record(z.string(), z.unknown()),
  summary: z.string(),
  writer: z.enum(["llm", "local"]),
});

type DescribeFailure = { error?: { message?: string; fields?: Record<string, string> } };

/**
 * POST /api/segments/describe with the page's cookie: the conditions the server wrote (the LLM's
 * when one is set up, else the local rules'), read back through the parser. A description the
 * server refuses (400) or cannot read (422) is the server's message; any other failure (no
 * network, an error, an answer of another shape) falls back on the local writer here.
 */
export async function writeConditions(description: string, signal?: AbortSignal): Promise<WriteResult> {
  try {
    const response = await fetch("/api/segments/describe", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ description }),
      signal,
    });
    const body = (await response.json().catch(() => ({}))) as DescribeFailure;
    if (response.status === 400 || response.status === 422) {
      return { ok: false, message: body.error?.fields?.description ?? body.error?.message ?? MESSAGES.aiFailed };
    }
    const answer = response.ok ? DescriptionAnswerSchema.safeParse(body) : null;
    const parsed = answer?.success ? parseConditions(answer.data.conditions) : null;
    if (answer?.success && parsed?.ok) {
      const { conditions, summary, writer } = answer.data;
      return { ok: true, written: { builder: treeToBuilder(parsed.tree), conditions, summary, writer } };
    }
  } catch (error) {
    if (signal?.aborted) throw error;
  }
  return writeLocally(description);
}

/**
 * 'Use AI': a description becomes conditions, written by the server (the configured LLM, else the
 * local keyword rules); the dialog notes when the local rules wrote them, and shows the count
 * before applying.
 */
export function UseAiDialog({
  open,
  onClose,
  onApply,
}: {
  open: boolean;
  onClose: () => void;
  onApply: (b: BuilderGroup) => void;
}) {
  const [text, setText] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [built, setBuilt] = useState<WrittenConditions | null>(null);
  const [writing, setWriting] = useState(false);
  const [count, setCount] = useState<number | null>(null);
  const [counting, setCounting] = useState(false);
  const pending = useRef<AbortController | null>(null);

  const reset = () => {
    pending.current?.abort();
    pending.current = null;
    setWriting(false);
    setError(null);
    setBuilt(null);
    setCount(null);
    setCounting(false);
  };
  const close = () => {
    reset();
    onClose();
  };
  const fail = (message: string) => {
    setError(message);
    if (message === MESSAGES.aiFailed) toast.error(message, { id: USE_AI_TOAST });
  };
  const generate = () => {
    reset();
    if (text.trim() === "") {
      fail(MESSAGES.aiEmpty);
      return;
    }
    const controller = new AbortController();
    pending.current = controller;
    setWriting(true);
    writeConditions(text, controller.signal)
      .then((result) => {
        if (controller.signal.aborted) return;
        setWriting(false);
        if (!result.ok) {
          fail(result.message);
          return;
        }
        toast.dismiss(USE_AI_TOAST);
        setBuilt(result.written);
        setCounting(true);
        fetchPreview(result.written.conditions, controller.signal)
          .then((data) => setCount(data.count))
          .catch((e: unknown) => {
            if (!controller.signal.aborted)
              setError(`Failed to preview audience: ${e instanceof Error ? e.message : String(e)}`);
          })
          .finally(() => {
            if (!controller.signal.aborted) setCounting(false);
          });
      })
      .catch(() => {
        // Aborted (the text changed or the dialog closed): the next Generate starts afresh.
        if (controller.signal.aborted) return;
        setWriting(false);
        fail(MESSAGES.aiFailed);
      });
  };

  return (
    <Dialog open={open} onClose={close} className="relative z-50">
      <div className="fixed inset-0 bg-black/30" aria-hidden="true" />
      <div className="fixed inset-0 flex items-center justify-center p-4">
        <DialogPanel className="card w-full max-w-lg p-6">
          <DialogTitle className="flex items-center gap-2 text-lg font-semibold text-slate-900">
            <Sparkles className="h-5 w-5 text-secondary" aria-hidden="true" /> Create conditions with AI
          </DialogTitle>
          <p className="mt-1 text-sm text-slate-600">
            Describe the customers you want: how much they spent, how often they visited, how recently they were active.
          </p>
          <label htmlFor="ai-description" className="label mt-4">
            Description
          </label>
          <textarea
            id="ai-description"
            rows={3}
            className="input"
            value={text}
            placeholder="e.g. Customers who spent more than 5000 and visited at least 3 times in the last 60 days"
            onChange={(e) => {
              setText(e.target.value);
              reset();
            }}
            aria-invalid={Boolean(error)}
            aria-describedby={error ? "ai-error" : undefined}
          />
          {error ? (
            <p id="ai-error" role="alert" className="field-error">
              {error}
            </p>
          ) : null}
          {built ? (
            <div
              className="mt-4 rounded-lg border border-primary/30 bg-primary-light/30 p-3 text-sm"
              data-testid="ai-result"
            >
              <p className="font-medium text-slate-800">{built.summary}</p>
              {built.writer === "local" ? (
                <p className="mt-1 text-xs text-slate-500" data-testid="ai-writer">
                  Written by the local rules
                </p>
              ) : null}
              <p className="mt-1 text-slate-600">
                {counting
                  ? "Counting customers..."
                  : count === null
                    ? ""
                    : `${formatCount(count)} ${count === 1 ? "customer matches" : "customers match"}`}
              </p>
            </div>
          ) : null}
          <div className="mt-6 flex justify-end gap-2">
            <button type="button" className="btn-secondary" onClick={close}>
              Cancel
            </button>
            {built ? (
              <button
                type="button"
                className="btn-primary"
                onClick={() => {
                  onApply(built.builder);
                  toast.success("Query created from description", { id: USE_AI_TOAST });
                  setText("");
                  close();
                }}
              >
                Apply conditions
              </button>
            ) : (
              <button type="button" className="btn-primary" onClick={generate} disabled={writing} aria-busy={writing}>
                {writing ? (
                  <Loader2 className="h-4 w-4 animate-spin" aria-hidden="true" />
                ) : (
                  <Sparkles className="h-4 w-4" aria-hidden="true" />
                )}{" "}
                Generate
              </button>
            )}
          </div>
        </DialogPanel>
      </div>
    </Dialog>
  );
}
