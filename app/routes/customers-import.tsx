// /customers/import: upload a CSV of customers. With JavaScript the browser previews the first
// rows and offers a column mapping guessed from the header; without it the server guesses. The
// file is streamed into the import engine in a worker thread as it arrives (never held in memory,
// never parsed or saved on the thread that answers requests); the result gives the counts and a
// downloadable report of the bad rows with their line numbers and reasons.
//
// Columns named for one of the tenant's fields, and a tags column, are imported too (the preview
// says which); the checkbox 'Create fields for unknown columns', sent before the file, makes text
// fields of the rest. Without it the result lists the columns left out.
import { parseWithZod } from "@conform-to/zod/v4";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data } from "@remix-run/node";
import { Form, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { useEffect, useMemo, useRef, useState } from "react";
import { toast } from "sonner";
import { z } from "zod";
import { ImportHeading, ImportResultCard, ImportUpload } from "~/components/csv-import";
import { CheckboxField, FormAlert, SelectField } from "~/components/forms";
import { allowMethods, ApiError, keepAllowHeader } from "~/lib/api.server";
import { BRAND } from "~/lib/brand";
import { importUploadedFile } from "~/lib/file-upload.server";
import { formatCount } from "~/lib/numbers";
import { CsvRecordReader, NO_CUSTOMER_ROWS, NOT_CSV_TEXT, TEXT_SNIFF_BYTES, TextSniffer } from "~/lib/csv-records";
import {
  extraColumns,
  IMPORT_FIELDS,
  REQUIRED_IMPORT_FIELDS,
  guessMapping,
  importFieldLabel,
  missingRequired,
  type ColumnMapping,
  type ImportField,
} from "~/lib/customer-csv";
import { requireUser } from "~/services/auth.server";
import { fieldDefinitions } from "~/services/custom-fields.server";
import { errorReportCsv, type ImportResult } from "~/services/customer-import.server";
import { ImportProgressKeySchema, trackImport, type ImportProgressState } from "~/services/import-progress.server";
import { importCustomersOffThread, warmOffThreadWorker } from "~/services/background-work.server";

// A 405 keeps its Allow header on the rendered page (app/lib/api.server.ts).
export const headers = keepAllowHeader;

export const meta: MetaFunction = () => [{ title: `Import Customers · ${BRAND}` }];

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  // The import runs in a worker thread that takes a second to start: started now, while the user
  // chooses the file.
  warmOffThreadWorker();
  // The fields a column can be named for: the preview says which columns are fields.
  const fields = (await fieldDefinitions(user.id))
    .filter((f) => !f.retired)
    .map((f) => ({ name: f.name, label: f.label, retired: false }));
  return { fields };
}

type Outcome =
  | {
      ok: true;
      result: Omit<ImportResult, "errors" | "mapping"> & { errors: ImportResult["errors"] };
      report: string | null;
      /** Whether 'Create fields for unknown columns' was ticked: the columns still unknown could not be made fields. */
      createFields: boolean;
    }
  | { ok: false; message: string };

const SHOWN_ERRORS = 50;

const column = z.coerce
  .number({ message: "Choose one of the file's columns" })
  .int("Choose one of the file's columns")
  .min(0, "Choose one of the file's columns")
  .max(9_999, "Choose one of the file's columns")
  .optional();

/**
 * The form's fields that come before the file: the progress key the screen polls with, whether to
 * make fields of unknown columns, and the column chosen for each customer field (map.<field>; none
 * sent means the server guesses from the header, as it does without JavaScript).
 */
const ImportFieldsSchema = z.object({
  progressKey: ImportProgressKeySchema.optional(),
  createFields: z.boolean().optional(),
  map: z
    .object(Object.fromEntries(IMPORT_FIELDS.map((f) => [f, column])) as Record<ImportField, typeof column>)
    .optional(),
});

