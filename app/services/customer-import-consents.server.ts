// The consent columns of a customer CSV import (CONSENT_COLUMNS of ~/lib/customer-csv): each
// row's cells checked as /api checks a consent, the good rows' consents kept compactly while the
// file is read, and handed back one e-mail at a time for the consent service to record once the
// customers are saved (~/services/customer-import.server's afterImport()).
import { importedCell } from "~/lib/csv-cells";
import { CONSENT_STATUSES, consentStatusOf } from "~/lib/consent";
import { CONSENT_COLUMNS, type ConsentColumns } from "~/lib/customer-csv";
import { ConsentCellsSchema, type ConsentInput } from "~/schemas/consent";
import type { ConsentByEmail } from "~/services/consent.server";

/**
 * The consents of a file's good rows (a non-blank consent cell), in file order, kept until the
 * customers are saved: each row's e-mail, status (its index in CONSENT_STATUSES), date (NaN: none
 * given) and the indexes in `strings` of its source and text. A file's rows share a handful of
 * sources and texts, each kept (and copied to another thread) once: about 100 bytes a row.
 */
export type ImportedConsents = {
  strings: string[];
  emails: string[];
  statuses: number[];
  ats: number[];
  sources: number[];
  texts: number[];
};

/**
 * The kept consents one row at a time, as the consent service records them: of several rows of one
 * e-mail only the last, so an earlier "unsubscribed" row does not suppress an address the file ends
 * up subscribing.
 */
export function* consentEntries(kept: ImportedConsents): Generator<ConsentByEmail> {
  const superseded = new Uint8Array(kept.emails.length);
  const later = new Set<string>();
  for (let i = kept.emails.length - 1; i >= 0; i--) {
    if (later.has(kept.emails[i])) superseded[i] = 1;
    else later.add(kept.emails[i]);
  }
  later.clear();
  for (let i = 0; i < kept.emails.length; i++) {
    if (superseded[i]) continue;
    const at = kept.ats[i];
    yield {
      email: kept.emails[i],
      input: {
        status: CONSENT_STATUSES[kept.statuses[i]],
        ...(Number.isNaN(at) ? {} : { at: new Date(at) }),
        source: kept.strings[kept.sources[i]],
        text: kept.strings[kept.texts[i]],
      },
    };
  }
}

/** Keeps the good rows' consents (ImportedConsents) as the file is read. */
export class ConsentKeeper {
  readonly kept: ImportedConsents = { strings: [], emails: [], statuses: [], ats: [], sources: [], texts: [] };
  private readonly stringIndex = new Map<string, number>();

  keep(email: string, input: ConsentInput) {
    const k = this.kept;
    k.emails.push(email);
    k.statuses.push(CONSENT_STATUSES.indexOf(input.status));
    k.ats.push(input.at ? input.at.getTime() : Number.NaN);
    k.sources.push(this.stringAt(input.source ?? ""));
    k.texts.push(this.stringAt(input.text ?? ""));
  }

  private stringAt(text: string): number {
    let index = this.stringIndex.get(text);
    if (index === undefined) {
      index = this.kept.strings.push(text) - 1;
      this.stringIndex.set(text, index);
    }
    return index;
  }
}

/** Why a row with a consent date, source or text but no status is a bad row. */
export const CONSENT_STATUS_MISSING = `${CONSENT_COLUMNS.status} is empty, but the row has a ${CONSENT_COLUMNS.at}, ${CONSENT_COLUMNS.source} or ${CONSENT_COLUMNS.text}`;

/**
 * A row's consent cells, checked as /api checks a consent (the status also as its label, "Never
 * asked", any case): the consent, null when the status cell is blank (the customer's stays as it
 * is), or why the row is bad, naming the columns.
 */
export function readConsentCells(
  columns: ConsentColumns,
  record: readonly string[],
): { input: ConsentInput } | { reason: string } | null {
  const cell = (index: number | undefined) => (index === undefined ? "" : importedCell(record[index] ?? "").trim());
  const status = cell(columns.status);
  const [at, source, text] = [cell(columns.at), cell(columns.source), cell(columns.text)];
  if (status === "") return at || source || text ? { reason: CONSENT_STATUS_MISSING } : null;
  const parsed = ConsentCellsSchema.safeParse({
    status: consentStatusOf(status),
    ...(at ? { at } : {}),
    ...(source ? { source } : {}),
    ...(text ? { text } : {}),
  });
  if (!parsed.success) return { reason: [...new Set(parsed.error.issues.map((i) => i.message))].join("; ") };
  return { input: parsed.data };
}
