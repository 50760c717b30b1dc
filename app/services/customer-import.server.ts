// The CSV import of customers, shared by the screen, /api and the CLI (the export is
// ~/services/customer-export.server).
//
// Import streams the file through the CSV reader of ~/lib/csv-records (never held in memory) and
// validates every row with the customer schema. Good rows are staged in a temporary table of the
// import's own connection; only when the whole file has parsed are they written to the tenant's
// customers (upserted on e-mail, new ones indexed for search), in batches, so a malformed file is
// refused before anything is written. Bad rows are reported with the line their record starts on
// and the reason; good rows are kept. The queries are app/models/customers/'s.
//
// Besides the customer's own columns a file may have field and tags columns (extraColumns() in
// ~/lib/customer-csv): their cells are checked with the field's rules (readFieldValue) and the tags'
// (readTagCell), staged beside the row as JSON, and written in the same batch transactions as the
// customers, set-based. A file without them stages and merges exactly as before. Columns nothing
// reads are listed in the result; with `createFields` they become text fields, made once the file
// has parsed (a refused file makes none).
//
// A `consent` column (with `consentDate`, `consentSource`, `consentText`: CONSENT_COLUMNS) gives
// each row's marketing consent, checked with /api's rules (ConsentCellsSchema); a blank cell leaves
// the customer's consent as it is. The good rows' consents are kept in memory, compactly
// (ImportedConsents), and recorded once the customers are saved, by afterImport() on the caller's
// thread through the consent service (recordConsentsByEmail()): the same path as /api's, so an
// "unsubscribed" row suppresses the address, and a customer whose consent reads so already is left
// alone.
import { Readable } from "node:stream";
import { csvText, importedCell } from "~/lib/csv-cells";
import { CsvRecordReader, NO_CUSTOMER_ROWS, NOT_CSV_TEXT, TextSniffer } from "~/lib/csv-records";
import { newId } from "~/lib/id";
import type { AnyConnection } from "~/models/transaction/store.server";
import { type MergeExtras, NO_EXTRAS, STAGE_ROWS, STAGED_EXTRA_VALUES, STAGED_VALUES } from "~/models/customers/rows";
import { customerCsv, type ImportStaging } from "~/models/customers/csv/store.server";
import { CUSTOMER_FIELDS } from "~/schemas/customer";
import { CustomerImportRowSchema } from "~/schemas/customer-import";
import { recordConsentsByEmail } from "~/services/consent.server";
import { refuse, unreadableFile } from "~/services/csv-file-refusals.server";
import {
  ConsentKeeper,
  consentEntries,
  type ImportedConsents,
  readConsentCells,
} from "~/services/customer-import-consents.server";
import {
  createPlannedFields,
  defaultsJson,
  type ExtrasPlan,
  planExtras,
  readExtras,
  tenantFields,
} from "~/services/customer-import-extras.server";
import { hasLiveFlowOn } from "~/services/flows/flows.server";
import { OWN_EVENTS } from "~/services/own-events.server";
import { recordNewCustomers } from "~/services/customer-events.server";
import {
  type ConsentColumns,
  IMPORT_FIELDS,
  REQUIRED_IMPORT_FIELDS,
  guessMapping,
  importFieldLabel,
  type ColumnMapping,
  type ImportField,
} from "~/lib/customer-csv";

export { guessMapping, IMPORT_FIELDS, type ColumnMapping, type ImportField };

/** At most this many bad rows are listed (all are counted). */
export const MAX_REPORTED_ERRORS = 10_000;
/** The reading progress is looked at every this many good rows (reported once 10,000 rows were read since the last). */
const PROGRESS_ROWS = 5000;
/** A record longer than this (characters) refuses the file: a quote left open swallows the rest. */
const MAX_RECORD_CHARS = 1_000_000;
const DECODE_PIECE_BYTES = 64 * 1024;
/** The first transaction's rows for a batchMs of 1 s (scaled down for shorter transactions). */
const FIRST_MERGE_BATCH = 10_000;
const MIN_MERGE_BATCH = 500;
const MAX_MERGE_BATCH = 250_000;

