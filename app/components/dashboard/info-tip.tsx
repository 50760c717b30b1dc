// A small (i) button whose text shows on hover and on keyboard focus, and is read by screen readers
// as the description of what it sits beside (aria-describedby on the button). Centred above the
// button: the rates' buttons sit mid-card, so 224 px fits a 390 px phone either side.
import { Info } from "lucide-react";
import { useId } from "react";

export function InfoTip({ label, text }: { label: string; text: string }) {
  const id = useId();
  return (
    <span className="group relative inline-flex">
      <button
        type="button"
        aria-label={label}
        aria-describedby={id}
        className="rounded-full text-slate-400 hover:text-slate-600 focus-visible:outline-2 focus-visible:outline-primary"
      >
        <Info className="h-4 w-4" aria-hidden="true" />
      </button>
      <span
        id={id}
        role="tooltip"
        className="pointer-events-none invisible absolute bottom-full left-1/2 z-20 mb-2 w-56 -translate-x-1/2 rounded-md bg-slate-800 px-3 py-2 text-xs font-normal leading-snug text-white opacity-0 shadow-lg transition group-focus-within:visible group-focus-within:opacity-100 group-hover:visible group-hover:opacity-100"
      >
        {text}
      </span>
    </span>
  );
}
