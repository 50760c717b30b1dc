import { Link } from "@remix-run/react";
import { ArrowLeft } from "lucide-react";

/** A detail or edit screen whose record could not be loaded (spec §8): the message and a Back button. */
export function LoadFailed({ message, backTo, backLabel = "Back" }: { message: string; backTo: string; backLabel?: string }) {
  return (
    <div className="mx-auto max-w-xl">
      <div className="card p-8 text-center">
        <p role="alert" className="font-medium text-red-700">{message}</p>
        <Link to={backTo} className="btn-secondary mt-4">
          <ArrowLeft className="h-4 w-4" aria-hidden="true" /> {backLabel}
        </Link>
      </div>
    </div>
  );
}
