// The template editor's form (/templates/:id): the fields of /api's template as a browser posts them
// (docs/decisions/0043-templates-and-merge-tags.md). The blocks arrive as the JSON the block
// editor keeps in a hidden input; an empty text part means "derive it from the design". The
// result is checked by the same schema as /api's, so the screen and /api refuse the same things
// in the same words.
import { z } from "zod";
import { TEMPLATE_FORMATS } from "~/lib/templates";
import { type TemplateInput, TemplateInputSchema, TEMPLATE_MESSAGES } from "~/schemas/template";

const BLOCKS_UNREADABLE = "The blocks could not be read: reload the page and try again";

function contentOf(format: string, content: string): unknown {
  if (format !== "blocks") return content;
  try {
    return JSON.parse(content);
  } catch {
    return undefined;
  }
}

export const TemplateFormSchema = z
  .object({
    name: z.string({ message: TEMPLATE_MESSAGES.name }),
    subject: z.string({ message: TEMPLATE_MESSAGES.subject }),
    preheader: z.string().default(""),
    format: z.enum(TEMPLATE_FORMATS, { message: TEMPLATE_MESSAGES.format }),
    content: z.string({ message: TEMPLATE_MESSAGES.content }),
    text: z.string().optional(),
    fromName: z.string().default(""),
    replyTo: z.string().default(""),
    version: z
      .number({ message: "Reload the page and try again" })
      .int()
      .min(1)
      .max(2_147_483_647, "Reload the page and try again"),
  })
  .transform((form, ctx): TemplateInput & { version: number } => {
    const content = contentOf(form.format, form.content);
    if (content === undefined) {
      ctx.addIssue({ code: "custom", path: ["content"], message: BLOCKS_UNREADABLE });
      return z.NEVER;
    }
    const parsed = TemplateInputSchema.safeParse({
      name: form.name,
      subject: form.subject,
      preheader: form.preheader,
      format: form.format,
      content,
      text: form.text?.trim() ? form.text : null,
      fromName: form.fromName,
      replyTo: form.replyTo,
      version: form.version,
    });
    if (!parsed.success) {
      for (const issue of parsed.error.issues) {
        const [field = "content", block] = issue.path;
        // A block's problem says which block: "Block 2: A button needs a label".
        const message = typeof block === "number" ? `Block ${block + 1}: ${issue.message}` : issue.message;
        ctx.addIssue({ code: "custom", path: [String(field)], message });
      }
      return z.NEVER;
    }
    return { ...parsed.data, version: form.version };
  });
