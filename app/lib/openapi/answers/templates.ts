// The /api answers about templates (docs/decisions/0043-templates-and-merge-tags.md): a template,
// the list, a template rendered for a recipient, the uploaded images and the brand.
import { z } from "zod";
import { BlocksSchema } from "~/lib/template-blocks";
import { BRAND_FONT_KEYS } from "~/lib/template-brand";
import { TEMPLATE_FORMATS } from "~/lib/templates";
import type { TemplateProblem } from "~/services/templates/checks.server";
import type { RenderedMessage } from "~/services/templates/render.server";
import type { TestSendAnswer } from "~/services/templates/test-send.server";
import type { TemplateDto, TemplateSummaryDto } from "~/services/templates.server";
import type { BrandDto } from "~/services/brand.server";
import type { ImageDto } from "~/services/images.server";
import { isoTime, type Out, same } from "./common";

const templateId = z
  .string()
  .meta({ description: "A template's id: 24 hexadecimal characters, or starter-… for a starter" });

export const TemplateAnswerSchema = z.strictObject({
  _id: templateId,
  id: templateId,
  name: z.string(),
  subject: z.string().meta({ description: "May hold merge tags, e.g. {{ customer.first_name }}" }),
  preheader: z.string().meta({ description: "The line mail clients show after the subject" }),
  format: z.enum(TEMPLATE_FORMATS),
  content: z
    .union([z.array(BlocksSchema.element), z.string()])
    .meta({ description: "Blocks for the blocks format; the HTML or Markdown text otherwise" }),
  text: z.string().nullable().meta({ description: "The text part as edited; null: derived from the design" }),
  fromName: z.string().meta({ description: "The From name of campaigns made from it (the sender's when empty)" }),
  replyTo: z.string().meta({ description: "Where replies to its campaigns go (MAIL_REPLY_TO when empty)" }),
  version: z
    .number()
    .int()
    .min(1)
    .meta({ description: "Grows by one with every save; PUT it back to save only over it" }),
  starter: z.boolean().meta({ description: "A starter template: listed for everyone, duplicated to be changed" }),
  createdAt: isoTime,
  updatedAt: isoTime,
});

export const TemplateSummarySchema = TemplateAnswerSchema.pick({
  _id: true,
  id: true,
  name: true,
  subject: true,
  format: true,
  fromName: true,
  replyTo: true,
  starter: true,
  version: true,
  updatedAt: true,
});

export const TemplateListSchema = z.strictObject({ templates: z.array(TemplateSummarySchema) });

export const TemplateCheckSchema = z.strictObject({
  problems: z.array(
    z.strictObject({
      message: z.string().meta({ description: "What to fix" }),
      where: z.string().meta({ description: "Where: Subject, line 1, column 4; Image 2 (…); Link …; Footer" }),
    }),
  ),
});

export const DraftKeptSchema = z.strictObject({ at: isoTime.meta({ description: "When the draft was kept" }) });

export const RenderedMessageSchema = z.strictObject({
  subject: z.string(),
  html: z.string().meta({ description: "The HTML part, as the recipient would receive it (example links)" }),
  text: z.string().meta({ description: "The text part" }),
});

export const TestSendResultSchema = z.strictObject({
  sent: z.array(
    z.strictObject({
      to: z.string(),
      status: z.enum(["accepted", "failed", "not sent"]).meta({
        description: "accepted: the channel took it; failed: refused for good; not sent: try again later",
      }),
      details: z.string().meta({ description: "What the channel said" }),
    }),
  ),
});

// Compile-time guards: each line fails to type-check when the DTO and its schema differ.
export const TEMPLATE_DTO_CHECKS = [
  same<Out<typeof TemplateAnswerSchema>, TemplateDto>(true),
  same<Out<typeof TemplateSummarySchema>, TemplateSummaryDto>(true),
  same<Out<typeof RenderedMessageSchema>, RenderedMessage>(true),
  same<Out<typeof TestSendResultSchema>["sent"][number], TestSendAnswer>(true),
  same<Out<typeof TemplateCheckSchema>["problems"][number], TemplateProblem>(true),
];

export const ImageAnswerSchema = z.strictObject({
  _id: z.string(),
  id: z.string(),
  name: z.string().meta({ description: "The file's name as uploaded" }),
  contentType: z.enum(["image/png", "image/jpeg", "image/gif"]),
  size: z.number().int().meta({ description: "Bytes" }),
  width: z.number().int().meta({ description: "Pixels" }),
  height: z.number().int().meta({ description: "Pixels" }),
  url: z.string().meta({ description: "Its public address (PUBLIC_URL/images/…), for an image block's src" }),
  createdAt: isoTime,
});

export const ImageListSchema = z.strictObject({ images: z.array(ImageAnswerSchema) });

export const BrandAnswerSchema = z.strictObject({
  background: z.string().meta({ description: "#rrggbb" }),
  textColor: z.string(),
  linkColor: z.string(),
  buttonColor: z.string(),
  buttonTextColor: z.string(),
  font: z.enum(BRAND_FONT_KEYS),
  logoUrl: z.string().meta({ description: "An absolute http(s) address, or empty for none" }),
  logoAlt: z.string(),
  postalAddress: z.string().meta({ description: "The footer's postal address (MAIL_POSTAL_ADDRESS when empty)" }),
  updatedAt: isoTime.nullable().meta({ description: "When it was saved; null: never, the defaults" }),
});

export const BRAND_DTO_CHECKS = [
  same<Out<typeof BrandAnswerSchema>, BrandDto>(true),
  same<Omit<Out<typeof ImageAnswerSchema>, "contentType">, Omit<ImageDto, "contentType">>(true),
];
