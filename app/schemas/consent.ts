// A customer's consent as /api, the CSV and the customer page take it
// (docs/decisions/0041-custom-fields-and-tags.md): `{ status, at?, source?, text? }`, `at` an ISO
// date or date-time (now when left out). One set of rules, each way of taking it naming the parts
// in its own words: /api `consent.status`…, the CSV its column headers `consent`, `consentDate`….
import { z } from "zod";
import { CONSENT_STATUSES, MAX_CONSENT_SOURCE, MAX_CONSENT_TEXT } from "~/lib/consent";
import { CONSENT_COLUMNS } from "~/lib/customer-csv";
import { multiLine, singleLine } from "~/schemas/text";

/** What the messages call each part of a consent. */
type ConsentNames = { status: string; at: string; source: string; text: string };

const statusMessage = (name: string) => `${name} must be one of: ${CONSENT_STATUSES.join(", ")}`;
const atMessage = (name: string) => `${name} must be a date like 2024-05-31 or an ISO date-time`;

function consentSchema(names: ConsentNames) {
  return z.object({
    status: z.enum(CONSENT_STATUSES, { message: statusMessage(names.status) }),
    at: z
      .string({ message: atMessage(names.at) })
      .trim()
      .transform((v, ctx) => {
        const d = new Date(v);
        if (!/^\d{4}-\d{2}-\d{2}/.test(v) || Number.isNaN(d.getTime()) || d.getTime() > Date.now() + 86_400_000) {
          ctx.addIssue({ code: "custom", message: atMessage(names.at) });
          return z.NEVER;
        }
        return d;
      })
      .optional(),
    source: singleLine(z.string().trim(), names.source)
      .max(MAX_CONSENT_SOURCE, `${names.source} must be at most ${MAX_CONSENT_SOURCE} characters`)
      .optional(),
    text: multiLine(z.string().trim(), names.text)
      .max(MAX_CONSENT_TEXT, `${names.text} must be at most ${MAX_CONSENT_TEXT} characters`)
      .optional(),
  });
}

const API_NAMES: ConsentNames = {
  status: "consent.status",
  at: "consent.at",
  source: "consent.source",
  text: "consent.text",
};

export const CONSENT_MESSAGES = { status: statusMessage(API_NAMES.status), at: atMessage(API_NAMES.at) } as const;

/** `consent` of /api's customer payload. */
export const ConsentInputSchema = consentSchema(API_NAMES);

/** A CSV row's consent cells (the blank ones left out), each problem naming its column. */
export const ConsentCellsSchema = consentSchema(CONSENT_COLUMNS);

export type ConsentInput = z.infer<typeof ConsentInputSchema>;

/** The customer page's consent form: a status chosen, and the text agreed to (optional). */
export const ConsentFormSchema = z.object({
  intent: z.literal("consent"),
  status: z.enum(CONSENT_STATUSES, { message: "Choose a consent status" }),
  text: multiLine(z.string().trim(), "The text agreed to")
    .max(MAX_CONSENT_TEXT, `The text agreed to must be at most ${MAX_CONSENT_TEXT} characters`)
    .optional(),
});