export type ImportRowError = { line: number; email: string; reason: string };

export type ImportResult = {
  /** Data rows read (the header excluded). */
  rows: number;
  /** Good rows written: created + updated. */
  imported: number;
  created: number;
  updated: number;
  failed: number;
  errors: ImportRowError[];
  errorsTruncated: boolean;
  mapping: ColumnMapping;
  /** The fields the file's columns set, by name (made ones too), in file order. */
  fields: string[];
  /** Whether the file had a tags column (each customer's tags were made the row's). */
  tags: boolean;
  /** Whether the file had a consent column. */
  consent: boolean;
  /** Customers whose consent the import recorded (those whose consent read so already are left alone). */
  consentRecorded: number;
  /** The headers of the columns nothing read (a blank header is not listed). */
  unknownColumns: string[];
  /** The text fields made from unknown columns (`createFields`), by name. */
  createdFields: string[];
  durationMs: number;
};

/** What the import's database work hands on to afterImport(): the result so far, and the consents to record. */
export type ImportedRows = { result: ImportResult; consents: ImportedConsents | null };

export type ImportProgress =
  | { phase: "reading"; rows: number; bytes: number }
  | { phase: "saving"; saved: number; total: number }
  /** A bulk load (`deferIndexes`) building the segment indexes after the rows are saved. */
  | { phase: "indexing" };

export type ImportOptions = {
  /** Which column (0-based) holds each field; guessed from the header when absent. */
  mapping?: ColumnMapping;
  onProgress?: (progress: ImportProgress) => void;
  /** The database file (the configured one by default). */
  file?: string;
  /** Staged rows written a transaction; by default sized as it goes to take about `batchMs`. */
  mergeBatch?: number;
  /**
   * How long one write transaction may take (ms, default 1000). The server keeps it short, since
   * nothing else runs while it does; the CLI, a process of its own, allows more: larger
   * transactions rewrite the randomly ordered index pages fewer times (measured on 1,000,000 rows
   * into a table of 1,100,000: 100,000-row transactions 54 s, 50,000-row ones 73 s).
   */
  batchMs?: number;
  /**
   * How long to wait between two write transactions (ms, default 5), leaving the write lock free:
   * the server's import runs in a worker thread (~/services/background-work.server), and a request that
   * writes meanwhile waits for the lock with SQLite's busy handler, which looks again at growing
   * intervals (up to 100 ms). A pause at least that long lets such a writer in between two
   * transactions instead of waiting for a gap it keeps missing.
   */
  pauseMs?: number;
  /**
   * Let a large import (~/db/bulk-load.server) save in one transaction and build the segment
   * indexes once at the end: about twice as fast, but the database's writers (the server's too)
   * wait for the whole save. For the CLI; the server keeps its short transactions.
   */
  deferIndexes?: boolean;
  /**
   * Make a text field of each unknown column (its name from the header, its label the header) and
   * import the column into it. A header that makes no valid name, or the name of a field the
   * tenant has (a retired one), stays unknown, as do columns past the tenant's limit of fields.
   */
  createFields?: boolean;
};

function checkMapping(mapping: ColumnMapping, columns: number) {
  for (const field of REQUIRED_IMPORT_FIELDS) {
    if (mapping[field] === undefined) {
      throw refuse(
        `The file has no column for ${importFieldLabel(field)}. Name a header column "${field}" (or map one) and try again.`,
      );
    }
  }
  for (const [field, index] of Object.entries(mapping)) {
    if (index !== undefined && (!Number.isInteger(index) || index < 0 || index >= columns)) {
      throw refuse(`The column chosen for ${importFieldLabel(field as ImportField)} is not in the file.`);
    }
  }
}

function toInput(source: AsyncIterable<Uint8Array | string> | Readable): Readable {
  return source instanceof Readable ? source : Readable.from(source, { objectMode: false });
}

/**
 * Imports customers for the tenant from a CSV stream, in this thread; see the module comment for
 * the rules. The CLI and the bench's import process call it; the server runs the same import in a
 * worker thread (importCustomersOffThread in ~/services/background-work.server).
 */
