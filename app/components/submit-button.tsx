// A form's submit button that says what it is doing while its form posts ("Adding...") and cannot
// be pressed again meanwhile, with the action's icon before its words.
import type { LucideIcon } from "lucide-react";
import type { ReactNode } from "react";

export function SubmitButton({
  busy,
  busyLabel,
  icon: Icon,
  className,
  children,
}: {
  /** Whether the form is posting now. */
  busy: boolean;
  /** What the button says meanwhile: "Adding...". */
  busyLabel: string;
  icon: LucideIcon;
  className: string;
  /** What the button says otherwise. */
  children: ReactNode;
}) {
  return (
    <button type="submit" className={className} disabled={busy}>
      <Icon className="h-4 w-4" aria-hidden /> {busy ? busyLabel : children}
    </button>
  );
}
