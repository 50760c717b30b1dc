// The pieces of the campaign wizard that are not form fields: the stepper, the Audience Preview of
// the chosen segment, and the message suggestions (fetched from /api, with the fixed fallbacks;
// clicking a card or its Use button applies it).
import { Check, Loader2, Sparkles, Users } from "lucide-react";
import { useState } from "react";
import { AudiencePreviewCard } from "~/components/audience-preview-card";
import { toast } from "sonner";

export const WIZARD_STEPS = ["Select Audience", "Create Message", "Review & Launch"] as const;
/** Toasts of the wizard stay up this long. */
export const WIZARD_TOAST_MS = 4000;

export function Stepper({ step }: { step: number }) {
  return (
    <ol className="flex items-center gap-2 text-sm" aria-label="Steps">
      {WIZARD_STEPS.map((label, i) => {
        const n = i + 1;
        const state = n < step ? "done" : n === step ? "current" : "todo";
        return (
          <li
            key={label}
            className="flex min-w-0 flex-1 items-center gap-2"
            aria-current={state === "current" ? "step" : undefined}
            data-state={state}
          >
            <span
              className={`flex h-7 w-7 shrink-0 items-center justify-center rounded-full text-xs font-semibold ${
                state === "todo" ? "bg-slate-200 text-slate-600" : "bg-primary text-white"
              }`}
            >
              {state === "done" ? <Check className="h-4 w-4" aria-hidden="true" /> : n}
            </span>
            <span
              className={`min-w-0 text-xs leading-tight sm:text-sm ${state === "current" ? "font-semibold text-slate-900" : "text-slate-500"}`}
            >
              {label}
            </span>
            {n < WIZARD_STEPS.length ? (
              <span className="hidden h-px flex-1 bg-slate-200 sm:block" aria-hidden="true" />
            ) : null}
          </li>
        );
      })}
    </ol>
  );
}

export type SampleCustomer = { _id: string; firstName: string; lastName: string; email: string };
export type AudienceSample = { segmentId: string; count: number; customers: SampleCustomer[] };

type ApiFailure = { error?: { message?: string } };

async function getJson<T>(url: string, signal?: AbortSignal): Promise<T> {
  const response = await fetch(url, { signal, headers: { Accept: "application/json" } });
  const body = (await response.json().catch(() => ({}))) as T & ApiFailure;
  if (!response.ok) throw new Error(body.error?.message ?? `The server answered ${response.status}`);
  return body;
}

/** The count and the first 10 customers of a segment, from /api with the page's cookie. */
export async function fetchAudienceSample(segmentId: string, signal?: AbortSignal): Promise<AudienceSample> {
  const id = encodeURIComponent(segmentId);
  const [count, customers] = await Promise.all([
    getJson<{ count: number }>(`/api/segments/${id}/audience-count`, signal),
    getJson<SampleCustomer[]>(`/api/segments/${id}/audience?limit=10`, signal),
  ]);
  return { segmentId, count: count.count, customers };
}

export function AudiencePanel({ sample, loading }: { sample: AudienceSample | null; loading: boolean }) {
  return (
    <AudiencePreviewCard loading={loading}>
      {sample ? (
        <>
          <p className="mt-2 text-3xl font-bold text-primary" data-testid="audience-count">
            {sample.count.toLocaleString("en-IN")}
          </p>
          <p className="text-sm text-slate-600">Customers will receive this campaign</p>
          {sample.customers.length > 0 ? (
            <ul
              className="mt-3 max-h-[300px] divide-y divide-slate-100 overflow-y-auto rounded-lg border border-slate-100"
              data-testid="audience-sample"
            >
              {sample.customers.map((c) => (
                <li key={c._id} className="px-3 py-2 text-sm">
                  <p className="truncate font-medium text-slate-800">
                    {`${c.firstName ?? ""} ${c.lastName ?? ""}`.trim() || "Unknown Customer"}
                  </p>
                  <p className="truncate text-xs text-slate-500">{c.email || "No email provided"}</p>
                </li>
              ))}
            </ul>
          ) : (
            <p className="mt-3 text-sm text-slate-500">No customers are in this segment yet.</p>
          )}
        </>
      ) : (
        <div
          className="flex flex-col items-center justify-center gap-2 px-4 py-10 text-center text-sm text-slate-400"
          data-testid="audience-empty"
        >
          <Users className="h-8 w-8" aria-hidden="true" />
          Select a segment to preview audience
        </div>
      )}
    </AudiencePreviewCard>
  );
}

