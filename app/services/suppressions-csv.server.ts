// The tenant's suppression list in CSV: the import (another tool's export read as it comes — its
// address, reason and campaign columns found by their headers, its reasons' words read as one of
// ours) and the export (which imports back). The list itself: suppressions.server.ts.
import { Readable } from "node:stream";
import { isBodyTooLarge } from "~/lib/api.server";
import { csvText, importedCell } from "~/lib/csv-cells";
import { normaliseHeader } from "~/lib/customer-csv";
import { CsvRecordReader, NOT_CSV_TEXT, TextSniffer } from "~/lib/csv-records";
import { DEFAULT_TIME_ZONE, isoInZone } from "~/lib/dates";
import { SUPPRESSION_REASONS, type NewSuppression, type SuppressionReason } from "~/models/suppressions/rows";
import { suppressions } from "~/models/suppressions/store.server";
import { refuse, unreadableFile } from "~/services/csv-file-refusals.server";
import { errorReportCsv, type ImportRowError } from "~/services/customer-import.server";
import { REASON_LABELS, SuppressionEmailSchema } from "~/services/suppressions.server";

/** The most data rows one CSV import may hold (every good address is kept in memory until the file has parsed). */
export const MAX_IMPORT_ROWS = 1_000_000;
/** At most this many bad rows of an import are listed (all are counted). */
export const MAX_REPORTED_ERRORS = 1_000;
const MAX_RECORD_CHARS = 100_000;
const DECODE_PIECE_BYTES = 64 * 1024;
const EXPORT_SLICE = 5000;

/** The export's columns (an export imports back: the import reads email, reason and campaign). */
export const SUPPRESSION_EXPORT_COLUMNS = ["email", "reason", "campaign", "created_at"] as const;

/** Header names (compared without case, spaces, dashes or underscores) of the address column: listmonk's, Mailchimp's and the like. */
const EMAIL_HEADERS = ["email", "emailaddress", "mail", "emailid", "emails", "subscriberemail", "emailaddr"];
/**
 * Headers of the reason column, in order of preference: ours, Mailchimp's `UNSUB_REASON`, Brevo's
 * blocklist reason, Postmark's and SES's `Reason`, SendGrid's bounce `reason`, Mailgun's `error`,
 * listmonk's `status`.
 */
const REASON_HEADERS = [
  "reason",
  "suppressionreason",
  "unsubreason",
  "blocklistreason",
  "blacklistreason",
  "bouncereason",
  "error",
  "status",
];
/** A free text beside the reason: Mailchimp's `UNSUB_REASON_OTHER` (when its reason is "Other"). */
const REASON_OTHER_HEADERS = ["unsubreasonother"];
const CAMPAIGN_HEADERS = ["campaign", "campaignname", "sourcecampaign", "unsubcampaigntitle", "cleancampaigntitle"];
/** Most characters of a source's reason kept in an entry's details. */
const MAX_SOURCE_REASON_CHARS = 500;

/** The column whose header is the first of `aliases` found (in their order), or -1. */
function columnOf(names: readonly string[], aliases: readonly string[]): number {
  for (const alias of aliases) {
    const index = names.indexOf(alias);
    if (index >= 0) return index;
  }
  return -1;
}

const REASON_ALIASES: Record<string, SuppressionReason> = {
  unsubscribe: "unsubscribed",
  optout: "unsubscribed",
  optedout: "unsubscribed",
  bounce: "hard-bounced",
  bounced: "hard-bounced",
  hardbounce: "hard-bounced",
  cleaned: "hard-bounced",
  softbounce: "soft-bounced",
  softbounced: "soft-bounced",
  complaint: "complained",
  spam: "complained",
  spamcomplaint: "complained",
  abuse: "complained",
  blocklisted: "manual",
  manualsuppression: "manual",
};

/** A reason's name, label or alias as the cell gives it (any case), or null for any other text. */
function namedReason(text: string): SuppressionReason | null {
  const key = normaliseHeader(text);
  if (key === "") return null;
  for (const reason of SUPPRESSION_REASONS) {
    if (normaliseHeader(reason) === key || normaliseHeader(REASON_LABELS[reason]) === key) return reason;
  }
  return REASON_ALIASES[key] ?? null;
}

/**
 * A reason cell as the import reads it: a reason's name, its label or a common alias (any case);
 * else what its words say (another tool's sentence: "I no longer want to receive these emails" is
 * an unsubscribe, "550 5.1.1 user unknown" a hard bounce, "Marked as spam" a complaint); anything
 * else is `fallback` ("manual" unless the file says what kind of list it is).
 */
export function reasonFromText(text: string, fallback: SuppressionReason = "manual"): SuppressionReason {
  const named = namedReason(text);
  if (named) return named;
  if (/unsubscri|opt(ed)?[\s-]?out|no longer want|never signed up/i.test(text)) return "unsubscribed";
  if (/spam|complain|abuse|inappropriate/i.test(text)) return "complained";
  if (/soft[\s-]?bounce|mailbox (is )?full|\b4\.\d{1,3}\.\d{1,3}\b/i.test(text)) return "soft-bounced";
  if (
    /bounce|\b5\.\d{1,3}\.\d{1,3}\b|\b55[0-4]\b|does ?n[o']t exist|no such user|user unknown|unknown user|invalid (e-?mail|address|recipient)|mailbox unavailable/i.test(
      text,
    )
  )
    return "hard-bounced";
  return fallback;
}

