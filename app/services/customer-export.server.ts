// The CSV export of customers, shared by the screen, /api and the CLI: the tenant's customers (all,
// or those matching a search) streamed as CSV a slice at a time, so a million rows never sit in
// memory. The server runs it in a worker thread (customersCsvResponse in ~/services/background-work.server).
//
// After the customer's own columns come one column per field (the built-in ones, then the tenant's
// own that are not retired, in their order; the header is the field's name), `tags` (the
// customer's tags by name, joined by "; ") and the consent as it reads now (CONSENT_COLUMNS: its
// status, date, source and text; consentReading() of the consent service): an export imports back
// into a workspace with the same fields. Each slice's values, tags and consents are read with one
// statement each, and not at all when the tenant holds none.
import { csvText } from "~/lib/csv-cells";
import { BUILT_IN_FIELDS } from "~/lib/custom-fields";
import { NEVER_ASKED } from "~/lib/consent";
import { CONSENT_COLUMNS, IMPORT_FIELDS, TAGS_COLUMN } from "~/lib/customer-csv";
import { DEFAULT_TIME_ZONE, isoInZone } from "~/lib/dates";
import { tagCell } from "~/lib/tags";
import type { ExportExtras, ExportRow } from "~/models/customers/rows";
import { customerCsv } from "~/models/customers/csv/store.server";
import type { AnyConnection } from "~/models/transaction/store.server";
import { consentReading } from "~/services/consent.server";
import { fieldDefinitionOf } from "~/services/custom-fields.server";
import { normaliseQuery } from "~/services/customers.server";

/** The export's own columns: the id, what an import reads (so an export imports back), the date added. */
export const EXPORT_COLUMNS = ["id", ...IMPORT_FIELDS, "createdAt"] as const;

/** The columns after EXPORT_COLUMNS, read once an export starts: its fields' names, and whether the tenant holds values and tags. */
type ExportShape = { fields: string[]; holds: ExportExtras };

async function exportShape(connection: AnyConnection, userId: string): Promise<ExportShape> {
  const [rows, holds] = await Promise.all([
    customerCsv.readCsvFields(connection, userId),
    customerCsv.readExportExtras(connection, userId),
  ]);
  const own = rows.map(fieldDefinitionOf).filter((f) => !f.retired);
  return { fields: [...BUILT_IN_FIELDS, ...own].map((f) => f.name), holds };
}

/** The consent's columns after `tags`. */
const CONSENT_HEADER = [CONSENT_COLUMNS.status, CONSENT_COLUMNS.at, CONSENT_COLUMNS.source, CONSENT_COLUMNS.text];

/** The consent's cells of a customer who was never asked. */
const NEVER_ASKED_CELLS = [NEVER_ASKED.status, "", "", ""];

/**
 * The slice's field values, tags and consent cells by customer: one statement each, none when the
 * tenant holds none. `iso` writes the consent's date as the export's other dates.
 */
async function sliceExtras(
  connection: AnyConnection,
  userId: string,
  shape: ExportShape,
  rows: readonly ExportRow[],
  iso: (ms: number) => string,
) {
  const ids = rows.map((r) => r.id);
  const [values, tags, consents] = await Promise.all([
    shape.holds.values ? customerCsv.readExportFieldValues(connection, userId, ids) : [],
    shape.holds.tags ? customerCsv.readExportTags(connection, userId, ids) : [],
    shape.holds.consents ? customerCsv.readExportConsents(connection, userId, ids) : [],
  ]);
  const valuesOf = new Map<string, Map<string, string>>();
  for (const v of values) {
    let own = valuesOf.get(v.customerId);
    if (!own) valuesOf.set(v.customerId, (own = new Map()));
    own.set(v.name, v.value);
  }
  const tagsOf = new Map<string, string[]>();
  for (const t of tags) {
    const own = tagsOf.get(t.customerId);
    if (own) own.push(t.name);
    else tagsOf.set(t.customerId, [t.name]);
  }
  const consentOf = new Map<string, string[]>();
  for (const c of consents) {
    const reading = consentReading(
      c.status === null
        ? null
        : { status: c.status, at: new Date(Number(c.at)), source: c.source ?? "", text: c.text ?? "" },
      c.reason === null ? null : { reason: c.reason, createdAt: new Date(Number(c.suppressedAt)) },
    );
    const at = reading.at === null ? "" : iso(Date.parse(reading.at));
    consentOf.set(c.customerId, [reading.status, at, reading.source, reading.text]);
  }
  return (id: string): string[] => {
    const own = valuesOf.get(id);
    return [
      ...shape.fields.map((name) => own?.get(name) ?? ""),
      tagCell(tagsOf.get(id) ?? []),
      ...(consentOf.get(id) ?? NEVER_ASKED_CELLS),
    ];
  };
}

/** The tenant's customers (all, or those matching `q`) as a CSV byte stream, newest added first. */
export function exportCustomersCsv(
  userId: string,
  q?: string | null,
  /** timeZone: the viewer's zone; dates are written as ISO 8601 with its offset. */
  options: { file?: string; pageSize?: number; timeZone?: string } = {},
): ReadableStream<Uint8Array> {
  const term = normaliseQuery(q);
  const pageSize = options.pageSize ?? 2000;
  const timeZone = options.timeZone ?? DEFAULT_TIME_ZONE;
  const iso = (ms: number | null) => (ms === null ? "" : isoInZone(ms, timeZone));
  const encoder = new TextEncoder();
  let connection: AnyConnection | undefined;
  let after: ExportRow["r"] | null = null;
  let shape: ExportShape | undefined;
  const close = async () => {
    const open = connection;
    connection = undefined;
    if (open) await customerCsv.closeConnection(open);
  };
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        connection ??= await customerCsv.openExportConnection(options.file);
        let chunk = "";
        if (!shape) {
          shape = await exportShape(connection, userId);
          chunk += csvText([[...EXPORT_COLUMNS, ...shape.fields, TAGS_COLUMN, ...CONSENT_HEADER]]);
        }
        const rows = await customerCsv.readExportSlice(connection, userId, term, after, pageSize);
        if (rows.length) {
          const extrasOf = await sliceExtras(connection, userId, shape, rows, iso);
          chunk += csvText(
            rows.map((c) => [
              c.id,
              c.firstName,
              c.lastName,
              c.email,
              c.phone,
              c.address,
              c.company,
              c.notes,
              (c.totalSpendPaise / 100).toFixed(2),
              c.visits,
              iso(c.lastActive),
              iso(c.createdAt),
              ...extrasOf(c.id),
            ]),
          );
          after = rows[rows.length - 1].r;
        }
        if (chunk) controller.enqueue(encoder.encode(chunk));
        if (rows.length < pageSize) {
          await close();
          controller.close();
        }
      } catch (error) {
        await close();
        controller.error(error);
      }
    },
    async cancel() {
      await close();
    },
  });
}

/** A file name for an export: customers-2024-05-31.csv (or customers-search-….csv). */
export function exportFileName(q?: string | null, now = new Date()): string {
  const day = now.toISOString().slice(0, 10);
  return normaliseQuery(q) ? `customers-search-${day}.csv` : `customers-${day}.csv`;
}
