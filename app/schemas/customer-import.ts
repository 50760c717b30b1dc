// One row of a customer CSV import, checked: the customer form's rules plus the starting figures
// as a spreadsheet writes them (rupees with ₹ and commas, visits, a date), as the import reads
// them (~/services/customer-import.server).
import { z } from "zod";
import { rupeesToPaise } from "~/lib/money";
import { CUSTOMER_MESSAGES, CustomerFormSchema, MAX_SPEND_RUPEES, MAX_VISITS } from "~/schemas/customer";

const rupeesText = z
  .string()
  .trim()
  .transform((v, ctx) => {
    if (v === "") return undefined;
    const n = Number(v.replace(/[₹,\s]/g, ""));
    if (!Number.isFinite(n) || n < 0 || n > MAX_SPEND_RUPEES) {
      ctx.addIssue({
        code: "custom",
        message:
          Number.isFinite(n) && n > MAX_SPEND_RUPEES
            ? CUSTOMER_MESSAGES.totalSpendTooLarge
            : CUSTOMER_MESSAGES.totalSpend,
      });
      return z.NEVER;
    }
    return rupeesToPaise(n);
  });

const visitsText = z
  .string()
  .trim()
  .transform((v, ctx) => {
    if (v === "") return undefined;
    const n = Number(v);
    if (!Number.isInteger(n) || n < 0 || n > MAX_VISITS) {
      ctx.addIssue({
        code: "custom",
        message: Number.isFinite(n) && n > MAX_VISITS ? CUSTOMER_MESSAGES.visitsTooLarge : CUSTOMER_MESSAGES.visits,
      });
      return z.NEVER;
    }
    return n;
  });

const dateText = z
  .string()
  .trim()
  .transform((v, ctx) => {
    if (v === "") return undefined;
    const ms = Date.parse(v);
    if (Number.isNaN(ms)) {
      ctx.addIssue({ code: "custom", message: CUSTOMER_MESSAGES.lastActive });
      return z.NEVER;
    }
    return ms;
  });

/** One CSV row: the customer form's rules plus the starting values as text. */
export const CustomerImportRowSchema = CustomerFormSchema.extend({
  totalSpend: rupeesText.optional(),
  visits: visitsText.optional(),
  lastActive: dateText.optional(),
});
