// The editor's autosave: what the form holds is put as the template's draft (PUT
// /api/templates/{id}/draft) a moment after the last change (typing, a block moved), whatever it
// holds, so a reload, a restart or a closed tab loses nothing. A put that fails (the connection
// lost, the server restarting) is tried again every few seconds and when the browser is back
// online, and the status says so; what was typed stays in the page meanwhile.
import { useCallback, useEffect, useRef, useState } from "react";

/** How long after the last change the draft is put. */
export const AUTOSAVE_DELAY_MS = 800;
const RETRY_MS = 5_000;

export type AutosaveStatus = "idle" | "pending" | "saved" | "offline" | "refused";

const DRAFT_FIELDS = ["name", "subject", "preheader", "content", "text"] as const;

export function useAutosave(templateId: string, form: React.RefObject<HTMLFormElement | null>) {
  const timer = useRef<ReturnType<typeof setTimeout>>();
  const sequence = useRef(0);
  const [status, setStatus] = useState<AutosaveStatus>("idle");
  const [message, setMessage] = useState("");

  const put = useCallback(async () => {
    const element = form.current;
    if (!element) return;
    const data = new FormData(element);
    const body: Record<string, string | number> = { version: Number(data.get("version")) };
    for (const field of DRAFT_FIELDS) body[field] = String(data.get(field) ?? "");
    const mine = ++sequence.current;
    try {
      const response = await fetch(`/api/templates/${templateId}/draft`, {
        method: "PUT",
        headers: { "Content-Type": "application/json", Accept: "application/json" },
        body: JSON.stringify(body),
      });
      if (mine !== sequence.current) return;
      if (response.ok) return setStatus("saved");
      const answer = (await response.json().catch(() => null)) as { error?: { message?: string } } | null;
      // The server is there but refuses it (too large, signed out): said, not retried.
      if (response.status < 500) {
        setMessage(answer?.error?.message ?? "");
        return setStatus("refused");
      }
      setStatus("offline");
    } catch {
      if (mine === sequence.current) setStatus("offline");
    }
  }, [form, templateId]);

  /** Called on every change: the draft goes a moment after the last one. */
  const changed = useCallback(() => {
    setStatus("pending");
    clearTimeout(timer.current);
    timer.current = setTimeout(() => void put(), AUTOSAVE_DELAY_MS);
  }, [put]);

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
  useEffect(() => () => clearTimeout(timer.current), []);

  return { status, message, changed };
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