export async function importCustomers(
  userId: string,
  source: AsyncIterable<Uint8Array | string> | Readable,
  options: ImportOptions = {},
): Promise<ImportResult> {
  return afterImport(userId, await importCustomerRows(userId, source, options));
}

/**
 * The import's database work alone: what a worker thread runs. The consents and the new-customer
 * notification (afterImport) are left to the caller's thread, where the process bus and Prisma live.
 */
export async function importCustomerRows(
  userId: string,
  source: AsyncIterable<Uint8Array | string> | Readable,
  options: ImportOptions = {},
): Promise<ImportedRows> {
  const started = Date.now();
  const connection = await customerCsv.openImportConnection(options.file);
  try {
    const { consents, ...result } = await stageAndMerge(connection, userId, toInput(source), options);
    await customerCsv.refreshStatisticsAfterImport(connection, result.created, options.pauseMs);
    return { result: { ...result, durationMs: Date.now() - started }, consents };
  } finally {
    await customerCsv.closeConnection(connection);
  }
}

/**
 * What follows a finished import, on the caller's thread: the rows' consents recorded through the
 * consent service (their customers are saved by now), and the new-customer count behind the
 * notifications. Returns the import's result, its duration and consents counted in.
 */
export async function afterImport(userId: string, { result, consents }: ImportedRows): Promise<ImportResult> {
  const started = Date.now();
  const consentRecorded = consents ? await recordConsentsByEmail(userId, consentEntries(consents)) : 0;
  if (result.created > 0) await recordNewCustomers(userId, result.created);
  return { ...result, consentRecorded, durationMs: result.durationMs + (Date.now() - started) };
}

