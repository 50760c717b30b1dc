// The editor's autosave: what the form holds is put as the template's draft (PUT
// /api/templates/{id}/draft) a moment after the last change (typing, a block moved), whatever it
// holds, so a reload or a restart loses nothing. A put that fails for the connection (the server
// restarting, the network gone) is tried again every few seconds and when the browser is back
// online; one the server refuses (typed on a version saved over since) is said and not retried.
// Leaving the page puts what is pending at once (keepalive), and the browser asks first while
// something is not kept yet. Save cancels a pending put: the save clears the draft.
import { useCallback, useEffect, useRef, useState } from "react";

/** How long after the last change the draft is put. */
export const AUTOSAVE_DELAY_MS = 800;
const RETRY_MS = 5_000;

export type AutosaveStatus = "idle" | "pending" | "saved" | "offline" | "refused";

const DRAFT_FIELDS = ["name", "subject", "preheader", "content", "text", "fromName", "replyTo"] as const;

/** The form's fields as the draft keeps them. */
function draftOf(form: HTMLFormElement): string {
  const data = new FormData(form);
  const body: Record<string, string | number> = { version: Number(data.get("version")) };
  for (const field of DRAFT_FIELDS) body[field] = String(data.get(field) ?? "");
  return JSON.stringify(body);
}

export function useAutosave(templateId: string, form: React.RefObject<HTMLFormElement | null>) {
  const timer = useRef<ReturnType<typeof setTimeout>>();
  const sequence = useRef(0);
  const pending = useRef(false);
  // The template the pending changes belong to, read when they are put (the page may show another by then).
  const owner = useRef(templateId);
  const [status, setStatus] = useState<AutosaveStatus>("idle");
  const [message, setMessage] = useState("");

  const put = useCallback(
    async (keepalive = false) => {
      const element = form.current;
      if (!element) return;
      clearTimeout(timer.current);
      const mine = ++sequence.current;
      pending.current = false;
      try {
        const response = await fetch(`/api/templates/${owner.current}/draft`, {
          method: "PUT",
          headers: { "Content-Type": "application/json", Accept: "application/json" },
          body: draftOf(element),
          keepalive,
        });
        if (mine !== sequence.current) return;
        if (response.ok) return setStatus("saved");
        const answer = (await response.json().catch(() => null)) as { error?: { message?: string } } | null;
        if (response.status < 500) {
          setMessage(answer?.error?.message ?? "");
          return setStatus("refused");
        }
        pending.current = true;
        setStatus("offline");
      } catch {
        if (mine !== sequence.current) return;
        pending.current = true;
        setStatus("offline");
      }
    },
    [form],
  );

  /** Called on every change: the draft goes a moment after the last one. */
  const changed = useCallback(() => {
    pending.current = true;
    setStatus("pending");
    clearTimeout(timer.current);
    timer.current = setTimeout(() => void put(), AUTOSAVE_DELAY_MS);
  }, [put]);

  /** Called when the form is saved: nothing pending goes after it. */
  const cancel = useCallback(() => {
    clearTimeout(timer.current);
    sequence.current += 1;
    pending.current = false;
    setStatus("idle");
  }, []);

  // Another template shown in this page: what was pending goes to its own template first.
  useEffect(() => {
    if (owner.current === templateId) return;
    if (pending.current) void put(true);
    owner.current = templateId;
  }, [templateId, put]);

  useEffect(() => {
    if (status !== "offline") return;
    const retry = setInterval(() => void put(), RETRY_MS);
    const online = () => void put();
    window.addEventListener("online", online);
    return () => {
      clearInterval(retry);
      window.removeEventListener("online", online);
    };
  }, [status, put]);

  useEffect(() => {
    const leaving = (event: BeforeUnloadEvent) => {
      if (!pending.current) return;
      void put(true);
      event.preventDefault();
    };
    window.addEventListener("beforeunload", leaving);
    return () => {
      window.removeEventListener("beforeunload", leaving);
      // Leaving the editor inside the app: what is pending is put now.
      if (pending.current) void put(true);
      clearTimeout(timer.current);
    };
  }, [put]);

  return { status, message, changed, cancel };
}

/** What the editor says of its draft. */
export function autosaveText(status: AutosaveStatus, message: string): string {
  switch (status) {
    case "pending":
      return "Unsaved changes…";
    case "saved":
      return "Changes kept as a draft. Save the template to use them.";
    case "offline":
      return "Not kept yet: the server cannot be reached. Your changes stay on this page and are kept when it is back.";
    case "refused":
      return `Not kept as a draft${message ? `: ${message}` : ""}.`;
    default:
      return "";
  }
}