export async function action({ request }: ActionFunctionArgs) {
  allowMethods(request, "GET", "POST");
  const user = await requireUser(request);
  const fields = new Map<string, string>();
  let creating = false;
  const upload = await importUploadedFile(
    request,
    async (chunks) => {
      const submission = parseWithZod(new URLSearchParams([...fields]), { schema: ImportFieldsSchema });
      if (submission.status !== "success")
        throw new ApiError(
          "unprocessable",
          Object.values(submission.error ?? {}).flat()[0] ?? "Choose the file again and retry.",
        );
      const { progressKey, map, createFields } = submission.value;
      creating = createFields === true;
      // The screen sends a key of its choosing ahead of the file and asks for the progress by it.
      const tracker = progressKey ? trackImport(user.id, progressKey) : null;
      try {
        // A file the import refuses (no header, a column missing) is told on the screen.
        return await importCustomersOffThread(user.id, chunks, {
          mapping: map
            ? (Object.fromEntries(Object.entries(map).filter(([, i]) => i !== undefined)) as ColumnMapping)
            : undefined,
          createFields: creating,
          onProgress: tracker?.onProgress,
        });
      } finally {
        tracker?.finish();
      }
    },
    fields,
  );
  if (!upload.ok) return data<Outcome>(upload, { status: 422 });
  const { result } = upload;
  const report =
    result.failed > 0 ? `data:text/csv;charset=utf-8,${encodeURIComponent(errorReportCsv(result.errors))}` : null;
  return data<Outcome>({
    ok: true,
    result: { ...result, errors: result.errors.slice(0, SHOWN_ERRORS) },
    report,
    createFields: creating,
  });
}

type Preview = { header: string[]; rows: string[][]; mapping: ColumnMapping; name: string };

const PROGRESS_POLL_MS = 500;

/**
 * Reads the first rows of the chosen file in the browser for the preview and the mapping guess,
 * with the reader the server's import uses, so both see the same records and the same errors.
 */
async function readPreview(file: File): Promise<Preview | string> {
  // The same test of the first bytes as the server's: a binary file shows no preview of garbage.
  const sniffer = new TextSniffer();
  sniffer.push(new Uint8Array(await file.slice(0, TEXT_SNIFF_BYTES).arrayBuffer()));
  if (sniffer.binary) return NOT_CSV_TEXT;
  const whole = file.size <= PREVIEW_BYTES;
  const head = await file.slice(0, PREVIEW_BYTES).text();
  const records: string[][] = [];
  try {
    const reader = new CsvRecordReader((fields) => {
      if (records.length < 6) records.push(fields);
    });
    reader.push(head);
    // A record the slice cut in two stays unread rather than looking malformed.
    if (whole) reader.end();
  } catch (error) {
    return `The file is not a valid CSV file: ${error instanceof Error ? error.message : String(error)}`;
  }
  if (records.length === 0) return "The file is empty: it needs a header row and at least one customer.";
  if (whole && records.length === 1) return NO_CUSTOMER_ROWS;
  const header = records[0].map((h) => h.trim());
  return { header, rows: records.slice(1, 6), mapping: guessMapping(header), name: file.name };
}

const PREVIEW_BYTES = 64 * 1024;

/** What the file's other columns hold, as the preview says it: fields, tags, consent, and the columns left out. */
function ExtraColumnsNote({ extra }: { extra: ReturnType<typeof extraColumns> }) {
  if (
    extra.fields.length === 0 &&
    extra.tags === undefined &&
    extra.consent === undefined &&
    extra.unknown.length === 0
  )
    return null;
  return (
    <ul className="space-y-1 text-sm text-slate-700" aria-label="Other columns">
      {extra.fields.length > 0 ? <li>Fields: {extra.fields.map((c) => c.field.label).join(", ")}</li> : null}
      {extra.tags !== undefined ? (
        <li>Tags: each customer&apos;s tags become the row&apos;s (separated by ;)</li>
      ) : null}
      {extra.consent !== undefined ? (
        <li>Consent: a row&apos;s consent is recorded (an empty cell leaves it as it is)</li>
      ) : null}
      {extra.unknown.length > 0 ? (
        <li>Not customer columns or fields: {extra.unknown.map((c) => c.header).join(", ")}</li>
      ) : null}
    </ul>
  );
}

