// An Export CSV button with its one option, a UTF-8 byte order mark for Excel on Windows: a plain
// GET form to the export's address (with the page's own fields, such as the search), so it works
// without JavaScript and the browser downloads the file.
import { Download } from "lucide-react";
import { BOM_TEXTS } from "~/lib/csv-bom";

export function CsvExportForm({
  action,
  fields = {},
  label = "Export CSV",
  id,
  children,
}: {
  action: string;
  /** Hidden fields sent with it (an empty value is left out). */
  fields?: Record<string, string | null | undefined>;
  label?: string;
  /** Tells several forms of one page apart (the checkbox's id). */
  id: string;
  /** More fields before the checkbox (a choice of what to export). */
  children?: React.ReactNode;
}) {
  const boxId = `${id}-bom`;
  return (
    <form method="get" action={action} className="flex flex-wrap items-center gap-x-3 gap-y-1" data-testid={id}>
      {Object.entries(fields).map(([name, value]) =>
        value ? <input key={name} type="hidden" name={name} value={value} /> : null,
      )}
      {children}
      <span className="flex items-center gap-1.5 text-sm text-slate-700">
        <input
          id={boxId}
          type="checkbox"
          name="bom"
          value="1"
          className="h-4 w-4 rounded border-slate-300"
          aria-describedby={`${boxId}-hint`}
        />
        <label htmlFor={boxId}>{BOM_TEXTS.label}</label>
      </span>
      <button type="submit" className="btn-secondary">
        <Download className="h-4 w-4" aria-hidden /> {label}
      </button>
      <p id={`${boxId}-hint`} className="w-full max-w-md text-xs text-slate-500">
        {BOM_TEXTS.hint}
      </p>
    </form>
  );
}