async function stageAndMerge(
  connection: AnyConnection,
  userId: string,
  input: Readable,
  options: ImportOptions,
): Promise<Omit<ImportResult, "durationMs"> & { consents: ImportedConsents | null }> {
  // Which columns are fields: the tenant's definitions, read before the header arrives.
  const definitions = await tenantFields(connection, userId);
  // Only the staging table is written while the file is read: the tenant's data is untouched
  // until the whole file has parsed. It is made once the header says whether rows carry extras.
  let staging: ImportStaging | undefined;
  // Set by the header (in the reader's callback, where the compiler does not look).
  let plan = null as ExtrasPlan | null;
  /** The unknown columns of a file without field or tags columns (a plan holds its own). */
  let unknownOnly: string[] = [];
  /** The consent's columns, and the good rows' consents kept, when the file has a consent column. */
  let consentColumns = undefined as ConsentColumns | undefined;
  let consents = null as ConsentKeeper | null;
  const startStaging = async () => (staging ??= await customerCsv.startStaging(connection, plan !== null));

  let mapping: ColumnMapping | undefined = options.mapping;
  let header: string[] | undefined;
  let rows = 0;
  let failed = 0;
  let staged = 0;
  const errors: ImportRowError[] = [];
  const fail = (line: number, email: string, reason: string) => {
    failed += 1;
    if (errors.length < MAX_REPORTED_ERRORS) errors.push({ line, email, reason });
  };
  const fields = CUSTOMER_FIELDS;
  // Good rows are gathered in groups of STAGE_ROWS and staged a piece of the file at a time.
  let width = STAGED_VALUES;
  let values: unknown[] = new Array(width * STAGE_ROWS);
  let waiting = 0;
  let groups: unknown[][] = [];
  const stageGroups = async () => {
    if (groups.length === 0) return;
    const full = groups;
    groups = [];
    await customerCsv.stageImportGroups(await startStaging(), full);
  };
  let lastProgress = 0;

  let bytes = 0;
  const onRecord = (record: string[], line: number) => {
    if (!header) {
      header = record.map((h) => h.trim());
      if (header.some((h) => h.includes("\u0000"))) throw refuse(NOT_CSV_TEXT);
      mapping ??= guessMapping(header);
      checkMapping(mapping, header.length);
      const extras = planExtras(header, mapping, definitions, options.createFields === true);
      consentColumns = extras.consent;
      if (consentColumns) consents = new ConsentKeeper();
      if (extras.fields.length > 0 || extras.tags !== undefined) {
        plan = extras;
        width = STAGED_VALUES + STAGED_EXTRA_VALUES;
        values = new Array(width * STAGE_ROWS);
      } else unknownOnly = extras.unknown;
      return;
    }
    rows += 1;
    if (record.length === 1 && record[0].trim() === "") return;
    const m = mapping!;
    const raw: Record<string, string> = {};
    for (const field of IMPORT_FIELDS) {
      const index = m[field];
      if (index !== undefined) raw[field] = importedCell(record[index] ?? "");
    }
    if (record.length !== header.length) {
      fail(line, raw.email ?? "", `The row has ${record.length} columns; the header has ${header.length}`);
      return;
    }
    const parsed = CustomerImportRowSchema.safeParse(raw);
    const extra = plan ? readExtras(plan, record) : null;
    const consent = consentColumns ? readConsentCells(consentColumns, record) : null;
    if (!parsed.success || (extra !== null && "reasons" in extra) || (consent !== null && "reason" in consent)) {
      const reasons = parsed.success ? [] : parsed.error.issues.map((i) => i.message);
      if (extra !== null && "reasons" in extra) reasons.push(...extra.reasons);
      if (consent !== null && "reason" in consent) reasons.push(consent.reason);
      fail(line, raw.email ?? "", [...new Set(reasons)].join("; "));
      return;
    }
    const v = parsed.data;
    if (consent !== null) consents?.keep(v.email, consent.input);
    const at = waiting * width;
    values[at] = newId();
    for (let i = 0; i < fields.length; i++) values[at + i + 1] = v[fields[i]];
    values[at + 8] = v.totalSpend ?? null;
    values[at + 9] = v.visits ?? null;
    values[at + 10] = v.lastActive ?? null;
    if (extra !== null) {
      values[at + 11] = extra.fields;
      values[at + 12] = extra.tags;
    }
    if (++waiting === STAGE_ROWS) {
      groups.push(values);
      values = new Array(width * STAGE_ROWS);
      waiting = 0;
    }
    staged += 1;
    if (staged % PROGRESS_ROWS === 0 && options.onProgress && rows - lastProgress >= 10_000) {
      lastProgress = rows;
      options.onProgress({ phase: "reading", rows, bytes });
    }
  };
  const reader = new CsvRecordReader(onRecord, MAX_RECORD_CHARS);
  // Bytes that are not UTF-8 become U+FFFD, as a spreadsheet would show them.
  const decoder = new TextDecoder("utf-8");
  // An image or a spreadsheet renamed .csv is refused by its first bytes, before its garbage
  // reaches the reader as rows.
  const sniffer = new TextSniffer();
  try {
    for await (const chunk of input as AsyncIterable<Uint8Array | string>) {
      if (typeof chunk === "string") {
        bytes += Buffer.byteLength(chunk);
        reader.push(chunk);
        await stageGroups();
      } else {
        if (!sniffer.done) {
          sniffer.push(chunk);
          if (sniffer.nul || (sniffer.done && sniffer.binary)) throw refuse(NOT_CSV_TEXT);
        }
        bytes += chunk.byteLength;
        // Decoded a piece at a time: a string over ~128 KB is born in V8's large-object space,
        // freed only by a full collection, and a file read in 1 MB chunks grew the heap by
        // 120 MB that way; pieces this size die young.
        for (let at = 0; at < chunk.byteLength; at += DECODE_PIECE_BYTES) {
          reader.push(decoder.decode(chunk.subarray(at, at + DECODE_PIECE_BYTES), { stream: true }));
          await stageGroups();
        }
      }
    }
    if (sniffer.binary) throw refuse(NOT_CSV_TEXT);
    reader.push(decoder.decode());
    reader.end();
    await stageGroups();
    await customerCsv.finishStaging(await startStaging(), values, waiting);
  } catch (error) {
    input.destroy();
    if (staging) await customerCsv.discardStaging(staging);
    throw unreadableFile(error, sniffer.binary);
  }
  if (!header) throw refuse("The file is empty: it needs a header row and at least one customer.");
  // Only a header (and perhaps empty lines): "Imported 0 customers" would read as a success.
  if (staged === 0 && failed === 0) throw refuse(NO_CUSTOMER_ROWS);
  options.onProgress?.({ phase: "reading", rows, bytes });

  // The file has parsed: the fields its unknown columns asked for are made now, before the rows
  // that hold their values are merged.
  const made = plan ? await createPlannedFields(connection, userId, plan) : { fields: [], created: [] };
  const extras: MergeExtras = {
    ...(plan ? { fields: plan.fields.length > 0, tags: plan.tags !== undefined } : NO_EXTRAS),
    defaults: defaultsJson(definitions, plan),
    createdEvents: await hasLiveFlowOn(userId, OWN_EVENTS.customerCreated),
  };
  const merged = await merge(connection, userId, mapping!, staged, options, extras);
  return {
    rows,
    imported: staged,
    created: merged.created,
    updated: staged - merged.created,
    failed,
    errors,
    errorsTruncated: failed > errors.length,
    mapping: mapping!,
    fields: made.fields,
    tags: plan?.tags !== undefined,
    consent: consentColumns !== undefined,
    consentRecorded: 0,
    unknownColumns: plan?.unknown ?? unknownOnly,
    createdFields: made.created,
    consents: consents?.kept ?? null,
  };
}