/**
 * What kind of list a file is by its headers: Mailchimp's export of unsubscribed contacts has
 * `UNSUB_*` columns (every row unsubscribed, whatever its reason says), its cleaned contacts
 * `CLEAN_*` columns (hard bounces). Null for any other file.
 */
function listKindOf(names: readonly string[]): SuppressionReason | null {
  if (names.some((n) => n.startsWith("unsub"))) return "unsubscribed";
  if (names.some((n) => n.startsWith("clean"))) return "hard-bounced";
  return null;
}

/**
 * An imported entry's details: IMPORTED_DETAILS, and after it the source's own reason when it says
 * more than a reason's name ("Imported from CSV: I no longer want to receive these emails").
 */
export function importedDetails(sourceReason: string, other = ""): string {
  const said = [sourceReason, other]
    .map((t) => importedCell(t).trim().replace(/\s+/g, " "))
    .filter((t) => t !== "" && namedReason(t) === null);
  if (said.length === 0) return IMPORTED_DETAILS;
  return `${IMPORTED_DETAILS}: ${said.join(" — ")}`.slice(0, IMPORTED_DETAILS.length + 2 + MAX_SOURCE_REASON_CHARS);
}

/** What an imported entry's details say. */
export const IMPORTED_DETAILS = "Imported from CSV";

/** A bad row of an import: the customer import's shape, so both share one error report. */
export type SuppressionImportRowError = ImportRowError;

export type SuppressionImportResult = {
  /** Data rows read (the header and empty lines excluded). */
  rows: number;
  added: number;
  alreadySuppressed: number;
  /** Rows repeating an address an earlier row of the file gave. */
  duplicates: number;
  invalid: number;
  errors: SuppressionImportRowError[];
  errorsTruncated: boolean;
  durationMs: number;
};

export type SuppressionImportProgress =
  /** Rows read so far and the bytes of the file parsed so far. */
  { phase: "reading"; rows: number; bytes: number } | { phase: "saving"; saved: number; total: number };

function toInput(source: AsyncIterable<Uint8Array | string> | Readable | string): AsyncIterable<Uint8Array | string> {
  if (typeof source === "string") return Readable.from([source]);
  return source;
}

/**
 * Reads a CSV file of addresses (a header row naming the address column: "email", "Email
 * Address", …; an optional reason and campaign column) and suppresses every good address. The
 * whole file is read before anything is written, so a malformed file (not CSV, no address column,
 * too many rows) is refused with a 422 and changes nothing; bad rows are reported with their line
 * and the good ones kept.
 */
