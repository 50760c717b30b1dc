// /suppressions/import: upload a CSV file of addresses to suppress (a list brought from another
// tool, or an export of this one). The file is streamed into the service as it arrives (never held
// whole in memory); the result gives the counts and lists the rows it skipped with their line and
// reason, with a report to download. A file the service refuses (not CSV, no email column, empty)
// is told on the page with what to do. A plain multipart form post, so it works without JavaScript.
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data } from "@remix-run/node";
import { Form, useActionData, useNavigation } from "@remix-run/react";
import { useEffect } from "react";
import { toast } from "sonner";
import { ImportHeading, ImportResultCard, ImportUpload } from "~/components/csv-import";
import { FormAlert } from "~/components/forms";
import { allowMethods, keepAllowHeader } from "~/lib/api.server";
import { BRAND } from "~/lib/brand";
import { importUploadedFile } from "~/lib/file-upload.server";
import { formatCount } from "~/lib/numbers";
import { requireUser } from "~/services/auth.server";
import {
  importSuppressionsCsv,
  suppressionErrorReportCsv,
  type SuppressionImportResult,
} from "~/services/suppressions-csv.server";

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

export async function action({ request }: ActionFunctionArgs) {
  allowMethods(request, "GET", "POST");
  const user = await requireUser(request);
  // A file the import refuses (not CSV, no email column) is told on the screen.
  const upload = await importUploadedFile(request, (chunks) => importSuppressionsCsv(user.id, chunks));
  if (!upload.ok) return data<Outcome>(upload, { status: 422 });
  const { result } = upload;
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
      <ImportHeading backTo="/suppressions" backLabel="Back to Suppressions" title="Import Suppressions">
        Upload a CSV file of addresses that should get no campaign e-mail, such as a list from another tool.
      </ImportHeading>

      <FormAlert errors={outcome && !outcome.ok ? [outcome.message] : null} />

      {outcome && outcome.ok ? (
        <ImportResult outcome={outcome} />
      ) : (
        <Form method="post" encType="multipart/form-data" className="card space-y-5 p-6">
          <ImportUpload
            hint="The first row names the columns: email (or Email Address), and optionally reason and campaign. Another tool's export works as it is (Mailchimp's unsubscribed or cleaned contacts, SendGrid's or Postmark's suppressions): its reason is kept. Addresses already on the list keep their reason and date."
            cancelTo="/suppressions"
            busy={busy}
            disabled={busy}
          />
        </Form>
      )}
    </div>
  );
}

/** What an import did: the counts, and the rows it skipped with their line and reason. */
function ImportResult({ outcome }: { outcome: Extract<Outcome, { ok: true }> }) {
  const r = outcome.result;
  return (
    <ImportResultCard
      counts={[
        { label: "Rows read", id: "rows", value: r.rows },
        { label: "Added", id: "added", value: r.added },
        { label: "Already on the list", id: "already", value: r.alreadySuppressed },
        { label: "Rows with errors", id: "errors", value: r.invalid },
      ]}
      skipped={r.invalid}
      truncatedNote={r.errorsTruncated ? "The report lists the first of them." : null}
      report={outcome.report}
      reportName="suppression-import-errors.csv"
      errors={r.errors}
      list={{ to: "/suppressions", label: "Go to Suppressions" }}
      again="/suppressions/import"
    >
      {r.duplicates > 0 ? (
        <p className="text-sm text-slate-600">
          {formatCount(r.duplicates)} {r.duplicates === 1 ? "row repeated an address" : "rows repeated an address"}{" "}
          given earlier in the file.
        </p>
      ) : null}
    </ImportResultCard>
  );
}
