// What a list that comes and goes as CSV offers at its top (customers, suppressions): Import CSV
// (a link to the list's import page), the list's own add button (`children`), and Export CSV.
import { Link } from "@remix-run/react";
import { Upload } from "lucide-react";
import type { ReactNode } from "react";
import { CsvExportForm } from "~/components/csv-export-form";

export function CsvListActions({
  importTo,
  exportId,
  exportAction,
  exportFields,
  children,
}: {
  importTo: string;
  exportId: string;
  exportAction: string;
  /** Hidden fields of the export (the list's search). */
  exportFields?: Record<string, string | null | undefined>;
  children: ReactNode;
}) {
  return (
    <>
      <div className="flex flex-wrap gap-2">
        <Link to={importTo} className="btn-secondary">
          <Upload className="h-4 w-4" aria-hidden /> Import CSV
        </Link>
        {children}
      </div>
      <CsvExportForm id={exportId} action={exportAction} fields={exportFields} />
    </>
  );
}
