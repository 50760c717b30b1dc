// The CSV columns a customer import understands, and the guess from a header row of which column
// holds which field. Shared by the import screen (preview and mapping in the browser) and the
// import engine on the server.
//
// After the customer's own columns come the extra ones (extraColumns()): a column named for one of
// the tenant's fields (its name or its label, any case) holds that field's values, a `tags` column
// the customer's tags, `consent` with `consentDate`, `consentSource` and `consentText` the
// customer's marketing consent, and the export's own `id` and `createdAt` are passed over; any
// other column is unknown, reported, and can be made a text field.
export const IMPORT_FIELDS = [
  "firstName",
  "lastName",
  "email",
  "phone",
  "address",
  "company",
  "notes",
  "totalSpend",
  "visits",
  "lastActive",
] as const;
export type ImportField = (typeof IMPORT_FIELDS)[number];
export const REQUIRED_IMPORT_FIELDS = ["firstName", "lastName", "email"] as const satisfies readonly ImportField[];

/** Field → 0-based column index. */
export type ColumnMapping = Partial<Record<ImportField, number>>;

const LABELS: Record<ImportField, string> = {
  firstName: "First Name",
  lastName: "Last Name",
  email: "Email",
  phone: "Phone",
  address: "Address",
  company: "Company",
  notes: "Notes",
  totalSpend: "Total Spend (₹)",
  visits: "Visits",
  lastActive: "Last Active",
};

export function importFieldLabel(field: ImportField): string {
  return LABELS[field];
}

/** Header spellings each field answers to, compared without case, spaces, dashes or underscores. */
const ALIASES: Record<ImportField, string[]> = {
  firstName: ["firstname", "first", "fname", "givenname", "forename"],
  lastName: ["lastname", "last", "lname", "surname", "familyname"],
  email: ["email", "emailaddress", "mail", "emailid"],
  phone: ["phone", "phonenumber", "mobile", "mobilenumber", "mobileno", "contactnumber", "tel", "telephone", "contact"],
  // Not "city": a city column is the built-in city field's.
  address: ["address", "streetaddress", "location"],
  company: ["company", "companyname", "organisation", "organization", "business"],
  notes: ["notes", "note", "comments", "comment", "remarks"],
  totalSpend: ["totalspend", "spend", "totalspent", "lifetimevalue", "ltv", "revenue", "totalspendinr", "totalspendrs"],
  visits: ["visits", "visitcount", "ordercount", "orders", "numberofvisits"],
  lastActive: ["lastactive", "lastactivedate", "lastseen", "lastvisit", "lastorder", "lastactiveat"],
};

export function normaliseHeader(name: string): string {
  return name.toLowerCase().replace(/[^a-z0-9]/g, "");
}

/** Guesses the mapping from the header: exact alias first; each column is used once. */
export function guessMapping(header: readonly string[]): ColumnMapping {
  const mapping: ColumnMapping = {};
  const used = new Set<number>();
  const names = header.map(normaliseHeader);
  for (const field of IMPORT_FIELDS) {
    const index = names.findIndex((n, i) => !used.has(i) && ALIASES[field].includes(n));
    if (index >= 0) {
      mapping[field] = index;
      used.add(index);
    }
  }
  return mapping;
}

/** Reads a mapping from form fields named map.<field> holding a column index ("" = not imported). */
export function mappingFromForm(get: (name: string) => string | null | undefined): ColumnMapping | undefined {
  let any = false;
  const mapping: ColumnMapping = {};
  for (const field of IMPORT_FIELDS) {
    const value = get(`map.${field}`);
    if (value === null || value === undefined) continue;
    any = true;
    if (value === "") continue;
    const n = Number(value);
    if (Number.isInteger(n) && n >= 0 && n < 10_000) mapping[field] = n;
  }
  return any ? mapping : undefined;
}

export function missingRequired(mapping: ColumnMapping): ImportField[] {
  return REQUIRED_IMPORT_FIELDS.filter((f) => mapping[f] === undefined);
}

// ---------------------------------------------------------------------------------------------
// The extra columns: fields and tags

/** The column of a customer's tags, `;`-separated (~/lib/tags). */
export const TAGS_COLUMN = "tags";