export default function ImportCustomers() {
  const { fields } = useLoaderData<typeof loader>();
  const outcome = useActionData<typeof action>();
  const navigation = useNavigation();
  const busy = navigation.state === "submitting";
  const [preview, setPreview] = useState<Preview | null>(null);
  const [previewError, setPreviewError] = useState<string | null>(null);
  const [mapping, setMapping] = useState<ColumnMapping>({});
  const missing = useMemo(() => (preview ? missingRequired(mapping) : []), [preview, mapping]);
  const extra = useMemo(
    () => (preview ? extraColumns(preview.header, mapping, fields) : null),
    [preview, mapping, fields],
  );
  const [fileSize, setFileSize] = useState(0);
  const progressKeyInput = useRef<HTMLInputElement>(null);
  const [progressKey, setProgressKey] = useState<string | null>(null);
  const [progress, setProgress] = useState<ImportProgressState | null>(null);

  // While the upload runs, ask the server how far the import has got.
  useEffect(() => {
    if (!busy || !progressKey) return;
    let stopped = false;
    const poll = async () => {
      try {
        const r = await fetch(`/customers/import/progress?key=${encodeURIComponent(progressKey)}`, {
          headers: { Accept: "application/json" },
        });
        if (r.ok && !stopped) setProgress((await r.json()) as ImportProgressState);
      } catch {
        // The next poll tries again; the import itself is unaffected.
      }
    };
    const timer = window.setInterval(poll, PROGRESS_POLL_MS);
    return () => {
      stopped = true;
      window.clearInterval(timer);
    };
  }, [busy, progressKey]);
  useEffect(() => {
    if (!busy) setProgress(null);
  }, [busy]);

  useEffect(() => {
    if (!outcome) return;
    if (outcome.ok) {
      const r = outcome.result;
      toast.success(`Imported ${formatCount(r.imported)} customers`);
      // The imported file is done with: the form goes (see the result's 'Import another file')
      // and comes back empty, nothing left selected to import a second time.
      setPreview(null);
      setPreviewError(null);
      setMapping({});
      setFileSize(0);
    } else toast.error(outcome.message);
  }, [outcome]);

  return (
    <div className="mx-auto max-w-5xl space-y-4">
      <ImportHeading backTo="/customers" backLabel="Back to Customers" title="Import Customers">
        Upload a CSV file. Customers are matched on email: existing ones are updated, new ones added.
      </ImportHeading>

      <FormAlert errors={outcome && !outcome.ok ? [outcome.message] : null} />

      {outcome && outcome.ok ? (
        <ImportResultCard
          counts={[
            { label: "Rows read", id: "rows-read", value: outcome.result.rows },
            { label: "New customers", id: "new-customers", value: outcome.result.created },
            { label: "Updated", id: "updated", value: outcome.result.updated },
            { label: "Rows with errors", id: "rows-with-errors", value: outcome.result.failed },
          ]}
          skipped={outcome.result.failed}
          truncatedNote={outcome.result.errorsTruncated ? "The report lists the first 10,000." : null}
          report={outcome.report}
          reportName="customer-import-errors.csv"
          errors={outcome.result.errors}
          list={{ to: "/customers", label: "Go to Customers" }}
          again="/customers/import"
        >
          <ImportedColumns result={outcome.result} createFields={outcome.createFields} />
        </ImportResultCard>
      ) : null}

      {outcome && outcome.ok ? null : (
        <Form
          method="post"
          encType="multipart/form-data"
          className="card space-y-5 p-6"
          reloadDocument={false}
          onSubmit={() => {
            const key = crypto.randomUUID();
            if (progressKeyInput.current) progressKeyInput.current.value = key;
            setProgressKey(key);
            setProgress(null);
          }}
        >
          {/* The key and the mapping come before the file so the server has them when it streams in. */}
          <input ref={progressKeyInput} type="hidden" name="progressKey" defaultValue="" />
          <ImportUpload
            hint="The first row names the columns, e.g. firstName, lastName, email, phone, address, company, notes, totalSpend, visits, lastActive; a column named for one of your fields (city, birthday, …) sets it, tags (separated by ;) sets the tags, and consent (subscribed, unsubscribed or never_asked, with consentDate, consentSource and consentText) records the marketing consent."
            errors={previewError ? [previewError] : null}
            onFileChange={async (e) => {
              const file = e.currentTarget.files?.[0];
              setFileSize(file?.size ?? 0);
              setPreview(null);
              setPreviewError(null);
              if (!file) return;
              const p = await readPreview(file);
              if (typeof p === "string") setPreviewError(p);
              else {
                setPreview(p);
                setMapping(p.mapping);
              }
            }}
            before={
              <>
                <CheckboxField
                  label="Create fields for unknown columns"
                  hint="A column that is not a customer detail, one of your fields or tags becomes a text field named after its header. Without it such columns are left out, and listed after the import."
                  inputProps={{ id: "create-fields", name: "createFields", value: "on" }}
                />
                {preview ? (
                  <fieldset className="space-y-3">
                    <legend className="font-semibold text-slate-900">Match the columns</legend>
                    <div className="grid gap-3 sm:grid-cols-2 lg:grid-cols-3">
                      {IMPORT_FIELDS.map((field) => (
                        <SelectField
                          key={field}
                          label={importFieldLabel(field)}
                          required={(REQUIRED_IMPORT_FIELDS as readonly string[]).includes(field)}
                          placeholder="Do not import"
                          options={preview.header.map((h, i) => ({ value: String(i), label: h || `Column ${i + 1}` }))}
                          selectProps={{
                            id: `map-${field}`,
                            name: `map.${field}`,
                            value: mapping[field] ?? "",
                            onChange: (e) => {
                              const v = e.currentTarget.value;
                              setMapping((m) => ({ ...m, [field]: v === "" ? undefined : Number(v) }));
                            },
                          }}
                        />
                      ))}
                    </div>
                    {missing.length ? (
                      <p role="alert" className="field-error">
                        Choose a column for {missing.map(importFieldLabel).join(", ")}.
                      </p>
                    ) : null}
                    {extra ? <ExtraColumnsNote extra={extra} /> : null}
                  </fieldset>
                ) : null}
              </>
            }
            progress={{ state: progress, fileSize, saving: "customers" }}
            cancelTo="/customers"
            busy={busy}
            disabled={busy || missing.length > 0 || Boolean(previewError)}
          >
            {preview ? (
              <section aria-label="Preview" className="space-y-2">
                <h3 className="text-sm font-semibold text-slate-900">Preview of {preview.name}</h3>
                <div className="overflow-x-auto rounded-lg border border-slate-200">
                  <table className="min-w-full text-sm">
                    <thead className="bg-slate-50 text-left text-xs text-slate-500">
                      <tr>
                        {preview.header.map((h, i) => (
                          <th key={i} className="whitespace-nowrap px-3 py-2">
                            {h}
                          </th>
                        ))}
                      </tr>
                    </thead>
                    <tbody className="divide-y divide-slate-100">
                      {preview.rows.map((row, r) => (
                        <tr key={r}>
                          {preview.header.map((_, i) => (
                            <td key={i} className="whitespace-nowrap px-3 py-2">
                              {row[i] ?? ""}
                            </td>
                          ))}
                        </tr>
                      ))}
                    </tbody>
                  </table>
                </div>
              </section>
            ) : null}
          </ImportUpload>
        </Form>
      )}
    </div>
  );
}

