// The wizard's preview of a message made from a template: the subject and the HTML part rendered
// on the server by the code that renders every message sent (POST /api/templates/{id}/render), for
// the segment's first customer (or a customer with empty fields), in a sandboxed frame at a phone's
// or a desktop's width. Without JavaScript it is a link to the template's own preview.
import { Link } from "@remix-run/react";
import { useEffect, useState } from "react";
import { inDarkMode, PREVIEW_WIDTHS, type PreviewView } from "~/components/templates/template-preview";

type Rendered = { subject: string; html: string };

async function renderFor(templateId: string, customerId: string | null, signal: AbortSignal): Promise<Rendered> {
  const response = await fetch(`/api/templates/${encodeURIComponent(templateId)}/render`, {
    method: "POST",
    signal,
    headers: { Accept: "application/json", "Content-Type": "application/json" },
    body: JSON.stringify(customerId ? { customerId } : { sample: { customer: {} } }),
  });
  const body = (await response.json().catch(() => ({}))) as Partial<Rendered> & { error?: { message?: string } };
  if (!response.ok) throw new Error(body.error?.message ?? `The server answered ${response.status}`);
  return { subject: body.subject ?? "", html: body.html ?? "" };
}

export function TemplateMessagePreview({
  templateId,
  customer,
  hydrated,
}: {
  templateId: string;
  /** The segment's first customer, whose values fill the preview (null: a customer with empty fields). */
  customer: { id: string; name: string } | null;
  hydrated: boolean;
}) {
  const [view, setView] = useState<PreviewView>("phone");
  const [rendered, setRendered] = useState<Rendered | null>(null);
  const [failure, setFailure] = useState("");
  const customerId = customer?.id ?? null;
  useEffect(() => {
    if (!hydrated) return;
    const controller = new AbortController();
    setFailure("");
    renderFor(templateId, customerId, controller.signal)
      .then(setRendered)
      .catch((error: unknown) => {
        if (!controller.signal.aborted) setFailure(error instanceof Error ? error.message : String(error));
      });
    return () => controller.abort();
  }, [templateId, customerId, hydrated]);

  if (!hydrated) {
    return (
      <p className="text-sm text-slate-600">
        <Link to={`/templates/${templateId}`} className="link" target="_blank" rel="noreferrer">
          Preview the template
        </Link>{" "}
        (opens its editor in a new tab).
      </p>
    );
  }
  return (
    <section aria-label="Message preview" className="space-y-2" data-testid="template-message-preview">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <p className="text-sm text-slate-600">
          As {customer ? customer.name : "a customer with empty fields"} will get it (the links are examples).
        </p>
        <div role="group" aria-label="Preview width" className="flex gap-1 rounded-lg bg-slate-100 p-1">
          {(["phone", "desktop", "dark"] as const).map((v) => (
            <button
              key={v}
              type="button"
              aria-pressed={view === v}
              onClick={() => setView(v)}
              className={`rounded-md px-3 py-1 text-sm font-medium ${view === v ? "bg-white text-slate-900 shadow-sm" : "text-slate-600"}`}
            >
              {v === "phone" ? "Phone" : v === "desktop" ? "Desktop" : "Dark"}
            </button>
          ))}
        </div>
      </div>
      {failure ? (
        <p role="alert" className="text-sm text-red-700">
          The preview could not be made: {failure}
        </p>
      ) : rendered ? (
        <>
          <p className="break-words text-sm font-medium text-slate-800" data-testid="template-preview-subject">
            Subject: {rendered.subject}
          </p>
          <div className="overflow-x-auto rounded-lg border border-slate-200 bg-slate-50 p-2">
            <iframe
              title="The message as a recipient will see it"
              sandbox=""
              srcDoc={view === "dark" ? inDarkMode(rendered.html) : rendered.html}
              className="mx-auto block h-[32rem] max-w-full bg-white"
              style={{ width: PREVIEW_WIDTHS[view] }}
            />
          </div>
        </>
      ) : (
        <p className="text-sm text-slate-600">Making the preview…</p>
      )}
    </section>
  );
}
