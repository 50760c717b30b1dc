// A customer's consent as /api, the customer form and the CSV take it
// (docs/decisions/0041-custom-fields-and-tags.md): `{ status, at?, source?, text? }`, `at` an ISO
// date or date-time (now when left out).
import { z } from "zod";
import { CONSENT_STATUSES, MAX_CONSENT_SOURCE, MAX_CONSENT_TEXT } from "~/lib/consent";
import { multiLine, singleLine } from "~/schemas/text";

export const CONSENT_MESSAGES = {
  status: `consent.status must be one of: ${CONSENT_STATUSES.join(", ")}`,
  at: "consent.at must be a date like 2024-05-31 or an ISO date-time",
} as const;

export const ConsentInputSchema = z.object({
  status: z.enum(CONSENT_STATUSES, { message: CONSENT_MESSAGES.status }),
  at: z
    .string({ message: CONSENT_MESSAGES.at })
    .trim()
    .transform((v, ctx) => {
      const d = new Date(v);
      if (!/^\d{4}-\d{2}-\d{2}/.test(v) || Number.isNaN(d.getTime()) || d.getTime() > Date.now() + 86_400_000) {
        ctx.addIssue({ code: "custom", message: CONSENT_MESSAGES.at });
        return z.NEVER;
      }
      return d;
    })
    .optional(),
  source: singleLine(z.string().trim(), "consent.source")
    .max(MAX_CONSENT_SOURCE, `consent.source must be at most ${MAX_CONSENT_SOURCE} characters`)
    .optional(),
  text: multiLine(z.string().trim(), "consent.text")
    .max(MAX_CONSENT_TEXT, `consent.text must be at most ${MAX_CONSENT_TEXT} characters`)
    .optional(),
});

export type ConsentInput = z.infer<typeof ConsentInputSchema>;
