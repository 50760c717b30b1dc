// /suppressions/import: upload a CSV file of addresses to suppress (a list brought from another
// tool, or an export of this one). The file is streamed into the service as it arrives (never held
// whole in memory); the result gives the counts and lists the rows it skipped with their line and
// reason, with a report to download. A file the service refuses (not CSV, no email column, empty)
// is told on the page with what to do. A plain multipart form post, so it works without JavaScript.
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data, unstable_parseMultipartFormData, type UploadHandler } from "@remix-run/node";
import { Form, Link, useActionData, useNavigation } from "@remix-run/react";
import { ArrowLeft, CheckCircle2, Download, FileUp, Upload } from "lucide-react";
import { useEffect } from "react";
import { toast } from "sonner";
import { Field, FormAlert } from "~/components/forms";
import { ImportErrorsTable } from "~/components/import-errors-table";
import { allowMethods, ApiError, keepAllowHeader } from "~/lib/api.server";
import { BRAND } from "~/lib/brand";
import { formatCount } from "~/lib/numbers";
import { requireUser } from "~/services/auth.server";
import {
  importSuppressionsCsv,
  suppressionErrorReportCsv,
  type SuppressionImportResult,
} from "~/services/suppressions.server";

// A 405 keeps its Allow header on the rendered page (app/lib/api.server.ts).
export const headers = keepAllowHeader;

export const meta: MetaFunction = () => [{ title: `Import Suppressions · ${BRAND}` }];

export async function loader({ request }: LoaderFunctionArgs) {
  await requireUser(request);
  return null;
}

/** The bad rows listed on the page (the report has them all, up to the service's limit). */
const SHOWN_ERRORS = 50;

type Outcome =
  | {
      ok: true;
      result: SuppressionImportResult;
      /** The bad rows as a CSV data: address, when there are any. */
      report: string | null;
    }
  | { ok: false; message: string };

const NO_FILE = "Choose a CSV file to import.";

export async function action({ request }: ActionFunctionArgs) {
  allowMethods(request, "GET", "POST");
  const user = await requireUser(request);
  let result: SuppressionImportResult | undefined;
  let failure: string | undefined;
  let fault: unknown;
  const handler: UploadHandler = async ({ name, filename, data: chunks }) => {
    if (filename === undefined || name !== "file" || result || failure !== undefined) {
      for await (const chunk of chunks) void chunk;
      return undefined;
    }
    if (!filename) {
      for await (const chunk of chunks) void chunk;
      failure = NO_FILE;
      return undefined;
    }
    try {
      result = await importSuppressionsCsv(user.id, chunks);
    } catch (error) {
      // A file the import refuses (not CSV, no email column) is told on the screen.
      if (!(error instanceof ApiError)) {
        fault = error;
        throw error;
      }
      failure = error.message;
      for await (const chunk of chunks) void chunk;
    }
    return undefined;
  };
  try {
    await unstable_parseMultipartFormData(request, handler);
  } catch {
    // A fault of the import itself goes on to the error boundary and the server log; anything else
    // here is an upload cut short (the browser went away, or not a multipart form), told as one
    // unless the import had finished.
    if (fault !== undefined) throw fault;
    if (!result) failure = "The upload could not be read. Choose the file again and retry.";
  }
  if (!result) return data<Outcome>({ ok: false, message: failure ?? NO_FILE }, { status: 422 });
  const report =
    result.invalid > 0
      ? `data:text/csv;charset=utf-8,${encodeURIComponent(suppressionErrorReportCsv(result.errors))}`
      : null;
  return data<Outcome>({ ok: true, result: { ...result, errors: result.errors.slice(0, SHOWN_ERRORS) }, report });
}

const addresses = (n: number) => `${formatCount(n)} ${n === 1 ? "address" : "addresses"}`;

