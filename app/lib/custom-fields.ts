// Customer fields beyond the fixed record (docs/decisions/0041-custom-fields-and-tags.md),
// isomorphic: the built-in fields every tenant has (city, state, country, birthday, time zone), the
// rules of a field a tenant defines (name, label, type, choices, default), and how one value of a
// field is read from a form, a CSV cell or /api and stored: one canonical text, the key conditions
// compare, and the number they compare. The same rules serve the form, /api, the CSV import, the
// segments and the merge tags.
import { canonicalTimeZone, isCalendarDate } from "~/lib/dates";
import { numericValue } from "~/lib/numbers";

export const FIELD_TYPES = ["text", "number", "date", "boolean", "choice"] as const;
export type FieldType = (typeof FIELD_TYPES)[number];

export const FIELD_TYPE_LABELS: Record<FieldType, string> = {
  text: "Text",
  number: "Number",
  date: "Date",
  boolean: "Yes/no",
  choice: "One of a list",
};

/** A field's name: the key of its values in /api, CSV headers, segments and merge tags. */
export const FIELD_NAME_PATTERN = /^[a-z][a-z0-9_]{0,39}$/;
export const FIELD_NAME_MESSAGE =
  "The name must start with a lowercase letter and use only lowercase letters, digits and _ (at most 40 characters)";
export const MAX_FIELD_LABEL = 80;
export const MAX_CHOICES = 100;
export const MAX_CHOICE_LENGTH = 100;
/** A text value's longest form; longer is refused, not cut. */
export const MAX_TEXT_VALUE = 500;
/** The most fields a tenant may define (the customer form and the CSV stay usable). */
export const MAX_CUSTOM_FIELDS = 100;

/** A field as the product uses it: a built-in one, or one the tenant defined. */
export type FieldDefinition = {
  name: string;
  label: string;
  type: FieldType;
  /** A choice field's choices, in order; empty for other types. */
  choices: string[];
  /** The canonical value a new customer gets when a create leaves the field out. */
  defaultValue: string | null;
  builtIn: boolean;
  /** Retired: kept with its values, left off forms and new segments. */
  retired: boolean;
};

/** The built-in fields, in the order the customer form shows them. */
export const BUILT_IN_FIELDS: readonly FieldDefinition[] = [
  { name: "city", label: "City", type: "text", choices: [], defaultValue: null, builtIn: true, retired: false },
  { name: "state", label: "State", type: "text", choices: [], defaultValue: null, builtIn: true, retired: false },
  { name: "country", label: "Country", type: "text", choices: [], defaultValue: null, builtIn: true, retired: false },
  { name: "birthday", label: "Birthday", type: "date", choices: [], defaultValue: null, builtIn: true, retired: false },
  {
    name: "time_zone",
    label: "Time zone",
    type: "text",
    choices: [],
    defaultValue: null,
    builtIn: true,
    retired: false,
  },
];

const BUILT_IN_NAMES = new Set(BUILT_IN_FIELDS.map((f) => f.name));

/**
 * Names a tenant's field may not take: the built-in fields, and the customer's own columns as the
 * CSV and the merge tags name them (a field "email" would shadow the address).
 */
const RESERVED_NAMES = new Set([
  ...BUILT_IN_NAMES,
  "id",
  "first_name",
  "firstname",
  "last_name",
  "lastname",
  "name",
  "email",
  "phone",
  "address",
  "company",
  "notes",
  "total_spend",
  "totalspend",
  "visits",
  "last_active",
  "lastactive",
  "created_at",
  "tags",
  "consent",
  "consent_date",
  "consentdate",
  "consent_source",
  "consentsource",
  "consent_text",
  "consenttext",
]);

export function isBuiltInField(name: string): boolean {
  return BUILT_IN_NAMES.has(name);
}

/** Why a new field's name is refused, or null. */
export function fieldNameProblem(name: string): string | null {
  if (!FIELD_NAME_PATTERN.test(name)) return FIELD_NAME_MESSAGE;
  if (RESERVED_NAMES.has(name)) return `"${name}" is a built-in name; choose another`;
  return null;
}

export function isFieldType(value: unknown): value is FieldType {
  return typeof value === "string" && (FIELD_TYPES as readonly string[]).includes(value);
}

/** A field's name from a header or a label: "Loyalty tier" → "loyalty_tier"; null when none can be made. */
export function fieldNameFrom(text: string): string | null {
  const name = text
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "_")
    .replace(/^[^a-z]+/, "")
    .replace(/_+$/, "")
    .slice(0, 40)
    .replace(/_+$/, "");
  return FIELD_NAME_PATTERN.test(name) ? name : null;
}

