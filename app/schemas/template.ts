// A template as the Templates screen and /api/templates take it (docs/decisions/0043-templates-and-merge-tags.md):
// `{ name, subject, preheader?, format, content, text? }`, content being a list of blocks for
// "blocks" and the HTML or Markdown text otherwise. Whether its merge tags parse is the service's
// check (a 422 naming the problem and where).
import { z } from "zod";
import { MAX_TEMPLATE_CHARS } from "~/lib/merge-tags";
import { BlocksSchema } from "~/lib/template-blocks";
import { MAX_TEMPLATE_NAME, MAX_TEMPLATE_PREHEADER, MAX_TEMPLATE_SUBJECT, TEMPLATE_FORMATS } from "~/lib/templates";
import { FromNameSchema, ReplyToSchema } from "~/schemas/campaign";
import { multiLine, singleLine, typedEmail } from "~/schemas/text";

export const TEMPLATE_MESSAGES = {
  name: "Name is required",
  subject: "Subject is required",
  format: `Format must be one of: ${TEMPLATE_FORMATS.join(", ")}`,
  content: "Content is required",
  contentText: "An HTML or Markdown template's content is text",
  tooLong: `The content must be at most ${MAX_TEMPLATE_CHARS.toLocaleString("en-IN")} characters`,
} as const;

/** The largest version a save may name (the column is a 32-bit integer on PostgreSQL). */
const MAX_VERSION = 2_147_483_647;

const name = singleLine(z.string({ message: TEMPLATE_MESSAGES.name }).trim(), "Name")
  .min(1, TEMPLATE_MESSAGES.name)
  .max(MAX_TEMPLATE_NAME, `Name must be at most ${MAX_TEMPLATE_NAME} characters`);
const subject = singleLine(z.string({ message: TEMPLATE_MESSAGES.subject }).trim(), "Subject")
  .min(1, TEMPLATE_MESSAGES.subject)
  .max(MAX_TEMPLATE_SUBJECT, `Subject must be at most ${MAX_TEMPLATE_SUBJECT} characters`);
const preheader = singleLine(z.string({ message: "Preheader must be text" }).trim(), "Preheader").max(
  MAX_TEMPLATE_PREHEADER,
  `Preheader must be at most ${MAX_TEMPLATE_PREHEADER} characters`,
);
const text = multiLine(z.string({ message: "The text part must be text" }), "The text part").max(
  MAX_TEMPLATE_CHARS,
  TEMPLATE_MESSAGES.tooLong,
);
const source = multiLine(z.string({ message: TEMPLATE_MESSAGES.contentText }), "Content")
  .max(MAX_TEMPLATE_CHARS, TEMPLATE_MESSAGES.tooLong)
  .refine((value) => value.trim() !== "", TEMPLATE_MESSAGES.content);

/** The shape both formats share; content is checked against the format below. */
const fields = {
  name,
  subject,
  preheader: preheader.default(""),
  text: text.nullable().default(null),
  /** The From name and Reply-To of the campaigns made from it, unless a campaign gives its own ("": the sender's). */
  fromName: FromNameSchema.default("").meta({
    description: "The From name of campaigns made from it (the sender's when empty)",
  }),
  replyTo: ReplyToSchema.default("").meta({
    description: "Where replies to its campaigns go (MAIL_REPLY_TO when empty)",
  }),
  /** The version the template was read at: a save from an older copy is refused (409), not applied. */
  version: z.number({ message: "version must be a number" }).int().min(1).max(MAX_VERSION).optional(),
};

export const TemplateInputSchema = z.discriminatedUnion(
  "format",
  [
    z.strictObject({ ...fields, format: z.literal("blocks"), content: BlocksSchema }),
    z.strictObject({ ...fields, format: z.literal("html"), content: source }),
    z.strictObject({ ...fields, format: z.literal("markdown"), content: source }),
  ],
  { message: TEMPLATE_MESSAGES.format },
);
export type TemplateInput = z.infer<typeof TemplateInputSchema>;

const sampleValue = z.union([z.string().max(2_000), z.number(), z.boolean(), z.null()]);
/** POST /api/templates/{id}/render: one of the tenant's customers, or sample values. */
export const TemplateRenderSchema = z.union(
  [
    z.strictObject({ customerId: z.string({ message: "customerId must be text" }).min(1) }),
    z.strictObject({
      sample: z.strictObject({
        customer: z.record(z.string(), sampleValue).default({}),
        last_order: z.record(z.string(), sampleValue).nullable().default(null),
      }),
    }),
  ],
  { message: "Give customerId, or sample: { customer, last_order }" },
);
export type TemplateRenderInput = z.infer<typeof TemplateRenderSchema>;

/** An autosaved draft: the editor's fields as typed (any text, within the size of a template). */
const typed = (what: string) =>
  z.string({ message: `${what} must be text` }).max(MAX_TEMPLATE_CHARS, `${what} is too long to keep`);
export const TemplateDraftSchema = z.strictObject({
  name: typed("The name"),
  subject: typed("The subject"),
  preheader: typed("The preheader"),
  content: typed("The content"),
  text: typed("The text part"),
  fromName: typed("The From name").optional(),
  replyTo: typed("The Reply-To address").optional(),
  version: z.number({ message: "version must be a number" }).int().min(1).max(MAX_VERSION),
});

/** The most addresses one test send goes to. */
export const MAX_TEST_ADDRESSES = 5;
/** POST /api/templates/{id}/test: up to five addresses to send the template to, marked as a test. */
export const TemplateTestSchema = z.strictObject({
  to: z
    .array(typedEmail(), { message: "to must be a list of e-mail addresses" })
    .min(1, "Give at least one address to send the test to")
    .max(MAX_TEST_ADDRESSES, `A test goes to at most ${MAX_TEST_ADDRESSES} addresses`),
  /** The customer whose values fill it (a customer with empty fields when absent). */
  customerId: z.string().trim().optional(),
});
export type TemplateTestInput = z.infer<typeof TemplateTestSchema>;