export type MessageSuggestion = { message: string; tone: string; expectedResponse: string };

/** Shown when the suggestions call fails or brings nothing back. */
export const DEFAULT_SUGGESTIONS: readonly MessageSuggestion[] = [
  {
    message: "Hi {NAME}, we miss you! Come back and enjoy 10% off your next purchase with code WELCOME10.",
    tone: "Friendly",
    expectedResponse: "Good response from customers who have not shopped recently",
  },
  {
    message:
      "Dear {NAME}, as one of our valued customers, enjoy an exclusive 15% discount on your next order with code VALUED15.",
    tone: "Professional",
    expectedResponse: "Strong response from loyal, high-value customers",
  },
  {
    message: "{NAME}, this week only: free shipping on every order, no minimum. Don't miss out, shop now!",
    tone: "Urgent",
    expectedResponse: "Quick response driven by the time limit",
  },
];

export function SuggestionsPanel({
  segmentId,
  segmentName,
  onUse,
}: {
  segmentId: string;
  segmentName: string;
  onUse: (message: string) => void;
}) {
  const [loading, setLoading] = useState(false);
  const [suggestions, setSuggestions] = useState<readonly MessageSuggestion[] | null>(null);

  const ask = async () => {
    setLoading(true);
    try {
      const response = await fetch("/api/ai/message-suggestions", {
        method: "POST",
        headers: { "Content-Type": "application/json", Accept: "application/json" },
        body: JSON.stringify({ campaignObjective: `Engage the customers of the "${segmentName}" segment`, segmentId }),
      });
      const body = (await response.json().catch(() => ({}))) as { suggestions?: MessageSuggestion[] } & ApiFailure;
      if (!response.ok) throw new Error(body.error?.message ?? `The server answered ${response.status}`);
      setSuggestions(body.suggestions?.length ? body.suggestions : DEFAULT_SUGGESTIONS);
    } catch (error) {
      toast.error(`Failed to generate message suggestions: ${error instanceof Error ? error.message : String(error)}`, {
        duration: WIZARD_TOAST_MS,
      });
      setSuggestions(DEFAULT_SUGGESTIONS);
    } finally {
      setLoading(false);
    }
  };

  return (
    <div className="space-y-3">
      <button type="button" className="btn-secondary" onClick={() => void ask()} disabled={loading || !segmentId}>
        {loading ? (
          <Loader2 className="h-4 w-4 animate-spin" aria-hidden="true" />
        ) : (
          <Sparkles className="h-4 w-4 text-secondary" aria-hidden="true" />
        )}
        Get AI Suggestions
      </button>
      {suggestions ? (
        <ul className="grid gap-3 md:grid-cols-3" aria-label="Message suggestions">
          {suggestions.map((s, i) => (
            // Clicking anywhere on the card applies it, as its Use button does (the button's click
            // reaches the card); the button is how a keyboard applies it.
            <li
              key={`${i}-${s.tone}`}
              className="card flex cursor-pointer flex-col gap-2 p-3 text-sm transition hover:border-primary hover:bg-primary-light/30"
              data-testid="suggestion"
              onClick={() => {
                onUse(s.message);
                toast.success("Message template applied", { duration: WIZARD_TOAST_MS });
              }}
            >
              <p className="text-xs font-semibold uppercase tracking-wide text-secondary">Tone: {s.tone}</p>
              <p className="flex-1 whitespace-pre-wrap text-slate-800">{s.message}</p>
              {s.expectedResponse ? <p className="text-xs text-slate-500">{s.expectedResponse}</p> : null}
              <button type="button" className="btn-secondary self-end" aria-label={`Use the ${s.tone} suggestion`}>
                Use
              </button>
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}
