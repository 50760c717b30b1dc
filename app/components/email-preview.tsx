// The wizard's preview of a campaign's e-mail in both its parts, rendered by the same code that
// renders every message sent (app/lib/email-body.ts): the text part, and the HTML part in a
// sandboxed frame (no scripts, no access to this page). As the spec's preview does, only the first
// {NAME} becomes the sample name. With JavaScript a "Text | HTML" switch shows one part at a time;
// without it (before hydration) both are shown, one under the other.
import { useId, useMemo, useState } from "react";
import { previewMessage } from "~/lib/campaigns";
import { compileEmailParts } from "~/lib/email-body";

type View = "text" | "html";

export function EmailPreview({
  subject,
  message,
  sampleName,
  senderName,
  postalAddress = "",
  unsubscribeUrl,
  interactive,
}: {
  subject: string;
  message: string;
  sampleName: string;
  senderName: string;
  /** The sender's postal address, as the footer of every message shows it (MAIL_POSTAL_ADDRESS). */
  postalAddress?: string;
  /** An example of a recipient's unsubscribe link (PUBLIC_URL/u/…). */
  unsubscribeUrl: string;
  /** Whether the page is hydrated: the switch needs JavaScript. */
  interactive: boolean;
}) {
  const [view, setView] = useState<View>("text");
  const ids = useId();
  const parts = useMemo(
    () =>
      compileEmailParts(
        { message, subject, senderName, postalAddress },
        { onlyFirstName: true },
      )({
        name: sampleName,
        unsubscribeUrl,
      }),
    [message, subject, senderName, postalAddress, sampleName, unsubscribeUrl],
  );
  const tab = (value: View, label: string) => (
    <button
      type="button"
      role="tab"
      id={`${ids}-${value}-tab`}
      aria-selected={view === value}
      aria-controls={`${ids}-${value}`}
      onClick={() => setView(value)}
      className={`rounded-md px-3 py-1 font-medium ${
        view === value ? "bg-white text-slate-900 shadow-sm" : "text-slate-600 hover:text-slate-900"
      }`}
    >
      {label}
    </button>
  );
  const panel = (value: View) =>
    interactive
      ? { id: `${ids}-${value}`, role: "tabpanel", "aria-labelledby": `${ids}-${value}-tab`, hidden: view !== value }
      : { id: `${ids}-${value}` };

  return (
    <div>
      <div className="mb-1 flex flex-wrap items-center justify-between gap-2">
        <p className="label">Preview for {sampleName}</p>
        {interactive ? (
          <div role="tablist" aria-label="Preview format" className="inline-flex rounded-lg bg-slate-100 p-0.5 text-xs">
            {tab("text", "Text")}
            {tab("html", "HTML")}
          </div>
        ) : null}
      </div>
      <div className="space-y-2 rounded-lg border border-slate-200 bg-slate-50 p-3 text-sm text-slate-800">
        <p className="break-words">
          <span className="font-semibold">Subject: </span>
          <span data-testid="subject-preview">{previewMessage(subject, sampleName)}</span>
        </p>
        <div {...panel("text")} className="space-y-2" data-testid="text-part-preview">
          {interactive ? null : <p className="text-xs font-semibold uppercase tracking-wide text-slate-500">Text</p>}
          <p className="whitespace-pre-wrap break-words" data-testid="message-preview">
            {parts.textMessage}
          </p>
          {parts.textFooter ? (
            <p className="whitespace-pre-wrap break-words text-slate-500" data-testid="text-footer-preview">
              {parts.textFooter.replace(/^\n+/, "")}
            </p>
          ) : null}
        </div>
        <div {...panel("html")} className="space-y-2">
          {interactive ? null : <p className="text-xs font-semibold uppercase tracking-wide text-slate-500">HTML</p>}
          <iframe
            sandbox=""
            srcDoc={parts.html}
            title={`HTML e-mail as ${sampleName} will see it`}
            className="h-[28rem] w-full rounded-md border border-slate-200 bg-white"
            data-testid="html-preview"
          />
        </div>
      </div>
    </div>
  );
}
