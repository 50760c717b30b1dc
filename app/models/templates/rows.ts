// A tenant's message templates as stored (EmailTemplate; docs/decisions/0043-templates-and-merge-tags.md).
import type { Prisma } from "~/generated/prisma/client";

/** One EmailTemplate row. */
export type TemplateRow = Prisma.EmailTemplateGetPayload<object>;

/** A template's list entry: everything but its content and draft (the list shows names and dates; the wizard its sender). */
export type TemplateListRow = Omit<TemplateRow, "content" | "text" | "draft">;

/** What a template stores of the author's (content: blocks as JSON, or the HTML or Markdown). */
export type TemplateFields = {
  name: string;
  subject: string;
  preheader: string;
  format: string;
  content: string;
  text: string | null;
  fromName: string;
  replyTo: string;
};

/** A save that came from an older copy of the template: the stored one has moved on. */
export type StaleSave = { stale: TemplateRow };

/** The most templates a tenant keeps (the list shows them all; the service refuses more). */
export const MAX_TEMPLATES = 500;
