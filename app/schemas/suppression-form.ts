// The Suppressions page's "Add addresses" form: addresses typed or pasted one a line or separated
// by commas (semicolons and spaces work too), each checked as a customer's e-mail is, at most
// MAX_ADDRESSES_AT_ONCE and MAX_FORM_CHARS at a time (a page's form body is at most 64 KiB,
// BODY_LIMITS.form in server/app.ts; a longer list is a CSV import). The same schema checks in the
// browser as the user types and on the server.
import { z } from "zod";
import { formatCount } from "~/lib/numbers";
import { CustomerFormSchema } from "~/schemas/customer";

export const MAX_ADDRESSES_AT_ONCE = 1_000;
/** The text's length that still fits a page's form body once URL-encoded. */
export const MAX_FORM_CHARS = 20_000;

// The wording of the service's checks (SuppressionEmailListSchema, app/services/suppressions.server.ts),
// which the action runs again; this copy runs in the browser too.
export const SUPPRESSION_FORM_MESSAGES = {
  required: "Give at least one email address to suppress.",
  tooMany: `At most ${formatCount(MAX_ADDRESSES_AT_ONCE)} addresses can be added at a time here; import a CSV file for more.`,
  tooLong: `At most ${formatCount(MAX_FORM_CHARS)} characters can be added at a time here; import a CSV file for more.`,
} as const;

/** How many bad addresses a message names before it says "and N more". */
const NAMED = 5;

/** The message naming the entries that are not e-mail addresses. */
export function badAddressesMessage(bad: readonly string[]): string {
  const shown = bad.slice(0, NAMED).map((v) => `"${v.length > 80 ? `${v.slice(0, 77)}...` : v}"`);
  const more = bad.length - shown.length;
  const named = more > 0 ? `${shown.join(", ")} and ${formatCount(more)} more` : shown.join(", ");
  return bad.length === 1
    ? `${named} is not a valid email address. Correct it or leave it out and try again.`
    : `${formatCount(bad.length)} entries are not valid email addresses: ${named}. Correct them or leave them out and try again.`;
}

/** The entries of the text, as typed, each once, in the order typed. */
export function splitAddresses(text: string): string[] {
  const seen = new Set<string>();
  for (const part of text.split(/[\s,;]+/)) if (part) seen.add(part);
  return [...seen];
}

/** One address, checked as a customer's e-mail is (and as the service checks it). */
const oneAddress = CustomerFormSchema.shape.email;

/** The textarea's text, read as a list of valid addresses. */
export const AddressListSchema = z
  .string({ message: SUPPRESSION_FORM_MESSAGES.required })
  .max(MAX_FORM_CHARS, SUPPRESSION_FORM_MESSAGES.tooLong)
  .transform((text, ctx) => {
    const addresses = splitAddresses(text);
    if (addresses.length === 0) {
      ctx.addIssue({ code: "custom", message: SUPPRESSION_FORM_MESSAGES.required });
      return z.NEVER;
    }
    if (addresses.length > MAX_ADDRESSES_AT_ONCE) {
      ctx.addIssue({ code: "custom", message: SUPPRESSION_FORM_MESSAGES.tooMany });
      return z.NEVER;
    }
    const good = new Set<string>();
    const bad: string[] = [];
    for (const entry of addresses) {
      const parsed = oneAddress.safeParse(entry);
      if (parsed.success) good.add(parsed.data);
      else bad.push(entry);
    }
    if (bad.length > 0) {
      ctx.addIssue({ code: "custom", message: badAddressesMessage(bad) });
      return z.NEVER;
    }
    return [...good];
  });

/** The "Add addresses" form. */
export const AddSuppressionsFormSchema = z.object({
  intent: z.literal("add"),
  emails: AddressListSchema,
});

/** The remove confirmation's form: hidden fields only, and where to go back to afterwards. */
export const RemoveSuppressionFormSchema = z.object({
  intent: z.literal("remove"),
  email: z.string().trim().min(1).max(254),
  back: z.string().max(2000).optional(),
});
