// The tenant's suppression list as the screens, /api and the CLI use it: listing, adding by hand,
// resubscribing and one address's entry, over the list kept by app/models/suppressions/ (the CSV
// import and export: suppressions-csv.server.ts). Addresses are checked as a customer's e-mail is
// (CustomerFormSchema in app/schemas/customer.ts), trimmed, lower-cased and de-duplicated; bad
// ones are named in the message.
import { z } from "zod";
import { ApiError } from "~/lib/api.server";
import { SUPPRESSION_REASONS, type SuppressionReason, type SuppressionRow } from "~/models/suppressions/rows";
import { suppressions } from "~/models/suppressions/store.server";
import { REASON_CHIPS } from "~/lib/suppression-texts";
import { CustomerFormSchema } from "~/schemas/customer";
import { badAddressesMessage } from "~/schemas/suppression-form";

export { SUPPRESSION_REASONS, type SuppressionReason };

/** How each reason reads on screen (one table, app/lib/suppression-texts.ts). */
export const REASON_LABELS = REASON_CHIPS;

export type SuppressionDto = {
  email: string;
  reason: SuppressionReason;
  campaignId: string | null;
  campaignName: string;
  details: string;
  /** ISO 8601 (UTC). */
  createdAt: string;
};

export type SuppressionsPage = { items: SuppressionDto[]; total: number; page: number; pageSize: number };

/** The most addresses one request (the API's POST, the screen's form) may add. */
export const MAX_EMAILS_PER_REQUEST = 10_000;

/** One address, checked as a customer's is: trimmed, at most 254 characters, a valid address, lower case. */
export const SuppressionEmailSchema = CustomerFormSchema.shape.email;

export function toSuppressionDto(row: SuppressionRow): SuppressionDto {
  return {
    email: row.email,
    reason: row.reason,
    campaignId: row.campaignId,
    campaignName: row.campaignName,
    details: row.details,
    createdAt: row.createdAt.toISOString(),
  };
}

export type CheckedEmails = {
  /** The good addresses, lower case, each once, in the order first given. */
  emails: string[];
  /** What was given that is not an address (as given, each once). */
  invalid: string[];
};

/** Sorts a list of addresses into good ones (normalised, de-duplicated) and bad ones. Empty entries are skipped. */
export function checkEmails(values: readonly string[]): CheckedEmails {
  const emails = new Set<string>();
  const invalid = new Set<string>();
  for (const value of values) {
    if (value.trim() === "") continue;
    const parsed = SuppressionEmailSchema.safeParse(value);
    if (parsed.success) emails.add(parsed.data);
    else invalid.add(value.trim());
  }
  return { emails: [...emails], invalid: [...invalid] };
}

/** The message for addresses that are not valid, naming them (the form's wording). */
export const invalidEmailsMessage = badAddressesMessage;

/**
 * A list of addresses from a program or a form: 1 to MAX_EMAILS_PER_REQUEST entries, every one a
 * valid address (the message names the bad ones); gives them normalised and de-duplicated.
 */
export const SuppressionEmailListSchema = z
  .array(z.string({ message: "Each entry of emails must be text (an email address)" }), {
    message: 'emails must be a list of email addresses, like ["a@example.com"]',
  })
  .max(
    MAX_EMAILS_PER_REQUEST,
    `At most ${MAX_EMAILS_PER_REQUEST.toLocaleString("en-IN")} addresses can be added at a time; import a CSV file for more.`,
  )
  .transform((values, ctx) => {
    const checked = checkEmails(values);
    if (checked.invalid.length > 0) {
      ctx.addIssue({ code: "custom", message: invalidEmailsMessage(checked.invalid) });
      return z.NEVER;
    }
    if (checked.emails.length === 0) {
      ctx.addIssue({ code: "custom", message: "Give at least one email address to suppress." });
      return z.NEVER;
    }
    return checked.emails;
  });

/** A page of the tenant's list, newest first; `q` keeps the addresses containing it. */
export async function listSuppressionsPage(
  userId: string,
  { q, page, pageSize }: { q?: string | null; page: number; pageSize: number },
): Promise<SuppressionsPage> {
  const size = Math.min(1000, Math.max(1, Math.floor(pageSize) || 1));
  const number = Math.max(1, Math.floor(page) || 1);
  const { rows, total } = await suppressions.listSuppressions(userId, {
    search: q ?? undefined,
    offset: (number - 1) * size,
    limit: size,
  });
  return { items: rows.map(toSuppressionDto), total, page: number, pageSize: size };
}

/** The /api list's cursor: the last entry's date (ms) and address, "1732540800000:a@x.in". */
export const SUPPRESSION_CURSOR = /^(\d{1,15}):(.{3,254})$/;
export const BAD_CURSOR = "cursor is not valid: pass the X-Next-Cursor of the previous page";

/**
 * A page of the tenant's list for /api: newest first, `limit` entries after `cursor` (the
 * X-Next-Cursor of the previous page), the total that matches `q`, and the next page's cursor
 * (null on the last page).
 */
export async function listSuppressionsForApi(
  userId: string,
  { q, limit, cursor }: { q?: string | null; limit: number; cursor?: string | null },
): Promise<{ items: SuppressionDto[]; total: number; nextCursor: string | null }> {
  let after: { createdAt: number; email: string } | null = null;
  if (cursor) {
    const m = SUPPRESSION_CURSOR.exec(cursor);
    if (!m) throw new ApiError("bad_request", BAD_CURSOR, { cursor: BAD_CURSOR });
    after = { createdAt: Number(m[1]), email: m[2] };
  }
  const search = q ?? undefined;
  const rows = await suppressions.listSuppressionsAfter(userId, { search, after, limit: limit + 1 });
  const page = rows.slice(0, limit);
  const last = page[page.length - 1];
  return {
    items: page.map(toSuppressionDto),
    total: await suppressions.countSuppressionsMatching(userId, search),
    nextCursor: rows.length > limit && last ? `${last.createdAt.getTime()}:${last.email}` : null,
  };
}

/**
 * Suppresses addresses a person (or a program) names, as "Added by hand". Refuses the whole list
 * with a 400 naming the bad entries when any is not an address, so nothing is half-done.
 */
export async function addSuppressionsByHand(
  userId: string,
  emails: readonly string[],
): Promise<{ added: number; alreadySuppressed: number }> {
  const parsed = SuppressionEmailListSchema.safeParse(emails);
  if (!parsed.success) throw new ApiError("bad_request", parsed.error.issues[0]?.message ?? "Invalid email addresses");
  const list = parsed.data;
  const added = await suppressions.addSuppressions(
    userId,
    list.map((email) => ({ email, reason: "manual" as const })),
  );
  return { added: added.length, alreadySuppressed: list.length - added.length };
}

/** Takes an address off the list (recording the resubscription); false when it was not on it. */
export async function resubscribe(userId: string, email: string): Promise<boolean> {
  const parsed = SuppressionEmailSchema.safeParse(email);
  if (!parsed.success) return false;
  return suppressions.removeSuppression(userId, parsed.data);
}

/** The entry of one address, or null when it is not suppressed (or not an address at all). */
export async function suppressionOf(userId: string, email: string): Promise<SuppressionDto | null> {
  const parsed = SuppressionEmailSchema.safeParse(email);
  if (!parsed.success) return null;
  const row = await suppressions.findSuppression(userId, parsed.data);
  return row ? toSuppressionDto(row) : null;
}
