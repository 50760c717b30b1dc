import { z } from "zod";
import { ConsentInputSchema } from "~/schemas/consent";
import { multiLine, singleLine } from "~/schemas/text";

// The customer form and the /api payload (docs/rules.md#customer-form, #payloads): firstName, lastName and email are
// required; phone, address, company and notes are optional. One schema for the form (server and
// live validation in the browser), /api and the CSV import.
/** The largest starting values accepted (a typo of a few extra digits, not a real customer). */
export const MAX_SPEND_RUPEES = 10_000_000_000;
export const MAX_VISITS = 1_000_000_000;

export const CUSTOMER_MESSAGES = {
  firstName: "First name is required",
  lastName: "Last name is required",
  email: "Email is required",
  emailInvalid: "Enter a valid email address",
  duplicateEmail: "A customer with this email already exists",
  totalSpend: "Total spend must be a number of rupees, 0 or more",
  totalSpendTooLarge: `Total spend is too large (at most ₹${MAX_SPEND_RUPEES.toLocaleString("en-IN")})`,
  visits: "Visits must be a whole number, 0 or more",
  visitsTooLarge: `Visits is too large (at most ${MAX_VISITS.toLocaleString("en-IN")})`,
  lastActive: "Last active must be a date like 2024-05-31",
} as const;

export const CUSTOMER_FIELDS = ["firstName", "lastName", "email", "phone", "address", "company", "notes"] as const;
export type CustomerField = (typeof CUSTOMER_FIELDS)[number];

const optionalText = (label: string, max: number, lines: typeof singleLine = singleLine) =>
  lines(z.string({ message: `${label} must be text` }).trim(), label)
    .max(max, `${label} must be at most ${max} characters`)
    .default("");

const requiredText = (message: string, label: string, max: number) =>
  singleLine(z.string({ message }).trim(), label)
    .min(1, message)
    .max(max, `${label} must be at most ${max} characters`);

/** The seven fields a person types. */
export const CustomerFormSchema = z.object({
  firstName: requiredText(CUSTOMER_MESSAGES.firstName, "First name", 100),
  lastName: requiredText(CUSTOMER_MESSAGES.lastName, "Last name", 100),
  email: z
    .string({ message: CUSTOMER_MESSAGES.email })
    .trim()
    .min(1, CUSTOMER_MESSAGES.email)
    .max(254, "Email must be at most 254 characters")
    .pipe(z.email(CUSTOMER_MESSAGES.emailInvalid))
    .transform((e) => e.toLowerCase()),
  phone: optionalText("Phone", 40),
  address: optionalText("Address", 500, multiLine),
  company: optionalText("Company", 200),
  notes: optionalText("Notes", 5000, multiLine),
});

/** Starting values a program or an import may give (orders keep them up to date afterwards). */
export const CustomerStartingValuesSchema = z.object({
  totalSpend: z
    .number({ message: CUSTOMER_MESSAGES.totalSpend })
    .finite(CUSTOMER_MESSAGES.totalSpend)
    .min(0, CUSTOMER_MESSAGES.totalSpend)
    .max(MAX_SPEND_RUPEES, CUSTOMER_MESSAGES.totalSpendTooLarge)
    .optional(),
  visits: z
    .number({ message: CUSTOMER_MESSAGES.visits })
    .int(CUSTOMER_MESSAGES.visits)
    .min(0, CUSTOMER_MESSAGES.visits)
    .max(MAX_VISITS, CUSTOMER_MESSAGES.visitsTooLarge)
    .optional(),
  lastActive: z
    .union([z.string(), z.null()], { message: CUSTOMER_MESSAGES.lastActive })
    .transform((v, ctx) => {
      if (v === null || v.trim() === "") return null;
      const d = new Date(v.trim());
      if (Number.isNaN(d.getTime())) {
        ctx.addIssue({ code: "custom", message: CUSTOMER_MESSAGES.lastActive });
        return z.NEVER;
      }
      return d;
    })
    .optional(),
});

/**
 * A customer's fields beyond the fixed record and its tags (docs/decisions/0041-custom-fields-and-tags.md):
 * `fields: { city: "Pune", tier: "gold" }` changes the fields it names (null or "" clears one), `tags`
 * replaces the customer's tags. Left out, both stay as they are. Each value is checked against its
 * field's type by the service, which knows the tenant's fields.
 */
export const CustomerExtrasSchema = z.object({
  fields: z
    .record(z.string(), z.union([z.string(), z.number(), z.boolean(), z.null()]), {
      message: "fields must be an object of field names and values",
    })
    .optional(),
  tags: z.array(z.string({ message: "Each tag must be text" }), { message: "tags must be a list of text" }).optional(),
  consent: ConsentInputSchema.optional(),
});

/** POST /api/customers and PUT /api/customers/{id}. */
export const CustomerApiSchema = CustomerFormSchema.extend(CustomerStartingValuesSchema.shape).extend(
  CustomerExtrasSchema.shape,
);

export type CustomerFormInput = z.infer<typeof CustomerFormSchema>;
export type CustomerApiInput = z.infer<typeof CustomerApiSchema>;

/** The form's text values, read from a submitted form. */
export function customerFormValues(form: FormData): Record<CustomerField, string> {
  return Object.fromEntries(CUSTOMER_FIELDS.map((k) => [k, String(form.get(k) ?? "")])) as Record<
    CustomerField,
    string
  >;
}