// ---------------------------------------------------------------------------------------------
// Values

/** One value as stored: the canonical text, the key text conditions compare, the number number conditions compare. */
export type StoredValue = { value: string; textKey: string | null; numberValue: number | null };

export type ValueResult = { ok: true; value: StoredValue | null } | { ok: false; message: string };

/** A date's month and day as MMDD (1 January is 101, 31 December 1231): what an anniversary compares. */
export function monthDay(date: string): number {
  return Number(date.slice(5, 7)) * 100 + Number(date.slice(8, 10));
}

/** The key a text or choice value is compared by: trimmed, lower-cased (conditions ignore case). */
export function textKeyOf(value: string): string {
  return value.trim().toLowerCase();
}

const YES = new Set(["true", "yes", "y", "1"]);
const NO = new Set(["false", "no", "n", "0"]);

/**
 * One value of a field from outside (a form's text, a CSV cell, a JSON value of /api), checked
 * against the field's type. An empty text or null clears the value (`value: null`). The message
 * says what is wrong in the user's words, without the field's label (the caller names it).
 */
export function readFieldValue(field: FieldDefinition, raw: unknown): ValueResult {
  if (raw === null || raw === undefined) return { ok: true, value: null };
  if (typeof raw === "string" && raw.trim() === "") return { ok: true, value: null };
  switch (field.type) {
    case "text": {
      if (typeof raw !== "string") return { ok: false, message: "must be text" };
      const value = raw.trim();
      if (value.length > MAX_TEXT_VALUE) return { ok: false, message: `must be at most ${MAX_TEXT_VALUE} characters` };
      if (/[\r\n]/.test(value)) return { ok: false, message: "must be one line" };
      if (field.name === "time_zone" && canonicalTimeZone(value) === null) {
        return { ok: false, message: "must be a time zone name like Asia/Kolkata" };
      }
      return { ok: true, value: { value, textKey: textKeyOf(value), numberValue: null } };
    }
    case "number": {
      const n = numericValue(raw);
      if (n === null || Math.abs(n) > 1e15) return { ok: false, message: "must be a number" };
      return { ok: true, value: { value: String(n), textKey: null, numberValue: n } };
    }
    case "date": {
      if (typeof raw !== "string") return { ok: false, message: "must be a date like 2024-05-31" };
      // A date-time (2024-05-31T10:00:00Z, as some exports write dates) is its calendar date.
      const text = raw.trim();
      const value = /^\d{4}-\d{2}-\d{2}T/.test(text) ? text.slice(0, 10) : text;
      if (!isCalendarDate(value)) return { ok: false, message: "must be a date like 2024-05-31" };
      return { ok: true, value: { value, textKey: value, numberValue: monthDay(value) } };
    }
    case "boolean": {
      const text = typeof raw === "boolean" ? String(raw) : typeof raw === "string" ? raw.trim().toLowerCase() : "";
      const yes = YES.has(text);
      if (!yes && !NO.has(text)) return { ok: false, message: "must be yes or no (true or false)" };
      const value = yes ? "true" : "false";
      return { ok: true, value: { value, textKey: value, numberValue: null } };
    }
    case "choice": {
      if (typeof raw !== "string") return { ok: false, message: `must be one of: ${field.choices.join(", ")}` };
      const key = textKeyOf(raw);
      const choice = field.choices.find((c) => textKeyOf(c) === key);
      if (choice === undefined) return { ok: false, message: `must be one of: ${field.choices.join(", ")}` };
      return { ok: true, value: { value: choice, textKey: key, numberValue: null } };
    }
  }
}

/** A stored value as /api gives it: a number, true/false, or the text (dates as YYYY-MM-DD). */
export function apiFieldValue(type: FieldType, value: string): string | number | boolean {
  if (type === "number") return Number(value);
  if (type === "boolean") return value === "true";
  return value;
}

/** A stored value as a screen shows it: Yes/No for yes/no, numbers in Indian grouping, the rest as stored. */
export function displayFieldValue(type: FieldType, value: string): string {
  if (type === "boolean") return value === "true" ? "Yes" : "No";
  if (type === "number") return Number(value).toLocaleString("en-IN", { maximumFractionDigits: 6 });
  return value;
}

/** The customer's values by field name, as /api gives them and forms fill from them. */
export type FieldValues = Record<string, string | number | boolean>;
