// A row's small preview on the Templates list: the template's HTML (/templates/:id/thumbnail),
// fetched once the row scrolls into view and drawn at a quarter of its size in a sandboxed frame
// (no script of the template runs, nothing in it can be clicked). Fetched rather than framed by
// address: every answer of this product forbids framing (X-Frame-Options: DENY). Without
// JavaScript the row keeps its plain frame of the template's initial.
import { useEffect, useRef, useState } from "react";

/** The message's width and the part of its height shown, scaled by SCALE. */
const WIDTH = 600;
const HEIGHT = 720;
const SCALE = 0.2;

export function TemplateThumbnail({ id, version, name }: { id: string; version: number; name: string }) {
  const box = useRef<HTMLDivElement>(null);
  const [html, setHtml] = useState<string | null>(null);
  useEffect(() => {
    const element = box.current;
    if (!element) return;
    let cancelled = false;
    const load = () =>
      fetch(`/templates/${encodeURIComponent(id)}/thumbnail`, { headers: { Accept: "text/html" } })
        .then((response) => (response.ok ? response.text() : null))
        .then((body) => {
          if (!cancelled && body) setHtml(body);
        })
        .catch(() => undefined);
    const observer = new IntersectionObserver((entries) => {
      if (entries.some((e) => e.isIntersecting)) {
        observer.disconnect();
        void load();
      }
    });
    observer.observe(element);
    return () => {
      cancelled = true;
      observer.disconnect();
    };
  }, [id, version]);

  return (
    <div
      ref={box}
      className="relative shrink-0 overflow-hidden rounded border border-slate-200 bg-slate-50"
      style={{ width: WIDTH * SCALE, height: HEIGHT * SCALE }}
      aria-hidden
      data-testid="template-thumbnail"
    >
      {html === null ? (
        <span className="flex h-full items-center justify-center text-lg font-semibold text-slate-400">
          {name.trim().charAt(0).toUpperCase() || "?"}
        </span>
      ) : (
        <iframe
          title={`A small preview of ${name}`}
          sandbox=""
          srcDoc={html}
          tabIndex={-1}
          scrolling="no"
          className="pointer-events-none absolute left-0 top-0 origin-top-left border-0 bg-white"
          style={{ width: WIDTH, height: HEIGHT, transform: `scale(${SCALE})` }}
        />
      )}
    </div>
  );
}