export default function ImportSuppressions() {
  const outcome = useActionData<typeof action>();
  const navigation = useNavigation();
  const busy = navigation.state === "submitting";

  useEffect(() => {
    if (!outcome) return;
    if (outcome.ok) toast.success(`${addresses(outcome.result.added)} added to the suppression list`);
    else toast.error(outcome.message);
  }, [outcome]);

  return (
    <div className="mx-auto max-w-5xl space-y-4">
      <div className="flex items-center gap-3">
        <Link to="/suppressions" className="btn-ghost" aria-label="Back to Suppressions">
          <ArrowLeft className="h-5 w-5" aria-hidden />
        </Link>
        <div>
          <h2 className="text-2xl font-bold text-slate-900">Import Suppressions</h2>
          <p className="text-slate-600">
            Upload a CSV file of addresses that should get no campaign e-mail, such as a list from another tool.
          </p>
        </div>
      </div>

      <FormAlert errors={outcome && !outcome.ok ? [outcome.message] : null} />

      {outcome && outcome.ok ? (
        <ImportResult outcome={outcome} />
      ) : (
        <Form method="post" encType="multipart/form-data" className="card space-y-5 p-6">
          <div className="flex flex-wrap items-start gap-3 rounded-lg border-2 border-dashed border-slate-300 p-4">
            <FileUp className="mt-6 h-6 w-6 text-slate-400" aria-hidden />
            <Field
              className="min-w-0 flex-1"
              label="CSV file"
              hint="The first row names the columns: email (or Email Address), and optionally reason and campaign. Another tool's export works as it is (Mailchimp's unsubscribed or cleaned contacts, SendGrid's or Postmark's suppressions): its reason is kept. Addresses already on the list keep their reason and date."
              inputProps={{
                id: "file",
                name: "file",
                type: "file",
                accept: ".csv,text/csv",
                required: true,
                // As wide as its box: a file input's own width overflows a phone.
                className: "block w-full text-sm",
              }}
            />
          </div>
          <div className="flex justify-end gap-2">
            <Link to="/suppressions" className="btn-secondary">
              Cancel
            </Link>
            <button type="submit" className="btn-primary" disabled={busy}>
              <Upload className="h-4 w-4" aria-hidden /> {busy ? "Importing..." : "Import"}
            </button>
          </div>
        </Form>
      )}
    </div>
  );
}

/** What an import did: the counts, and the rows it skipped with their line and reason. */
function ImportResult({ outcome }: { outcome: Extract<Outcome, { ok: true }> }) {
  const r = outcome.result;
  const counts: [string, string, number][] = [
    ["Rows read", "rows", r.rows],
    ["Added", "added", r.added],
    ["Already on the list", "already", r.alreadySuppressed],
    ["Rows with errors", "errors", r.invalid],
  ];
  return (
    <section className="card space-y-4 p-6" aria-labelledby="result-heading">
      <h3 id="result-heading" className="flex items-center gap-2 font-semibold text-slate-900">
        <CheckCircle2 className="h-5 w-5 text-green-600" aria-hidden /> Import finished
      </h3>
      <dl className="grid grid-cols-2 gap-3 text-sm sm:grid-cols-4">
        {counts.map(([label, id, value]) => (
          <div key={id} className="rounded-lg bg-slate-50 p-3">
            <dt className="text-slate-500">{label}</dt>
            <dd className="text-xl font-semibold text-slate-900" data-testid={`result-${id}`}>
              {formatCount(value)}
            </dd>
          </div>
        ))}
      </dl>
      {r.duplicates > 0 ? (
        <p className="text-sm text-slate-600">
          {formatCount(r.duplicates)} {r.duplicates === 1 ? "row repeated an address" : "rows repeated an address"}{" "}
          given earlier in the file.
        </p>
      ) : null}
      {r.invalid > 0 ? (
        <div className="space-y-2">
          <div className="flex flex-wrap items-center justify-between gap-2">
            <p className="text-sm text-slate-700">
              These rows were skipped; every other row was imported.
              {r.errorsTruncated ? " The report lists the first of them." : ""}
            </p>
            {outcome.report ? (
              <a href={outcome.report} download="suppression-import-errors.csv" className="btn-secondary">
                <Download className="h-4 w-4" aria-hidden /> Download error report
              </a>
            ) : null}
          </div>
          <ImportErrorsTable errors={r.errors} />
        </div>
      ) : null}
      <div className="flex flex-wrap gap-2">
        <Link to="/suppressions" className="btn-primary">
          Go to Suppressions
        </Link>
        {/* A fresh page, with or without JavaScript: the result goes and an empty form comes back. */}
        <Link to="/suppressions/import" className="btn-secondary">
          <FileUp className="h-4 w-4" aria-hidden /> Import another file
        </Link>
      </div>
    </section>
  );
}