/** What the import did with the columns beyond the customer's own: fields set, tags, consent, fields made, columns left out. */
function ImportedColumns({
  result,
  createFields,
}: {
  result: Pick<ImportResult, "fields" | "tags" | "consent" | "consentRecorded" | "createdFields" | "unknownColumns">;
  createFields: boolean;
}) {
  const lines: { id: string; text: string }[] = [];
  if (result.fields.length > 0) lines.push({ id: "fields", text: `Fields imported: ${result.fields.join(", ")}` });
  if (result.tags) lines.push({ id: "tags", text: "Tags imported from the tags column" });
  if (result.consent)
    lines.push({
      id: "consent",
      text:
        result.consentRecorded > 0
          ? `Consent recorded for ${formatCount(result.consentRecorded)} ${result.consentRecorded === 1 ? "customer" : "customers"}`
          : "Consent: no customer's consent changed",
    });
  if (result.createdFields.length > 0)
    lines.push({ id: "created-fields", text: `New fields: ${result.createdFields.join(", ")}` });
  if (result.unknownColumns.length > 0) {
    const unknown = result.unknownColumns.join(", ");
    lines.push({
      id: "unknown-columns",
      text: createFields
        ? `Columns not imported: ${unknown}. Their headers do not make a new field's name (or name a field you already have or retired), or you have reached the limit of fields.`
        : `Columns not imported: ${unknown}. To import them, tick 'Create fields for unknown columns' and import the file again.`,
    });
  }
  if (lines.length === 0) return null;
  return (
    <ul className="space-y-1 text-sm text-slate-700">
      {lines.map((line) => (
        <li key={line.id} data-testid={`result-${line.id}`}>
          {line.text}
        </li>
      ))}
    </ul>
  );
}
