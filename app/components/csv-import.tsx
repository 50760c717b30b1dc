// The parts the two CSV import pages share (app/routes/customers-import.tsx and
// app/routes/suppressions-import.tsx): the heading with the way back; the upload (ImportUpload: the
// box the file is chosen in, the bar that follows a running import, the Cancel and Import
// buttons); and the result (the counts, the rows skipped with their line and reason, the report to
// download, and the ways on). Each page keeps its form, its action and what its counts are.
import { Link } from "@remix-run/react";
import { ArrowLeft, CheckCircle2, Download, FileUp, Upload } from "lucide-react";
import type { ChangeEventHandler, ReactNode } from "react";
import { Field } from "~/components/forms";
import { type ImportErrorRow, ImportErrorsTable } from "~/components/import-errors-table";
import { formatCount } from "~/lib/numbers";
import type { ImportProgressState } from "~/services/import-progress.server";
import { TitledCard } from "~/components/titled-card";

/** The page's title and what it does, with the way back to the list (`backTo`, named `backLabel`). */
export function ImportHeading({
  backTo,
  backLabel,
  title,
  children,
}: {
  backTo: string;
  backLabel: string;
  title: string;
  children: ReactNode;
}) {
  return (
    <div className="flex items-center gap-3">
      <Link to={backTo} className="btn-ghost" aria-label={backLabel}>
        <ArrowLeft className="h-5 w-5" aria-hidden />
      </Link>
      <div>
        <h2 className="text-2xl font-bold text-slate-900">{title}</h2>
        <p className="text-slate-600">{children}</p>
      </div>
    </div>
  );
}

/**
 * The upload, inside the page's multipart form: what comes before the file (`before`, e.g. the
 * column mapping), the file input (name "file", CSV only) in its dashed box with `hint` saying what
 * the first row names, what comes after it (`children`, e.g. a preview), the bar that follows the
 * import while it runs (`progress`, when the page can tell), and Cancel (back to `cancelTo`) and
 * Import, which says "Importing..." while the upload runs.
 */
export function ImportUpload({
  hint,
  errors,
  onFileChange,
  before,
  children,
  progress,
  cancelTo,
  busy,
  disabled,
}: {
  hint: string;
  /** What is wrong with the chosen file, found before it is sent. */
  errors?: string[] | null;
  onFileChange?: ChangeEventHandler<HTMLInputElement>;
  before?: ReactNode;
  children?: ReactNode;
  progress?: { state: ImportProgressState | null; fileSize: number; saving: string } | null;
  cancelTo: string;
  busy: boolean;
  disabled: boolean;
}) {
  return (
    <>
      {before}
      <ImportFileBox hint={hint} errors={errors} onChange={onFileChange} />
      {children}
      {busy && progress ? (
        <ImportProgressBar progress={progress.state} fileSize={progress.fileSize} saving={progress.saving} />
      ) : null}
      <ImportButtons cancelTo={cancelTo} busy={busy} disabled={disabled} />
    </>
  );
}

/** The file input in its dashed box; as wide as its box (a file input's own width overflowed a phone by 8 px). */
function ImportFileBox({
  hint,
  errors,
  onChange,
}: {
  hint: string;
  errors?: string[] | null;
  onChange?: ChangeEventHandler<HTMLInputElement>;
}) {
  return (
    <div className="flex flex-wrap items-start gap-3 rounded-lg border-2 border-dashed border-slate-300 p-4">
      <FileUp className="mt-6 h-6 w-6 text-slate-400" aria-hidden />
      <Field
        className="min-w-0 flex-1"
        label="CSV file"
        hint={hint}
        errors={errors}
        inputProps={{
          id: "file",
          name: "file",
          type: "file",
          accept: ".csv,text/csv",
          required: true,
          className: "block w-full text-sm",
          onChange,
        }}
      />
    </div>
  );
}