/**
 * The consent's columns, as the export heads them (after `tags`): the status (subscribed,
 * unsubscribed or never_asked), its date, where it came from and the text agreed to. An import
 * knows them in any case and spelling ("Consent date", "consent_date"); the last three only beside
 * a `consent` column (without one they are headers like any other).
 */
export const CONSENT_COLUMNS = {
  status: "consent",
  at: "consentDate",
  source: "consentSource",
  text: "consentText",
} as const;
export type ConsentPart = keyof typeof CONSENT_COLUMNS;

/** The file's consent columns: the status column, and the others it has. */
export type ConsentColumns = { status: number } & Partial<Record<Exclude<ConsentPart, "status">, number>>;

/**
 * The export's columns an import passes over: the customer's id and the date added (an import
 * matches on e-mail, and a customer it adds is added now).
 */
export const EXPORT_ONLY_COLUMNS = ["id", "createdAt"] as const;

/** A field as the columns are matched to it (a FieldDefinition of ~/lib/custom-fields is one). */
export type CsvField = { name: string; label: string; retired: boolean };

/** The file's columns besides the customer's own. */
export type ExtraColumns<F extends CsvField> = {
  /** Each column that holds a field's values (the first column of a field; a retired field has none). */
  fields: { index: number; field: F }[];
  /** The tags column, if the file has one. */
  tags: number | undefined;
  /** The consent columns, if the file has a `consent` column. */
  consent: ConsentColumns | undefined;
  /** The columns nothing reads (not blank ones), in file order. */
  unknown: { index: number; header: string }[];
};

const skipped = new Set(EXPORT_ONLY_COLUMNS.map(normaliseHeader));

const CONSENT_PARTS = new Map(
  Object.entries(CONSENT_COLUMNS).map(([part, header]) => [normaliseHeader(header), part as ConsentPart]),
);

/**
 * Sorts the columns `mapping` leaves out: `tags` is the tags column; `consent` and its date,
 * source and text columns (any case and spelling; the others only beside `consent`) are the
 * consent's, whatever field is labelled so; the export's `id` and `createdAt` are passed over; a
 * header that is a field's name or label (any case, the ends trimmed) is that field's column; the
 * rest are unknown.
 */
export function extraColumns<F extends CsvField>(
  header: readonly string[],
  mapping: ColumnMapping,
  fields: readonly F[],
): ExtraColumns<F> {
  const byHeader = new Map<string, F>();
  const live = fields.filter((f) => !f.retired);
  for (const field of live) byHeader.set(field.label.trim().toLowerCase(), field);
  // A name wins over another field's label.
  for (const field of live) byHeader.set(field.name, field);
  const mapped = new Set(Object.values(mapping));
  const extra: ExtraColumns<F> = { fields: [], tags: undefined, consent: undefined, unknown: [] };
  const taken = new Set<string>();
  // The consent's columns by part, the first of each, when the file has a status column; without
  // one, its date, source or text headers are like any other.
  const partOf = (i: number) => (mapped.has(i) ? undefined : CONSENT_PARTS.get(normaliseHeader(header[i].trim())));
  const withConsent = header.some((_, i) => partOf(i) === "status");
  const consent: Partial<Record<ConsentPart, number>> = {};
  header.forEach((raw, index) => {
    if (mapped.has(index)) return;
    const text = raw.trim();
    const key = text.toLowerCase();
    if (key === "") return;
    if (key === TAGS_COLUMN && extra.tags === undefined) {
      extra.tags = index;
      return;
    }
    // Before the fields, as the export's own columns are: a field labelled "Consent date" or "ID"
    // must not take them.
    const part = withConsent ? partOf(index) : undefined;
    if (part !== undefined && consent[part] === undefined) {
      consent[part] = index;
      return;
    }
    if (skipped.has(normaliseHeader(text))) return;
    const field = byHeader.get(key);
    if (field && !taken.has(field.name)) {
      taken.add(field.name);
      extra.fields.push({ index, field });
      return;
    }
    extra.unknown.push({ index, header: text });
  });
  if (consent.status !== undefined) extra.consent = { ...consent, status: consent.status };
  return extra;
}