export async function importSuppressionsCsv(
  userId: string,
  source: AsyncIterable<Uint8Array | string> | Readable | string,
  options: { onProgress?: (progress: SuppressionImportProgress) => void } = {},
): Promise<SuppressionImportResult> {
  const started = Date.now();
  const input = toInput(source);
  let header: string[] | undefined;
  let emailColumn = -1;
  let reasonColumn = -1;
  let reasonOtherColumn = -1;
  let campaignColumn = -1;
  let listKind: SuppressionReason | null = null;
  let rows = 0;
  let bytes = 0;
  let invalid = 0;
  let duplicates = 0;
  const errors: SuppressionImportRowError[] = [];
  const entries = new Map<string, NewSuppression>();
  const fail = (line: number, email: string, reason: string) => {
    invalid += 1;
    if (errors.length < MAX_REPORTED_ERRORS) errors.push({ line, email, reason });
  };

  const onRecord = (record: string[], line: number) => {
    if (!header) {
      header = record.map((h) => h.trim());
      if (header.some((h) => h.includes("\u0000"))) throw refuse(NOT_CSV_TEXT);
      const names = header.map(normaliseHeader);
      emailColumn = columnOf(names, EMAIL_HEADERS);
      reasonColumn = columnOf(names, REASON_HEADERS);
      reasonOtherColumn = columnOf(names, REASON_OTHER_HEADERS);
      campaignColumn = columnOf(names, CAMPAIGN_HEADERS);
      listKind = listKindOf(names);
      if (emailColumn < 0) {
        const looksLikeAddress = header.find((h) => SuppressionEmailSchema.safeParse(h).success);
        throw refuse(
          looksLikeAddress
            ? `The first row must be a header naming the address column ("email"), but it holds an address (${looksLikeAddress}). Add a header row "email" at the top and try again.`
            : `The file has no email column. Name the column of addresses "email" (or "Email Address") in the header row and try again.`,
        );
      }
      return;
    }
    if (record.length === 1 && record[0].trim() === "") return;
    rows += 1;
    if (rows > MAX_IMPORT_ROWS)
      throw refuse(
        `The file has more than ${MAX_IMPORT_ROWS.toLocaleString("en-IN")} rows. Split it into smaller files and import them one after another.`,
      );
    if (rows % 10_000 === 0) options.onProgress?.({ phase: "reading", rows, bytes });
    const raw = importedCell(record[emailColumn] ?? "").trim();
    if (raw === "") {
      fail(line, "", "The email is empty");
      return;
    }
    const parsed = SuppressionEmailSchema.safeParse(raw);
    if (!parsed.success) {
      fail(line, raw, [...new Set(parsed.error.issues.map((i) => i.message))].join("; "));
      return;
    }
    const email = parsed.data;
    if (entries.has(email)) {
      duplicates += 1;
      return;
    }
    // The source's reason is kept: as the entry's reason (a list of unsubscribes is unsubscribed
    // whatever the words), and in its words in the details.
    const said = reasonColumn >= 0 ? (record[reasonColumn] ?? "") : "";
    const reason = listKind ?? reasonFromText(said);
    const campaignName =
      campaignColumn >= 0
        ? importedCell(record[campaignColumn] ?? "")
            .trim()
            .replace(/\s+/g, " ")
            .slice(0, 200)
        : "";
    const other = reasonOtherColumn >= 0 ? (record[reasonOtherColumn] ?? "") : "";
    entries.set(email, { email, reason, campaignName, details: importedDetails(said, other) });
  };

  const reader = new CsvRecordReader(onRecord, MAX_RECORD_CHARS);
  const decoder = new TextDecoder("utf-8");
  const sniffer = new TextSniffer();
  try {
    for await (const chunk of input) {
      if (typeof chunk === "string") {
        bytes += Buffer.byteLength(chunk);
        reader.push(chunk);
        continue;
      }
      bytes += chunk.byteLength;
      if (!sniffer.done) {
        sniffer.push(chunk);
        if (sniffer.nul || (sniffer.done && sniffer.binary)) throw refuse(NOT_CSV_TEXT);
      }
      for (let at = 0; at < chunk.byteLength; at += DECODE_PIECE_BYTES)
        reader.push(decoder.decode(chunk.subarray(at, at + DECODE_PIECE_BYTES), { stream: true }));
    }
    if (sniffer.binary) throw refuse(NOT_CSV_TEXT);
    reader.push(decoder.decode());
    reader.end();
  } catch (error) {
    if (input instanceof Readable) input.destroy();
    // The server cut a body over its limit: withApi answers the 413.
    if (isBodyTooLarge(error)) throw error;
    throw unreadableFile(error, sniffer.binary);
  }
  if (!header) throw refuse('The file is empty: it needs a header row ("email") and at least one address.');
  if (rows === 0) throw refuse('The file has no addresses: it needs a header row ("email") and at least one address.');
  options.onProgress?.({ phase: "reading", rows, bytes });

  const list = [...entries.values()];
  let added = 0;
  const SLICE = 10_000;
  for (let i = 0; i < list.length; i += SLICE) {
    added += (await suppressions.addSuppressions(userId, list.slice(i, i + SLICE))).length;
    options.onProgress?.({ phase: "saving", saved: Math.min(list.length, i + SLICE), total: list.length });
  }
  return {
    rows,
    added,
    alreadySuppressed: list.length - added,
    duplicates,
    invalid,
    errors,
    errorsTruncated: invalid > errors.length,
    durationMs: Date.now() - started,
  };
}

/** The bad rows of an import as a CSV the user can download: line, email, reason (the customer import's report). */
export const suppressionErrorReportCsv: (errors: readonly SuppressionImportRowError[]) => string = errorReportCsv;

/**
 * The tenant's whole list as a CSV byte stream (email, reason, campaign, created_at), by address,
 * a slice at a time. Dates are ISO 8601 with the offset of `timeZone` (the viewer's).
 */
export function exportSuppressionsCsv(
  userId: string,
  options: { timeZone?: string; sliceSize?: number } = {},
): ReadableStream<Uint8Array> {
  const timeZone = options.timeZone ?? DEFAULT_TIME_ZONE;
  const slice = options.sliceSize ?? EXPORT_SLICE;
  const encoder = new TextEncoder();
  let after = "";
  let headerSent = false;
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        let chunk = "";
        if (!headerSent) {
          chunk += csvText([[...SUPPRESSION_EXPORT_COLUMNS]]);
          headerSent = true;
        }
        const rows = await suppressions.suppressionsAfter(userId, after, slice);
        if (rows.length) {
          chunk += csvText(rows.map((r) => [r.email, r.reason, r.campaignName, isoInZone(r.createdAt, timeZone)]));
          after = rows[rows.length - 1].email;
        }
        if (chunk) controller.enqueue(encoder.encode(chunk));
        if (rows.length < slice) controller.close();
      } catch (error) {
        controller.error(error);
      }
    },
  });
}

/** A file name for an export: suppressions-2024-05-31.csv. */
export function suppressionsExportFileName(now = new Date()): string {
  return `suppressions-${now.toISOString().slice(0, 10)}.csv`;
}