/**
 * Writes the staged rows into the tenant's customers: upserts on e-mail and indexes the new ones
 * for search, in transactions sized to take about `batchMs` each. The file has fully parsed by
 * now, so nothing can refuse it half-way; the batches keep the write lock short and let the
 * server answer other requests between them (one transaction of a million rows held both for
 * most of a minute).
 */
async function merge(
  connection: AnyConnection,
  userId: string,
  mapping: ColumnMapping,
  staged: number,
  { onProgress, mergeBatch, batchMs = 1000, pauseMs = 5, deferIndexes }: ImportOptions,
  extras: MergeExtras,
) {
  // On an update, only the columns the file has are changed (the model reads them off `mapping`);
  // the field values and tags, when the file has them, are written in the same transactions.
  const upsert = await customerCsv.prepareMerge(connection, userId, mapping, Date.now(), extras);
  const last = await customerCsv.lastStagedRow(connection);
  let created = 0;
  let size =
    mergeBatch ??
    Math.min(FIRST_MERGE_BATCH, Math.max(MIN_MERGE_BATCH, Math.round((FIRST_MERGE_BATCH * batchMs) / 1000)));
  const bulk = deferIndexes === true && (await customerCsv.isBulkLoad(connection, staged));
  const saveAll = async () => {
    for (let from = 0; from < last;) {
      const to = Math.min(last, from + size);
      const started = performance.now();
      created += await upsert.batch(from, to);
      const took = performance.now() - started;
      from = to;
      onProgress?.({ phase: "saving", saved: to, total: staged });
      // The next transaction is sized to take about batchMs at the rate just measured.
      if (mergeBatch === undefined)
        size = Math.max(MIN_MERGE_BATCH, Math.min(MAX_MERGE_BATCH, Math.round((size * batchMs) / Math.max(1, took))));
      // A timer, not setImmediate: on the thread that answers requests (the CLI aside, none does
      // any more) they get to finish their own async steps first; off it, other writers get the
      // lock (pauseMs).
      if (!bulk) await new Promise<void>((resolve) => setTimeout(resolve, pauseMs));
    }
  };
  try {
    // In a bulk load the batches are savepoints of one transaction, sized as before.
    if (bulk) await customerCsv.withIndexesDeferred(connection, saveAll, () => onProgress?.({ phase: "indexing" }));
    else await saveAll();
  } finally {
    await customerCsv.clearStagedRows(connection);
  }
  return { created };
}

/** The bad rows as a CSV the user can download: line, email, reason. */
export function errorReportCsv(errors: readonly ImportRowError[]): string {
  return csvText([["line", "email", "reason"], ...errors.map((e) => [e.line, e.email, e.reason])]);
}
