// Templates (docs/decisions/0043-templates-and-merge-tags.md), isomorphic: the formats a template
// is written in and the limits of its parts, shared by the Templates screen, /api and the service.

export const TEMPLATE_FORMATS = ["blocks", "html", "markdown"] as const;
export type TemplateFormat = (typeof TEMPLATE_FORMATS)[number];
export const TEMPLATE_FORMAT_LABELS: Record<TemplateFormat, string> = {
  blocks: "Blocks",
  html: "HTML",
  markdown: "Markdown",
};
export const isTemplateFormat = (value: string): value is TemplateFormat =>
  (TEMPLATE_FORMATS as readonly string[]).includes(value);

export const MAX_TEMPLATE_NAME = 100;
export const MAX_TEMPLATE_SUBJECT = 200;
export const MAX_TEMPLATE_PREHEADER = 200;
/** Gmail shows a message's first 102 KB and clips the rest behind a link: the check before launch warns past it. */
export const GMAIL_CLIP_BYTES = 102 * 1024;
