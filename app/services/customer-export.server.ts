// The CSV export of customers, shared by the screen, /api and the CLI: the tenant's customers (all,
// or those matching a search) streamed as CSV a slice at a time, so a million rows never sit in
// memory. The server runs it in a worker thread (customersCsvResponse in ~/services/background-work.server).
import { csvText } from "~/lib/csv-cells";
import { IMPORT_FIELDS } from "~/lib/customer-csv";
import { DEFAULT_TIME_ZONE, isoInZone } from "~/lib/dates";
import type { ExportRow } from "~/models/customers/rows";
import { customers } from "~/models/customers/store.server";
import type { AnyConnection } from "~/models/transaction/store.server";
import { normaliseQuery } from "~/services/customers.server";

/** The export's columns: the id, what an import reads (so an export imports back), the date added. */
export const EXPORT_COLUMNS = ["id", ...IMPORT_FIELDS, "createdAt"] as const;

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
  let headerSent = false;
  const close = async () => {
    const open = connection;
    connection = undefined;
    if (open) await customers.closeConnection(open);
  };
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        connection ??= await customers.openExportConnection(options.file);
        let chunk = "";
        if (!headerSent) {
          chunk += csvText([[...EXPORT_COLUMNS]]);
          headerSent = true;
        }
        const rows = await customers.readExportSlice(connection, userId, term, after, pageSize);
        if (rows.length) {
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
