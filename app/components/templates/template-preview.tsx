// A template's preview (docs/decisions/0043-templates-and-merge-tags.md): the subject, the HTML part
// in a sandboxed frame (no scripts, no access to this page) at a phone's width (375 px) or a
// desktop's (600 px), in dark mode as mail apps that invert colours show it, and the text part
// beside it, all rendered on the server by the code that renders every message sent. The view is a
// link (?view=phone|desktop|dark), so it works without JavaScript.
import { Link } from "@remix-run/react";

export type PreviewView = "phone" | "desktop" | "dark";
export const PREVIEW_WIDTHS: Record<PreviewView, number> = { phone: 375, desktop: 600, dark: 375 };
export const isPreviewView = (value: unknown): value is PreviewView =>
  value === "phone" || value === "desktop" || value === "dark";

/**
 * The message as a mail app in dark mode that inverts its colours shows it (Gmail's and Outlook's
 * apps do, for a message that declares no dark colours of its own): lightness turned over, hues
 * kept, images left as they are. Only the preview is changed; the message sent is the same.
 */
export function inDarkMode(html: string): string {
  const style =
    "<style>html{filter:invert(1) hue-rotate(180deg);background:#fff}img{filter:invert(1) hue-rotate(180deg)}</style>";
  return /<\/head>/i.test(html) ? html.replace(/<\/head>/i, `${style}</head>`) : `${style}${html}`;
}

export function TemplatePreview({
  subject,
  html,
  text,
  view,
  problems,
}: {
  subject: string;
  html: string;
  text: string;
  view: PreviewView;
  /** What to fix before it is sent, each with where it is. */
  problems: { message: string; where: string }[];
}) {
  const width = PREVIEW_WIDTHS[view];
  const tab = (value: PreviewView, label: string) => (
    <Link
      to={`?view=${value}`}
      replace
      preventScrollReset
      aria-current={view === value ? "true" : undefined}
      className={`rounded-md px-3 py-1 text-sm font-medium ${
        view === value ? "bg-white text-slate-900 shadow-sm" : "text-slate-600 hover:text-slate-900"
      }`}
    >
      {label}
    </Link>
  );
  return (
    <section aria-labelledby="preview-title" className="card min-w-0 space-y-3 self-start p-4 lg:sticky lg:top-4">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h3 id="preview-title" className="text-lg font-semibold text-slate-900">
          Preview
        </h3>
        <nav aria-label="Preview width" className="flex gap-1 rounded-lg bg-slate-100 p-1">
          {tab("phone", "Phone")}
          {tab("desktop", "Desktop")}
          {tab("dark", "Dark")}
        </nav>
      </div>
      <p className="text-sm text-slate-600">
        As a customer with empty fields would get it (the links are examples).{" "}
        <span className="font-medium text-slate-800" data-testid="preview-subject">
          Subject: {subject}
        </span>
      </p>
      {problems.length > 0 ? (
        <section
          aria-labelledby="problems-title"
          className="rounded-md border border-amber-300 bg-amber-50 p-3 text-sm text-amber-900"
        >
          <h4 id="problems-title" className="font-medium">
            Fix before you send it:
          </h4>
          <ul className="list-disc break-words pl-5" data-testid="template-problems">
            {problems.map((p) => (
              <li key={`${p.where}${p.message}`}>
                {p.where}: {p.message}
              </li>
            ))}
          </ul>
        </section>
      ) : null}
      <div className="overflow-x-auto rounded-md bg-slate-100 p-2">
        <iframe
          title={`The HTML part at ${width} px`}
          sandbox=""
          srcDoc={view === "dark" ? inDarkMode(html) : html}
          style={{ width }}
          className="mx-auto block h-[640px] max-w-none rounded bg-white"
          data-testid="preview-frame"
        />
      </div>
      <details>
        <summary className="cursor-pointer text-sm font-medium text-slate-700">Text part</summary>
        <pre
          className="mt-2 whitespace-pre-wrap break-words rounded-md bg-slate-50 p-3 text-sm text-slate-800"
          data-testid="preview-text"
        >
          {text}
        </pre>
      </details>
    </section>
  );
}