/** Where a running import is: reading the file (bytes of its size), then saving the good rows. */
function ImportProgressBar({
  progress,
  fileSize,
  saving,
}: {
  progress: ImportProgressState | null;
  fileSize: number;
  /** What the second phase saves: "customers". */
  saving: string;
}) {
  const n = formatCount;
  let percent = 0;
  let label = "Uploading the file…";
  if (progress && progress.phase === "reading" && progress.rows > 0) {
    percent = fileSize > 0 ? Math.min(99, Math.round((100 * progress.bytes) / fileSize)) : 0;
    label = `Reading the file: ${n(progress.rows)} rows`;
  } else if (progress && progress.phase !== "reading") {
    percent = progress.total > 0 ? Math.round((100 * progress.saved) / progress.total) : 100;
    label = `Saving ${saving}: ${n(progress.saved)} of ${n(progress.total)}`;
  }
  return (
    <div className="space-y-1" data-testid="import-progress">
      <div className="flex justify-between text-sm text-slate-700">
        <span>{label}</span>
        <span className="tabular-nums">{percent}%</span>
      </div>
      <div
        role="progressbar"
        aria-label="Import progress"
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={percent}
        className="h-2 overflow-hidden rounded-full bg-slate-200"
      >
        <div
          className="h-full rounded-full bg-primary transition-[width] duration-300"
          style={{ width: `${percent}%` }}
        />
      </div>
    </div>
  );
}

/** Cancel (back to `cancelTo`) and Import, which says "Importing..." while the upload runs. */
function ImportButtons({ cancelTo, busy, disabled }: { cancelTo: string; busy: boolean; disabled: boolean }) {
  return (
    <div className="flex justify-end gap-2">
      <Link to={cancelTo} className="btn-secondary">
        Cancel
      </Link>
      <button type="submit" className="btn-primary" disabled={disabled}>
        <Upload className="h-4 w-4" aria-hidden /> {busy ? "Importing..." : "Import"}
      </button>
    </div>
  );
}

/** A count of the result: its name, its test id (result-<id>) and its value. */
export type ImportCount = { label: string; id: string; value: number };

/**
 * What an import did: the counts, anything the page adds under them (`children`), the rows it
 * skipped with their line and reason and the report of them all, and the ways on: to the list
 * (`list`), or a fresh page to import another file (`again`), with or without JavaScript.
 */
export function ImportResultCard({
  counts,
  skipped,
  truncatedNote,
  report,
  reportName,
  errors,
  list,
  again,
  children,
}: {
  counts: ImportCount[];
  /** How many rows were skipped. */
  skipped: number;
  /** Said after "every other row was imported" when the report does not hold every skipped row. */
  truncatedNote: string | null;
  /** The report as a CSV data: address, when there is one. */
  report: string | null;
  reportName: string;
  errors: ImportErrorRow[];
  list: { to: string; label: string };
  again: string;
  children?: ReactNode;
}) {
  return (
    <TitledCard
      headingId="result-heading"
      title={
        <>
          <CheckCircle2 className="h-5 w-5 text-green-600" aria-hidden /> Import finished
        </>
      }
      className="card space-y-4 p-6"
      headingClassName="flex items-center gap-2 font-semibold text-slate-900"
    >
      <dl className="grid grid-cols-2 gap-3 text-sm sm:grid-cols-4">
        {counts.map(({ label, id, value }) => (
          <div key={id} className="rounded-lg bg-slate-50 p-3">
            <dt className="text-slate-500">{label}</dt>
            <dd className="text-xl font-semibold text-slate-900" data-testid={`result-${id}`}>
              {formatCount(value)}
            </dd>
          </div>
        ))}
      </dl>
      {children}
      {skipped > 0 ? (
        <div className="space-y-2">
          <div className="flex flex-wrap items-center justify-between gap-2">
            <p className="text-sm text-slate-700">
              These rows were skipped; every other row was imported.
              {truncatedNote ? ` ${truncatedNote}` : ""}
            </p>
            {report ? (
              <a href={report} download={reportName} className="btn-secondary">
                <Download className="h-4 w-4" aria-hidden /> Download error report
              </a>
            ) : null}
          </div>
          <ImportErrorsTable errors={errors} />
        </div>
      ) : null}
      <div className="flex flex-wrap gap-2">
        <Link to={list.to} className="btn-primary">
          {list.label}
        </Link>
        <Link to={again} className="btn-secondary">
          <FileUp className="h-4 w-4" aria-hidden /> Import another file
        </Link>
      </div>
    </TitledCard>
  );
}
