// The CSV columns a customer import understands, and the guess from a header row of which column
// holds which field. Shared by the import screen (preview and mapping in the browser) and the
// import engine on the server.
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
  address: ["address", "streetaddress", "location", "city"],
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
