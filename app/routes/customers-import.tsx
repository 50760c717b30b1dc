// /customers/import: upload a CSV of customers. With JavaScript the browser previews the first
// rows and offers a column mapping guessed from the header; without it the server guesses. The
// file is streamed into the import engine in a worker thread as it arrives (never held in memory,
// never parsed or saved on the thread that answers requests); the result gives the counts and a
// downloadable report of the bad rows with their line numbers and reasons.
import { parseWithZod } from "@conform-to/zod/v4";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data, unstable_parseMultipartFormData, type UploadHandler } from "@remix-run/node";
import { Form, useActionData, useNavigation } from "@remix-run/react";
import { useEffect, useMemo, useRef, useState } from "react";
import { toast } from "sonner";
import { z } from "zod";
import { ImportHeading, ImportResultCard, ImportUpload } from "~/components/csv-import";
import { FormAlert, SelectField } from "~/components/forms";
import { allowMethods, ApiError, keepAllowHeader } from "~/lib/api.server";
import { BRAND } from "~/lib/brand";
import { formatCount } from "~/lib/numbers";
import { CsvRecordReader, NO_CUSTOMER_ROWS, NOT_CSV_TEXT, TEXT_SNIFF_BYTES, TextSniffer } from "~/lib/csv-records";
import {
  IMPORT_FIELDS,
  REQUIRED_IMPORT_FIELDS,
  guessMapping,
  importFieldLabel,
  missingRequired,
  type ColumnMapping,
  type ImportField,
} from "~/lib/customer-csv";
import { requireUser } from "~/services/auth.server";
import { errorReportCsv, type ImportResult } from "~/services/customer-import.server";
import { ImportProgressKeySchema, trackImport, type ImportProgressState } from "~/services/import-progress.server";
import { importCustomersOffThread, warmOffThreadWorker } from "~/services/background-work.server";

// A 405 keeps its Allow header on the rendered page (app/lib/api.server.ts).
export const headers = keepAllowHeader;

export const meta: MetaFunction = () => [{ title: `Import Customers · ${BRAND}` }];

export async function loader({ request }: LoaderFunctionArgs) {
  await requireUser(request);
  // The import runs in a worker thread that takes a second to start: started now, while the user
  // chooses the file.
  warmOffThreadWorker();
  return null;
}

type Outcome =
  | {
      ok: true;
      result: Omit<ImportResult, "errors" | "mapping"> & { errors: ImportResult["errors"] };
      report: string | null;
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
 * The form's fields that come before the file: the progress key the screen polls with, and the
 * column chosen for each customer field (map.<field>; none sent means the server guesses from the
 * header, as it does without JavaScript).
 */
const ImportFieldsSchema = z.object({
  progressKey: ImportProgressKeySchema.optional(),
  map: z
    .object(Object.fromEntries(IMPORT_FIELDS.map((f) => [f, column])) as Record<ImportField, typeof column>)
    .optional(),
});

export async function action({ request }: ActionFunctionArgs) {
  allowMethods(request, "GET", "POST");
  const user = await requireUser(request);
  const fields = new Map<string, string>();
  let result: ImportResult | undefined;
  let failure: string | undefined;
  let fault: unknown;
  const handler: UploadHandler = async ({ name, filename, data: chunks }) => {
    if (filename !== undefined) {
      if (name !== "file" || result || failure) {
        for await (const chunk of chunks) void chunk;
        return undefined;
      }
      if (!filename) {
        for await (const chunk of chunks) void chunk;
        failure = "Choose a CSV file to import.";
        return undefined;
      }
      const submission = parseWithZod(new URLSearchParams([...fields]), { schema: ImportFieldsSchema });
      if (submission.status !== "success") {
        for await (const chunk of chunks) void chunk;
        failure = Object.values(submission.error ?? {}).flat()[0] ?? "Choose the file again and retry.";
        return undefined;
      }
      const { progressKey, map } = submission.value;
      // The screen sends a key of its choosing ahead of the file and asks for the progress by it.
      const tracker = progressKey ? trackImport(user.id, progressKey) : null;
      try {
        result = await importCustomersOffThread(user.id, chunks, {
          mapping: map
            ? (Object.fromEntries(Object.entries(map).filter(([, i]) => i !== undefined)) as ColumnMapping)
            : undefined,
          onProgress: tracker?.onProgress,
        });
      } catch (error) {
        // A file the import refuses (no header, a column missing) is told on the screen.
        if (!(error instanceof ApiError)) {
          fault = error;
          throw error;
        }
        failure = error.message;
        for await (const chunk of chunks) void chunk;
      } finally {
        tracker?.finish();
      }
      return undefined;
    }
    let text = "";
    const decoder = new TextDecoder();
    for await (const chunk of chunks) {
      text += decoder.decode(chunk, { stream: true });
      if (text.length > 1000) break;
    }
    fields.set(name, text);
    return text;
  };
  try {
    await unstable_parseMultipartFormData(request, handler);
  } catch {
    // A fault of the import itself goes on to the error boundary and the server log; anything else
    // here is an upload cut short (the browser went away), told as one unless the import had finished.
    if (fault !== undefined) throw fault;
    if (!result) failure = "The upload could not be read. Choose the file again and retry.";
  }
  if (!result) return data<Outcome>({ ok: false, message: failure ?? "Choose a CSV file to import." }, { status: 422 });
  const report =
    result.failed > 0 ? `data:text/csv;charset=utf-8,${encodeURIComponent(errorReportCsv(result.errors))}` : null;
  return data<Outcome>({
    ok: true,
    result: { ...result, errors: result.errors.slice(0, SHOWN_ERRORS) },
    report,
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

export default function ImportCustomers() {
  const outcome = useActionData<typeof action>();
  const navigation = useNavigation();
  const busy = navigation.state === "submitting";
  const [preview, setPreview] = useState<Preview | null>(null);
  const [previewError, setPreviewError] = useState<string | null>(null);
  const [mapping, setMapping] = useState<ColumnMapping>({});
  const missing = useMemo(() => (preview ? missingRequired(mapping) : []), [preview, mapping]);
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
        />
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
            hint="The first row names the columns, e.g. firstName, lastName, email, phone, address, company, notes, totalSpend, visits, lastActive."
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
              preview ? (
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
                </fieldset>
              ) : null
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
