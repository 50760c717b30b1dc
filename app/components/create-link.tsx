// The link to a list's form for a new one ("Create Order"): the primary button with a plus, on a
// list's header or where an empty list says there is nothing yet.
import { Link } from "@remix-run/react";
import { Plus } from "lucide-react";
import type { ReactNode } from "react";

export function CreateLink({
  to,
  className = "btn-primary",
  children,
}: {
  to: string;
  className?: string;
  children: ReactNode;
}) {
  return (
    <Link to={to} className={className}>
      <Plus className="h-4 w-4" aria-hidden="true" /> {children}
    </Link>
  );
}
