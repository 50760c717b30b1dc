// A list's search box (the one /customers draws): a GET form with ?q=, so it works without
// JavaScript through its Search button; with JavaScript the list follows the typing, a quarter of a
// second after the last key, replacing the address rather than stacking history entries.
import { Form, useSubmit } from "@remix-run/react";
import { Search } from "lucide-react";
import { useEffect, useRef, type ReactNode } from "react";

/** How long after the last key the list is asked for again. */
export const SEARCH_DEBOUNCE_MS = 250;

export function ListSearch({
  id,
  label,
  placeholder,
  q,
  children,
  className = "",
}: {
  /** The input's id (its label points at it). */
  id: string;
  /** What a screen reader calls the box: "Search suppressed addresses". */
  label: string;
  placeholder: string;
  /** The current search, shown in the box. */
  q: string | null;
  /** Hidden fields the search keeps (a sort, a filter). */
  children?: ReactNode;
  className?: string;
}) {
  const submit = useSubmit();
  const timer = useRef<ReturnType<typeof setTimeout>>();
  const input = useRef<HTMLInputElement>(null);
  useEffect(() => () => clearTimeout(timer.current), []);
  // The box follows the address (Back, a link with another search) but never under the user's
  // fingers: while it has the focus what they type stays (a remount would drop the focus).
  useEffect(() => {
    if (input.current && document.activeElement !== input.current) input.current.value = q ?? "";
  }, [q]);
  return (
    <Form method="get" role="search" className={`flex min-w-0 flex-1 items-center gap-2 ${className}`}>
      <label htmlFor={id} className="sr-only">
        {label}
      </label>
      <Search className="h-4 w-4 shrink-0 text-slate-400" aria-hidden />
      <input
        id={id}
        name="q"
        type="search"
        ref={input}
        defaultValue={q ?? ""}
        placeholder={placeholder}
        className="w-full min-w-0 border-0 bg-transparent text-sm focus:outline-none focus:ring-0"
        onChange={(event) => {
          const form = event.currentTarget.form;
          clearTimeout(timer.current);
          timer.current = setTimeout(() => {
            if (form) submit(form, { replace: true, preventScrollReset: true });
          }, SEARCH_DEBOUNCE_MS);
        }}
      />
      {children}
      <button type="submit" className="btn-secondary">
        Search
      </button>
    </Form>
  );
}
