// The design a campaign made from a template sends (docs/decisions/0043-templates-and-merge-tags.md):
// a frozen copy of the template's format, preheader, content and text part, and of the brand it
// wore, taken when the campaign is saved or launched, so editing or deleting the template or the
// brand later changes nothing the campaign sent or shows. Stored as JSON in the campaign's "design" ("" for a plain-text campaign).
import { type Block, draftBlocks } from "~/lib/template-blocks";
import { type Brand, DEFAULT_BRAND } from "~/lib/template-brand";
import { isTemplateFormat, type TemplateFormat } from "~/lib/templates";

export type CampaignDesign = {
  format: TemplateFormat;
  preheader: string;
  /** Blocks, or the HTML or Markdown text. */
  content: Block[] | string;
  /** The text part as the author edited it; null: derived from the design. */
  text: string | null;
  /** The campaign's own From name and Reply-To address ("": the sender's, app/services/email/sender.server.ts). */
  fromName: string;
  replyTo: string;
  /** The tenant's brand when the copy was taken (a design kept before brands: the default one). */
  brand: Brand;
};

export const designJson = (design: CampaignDesign): string =>
  JSON.stringify({
    format: design.format,
    preheader: design.preheader,
    content: design.content,
    text: design.text,
    fromName: design.fromName,
    replyTo: design.replyTo,
    brand: design.brand,
  });

/** A stored brand, each value kept only when it is text (else the default's). */
function brandOf(value: unknown): Brand {
  if (!value || typeof value !== "object") return DEFAULT_BRAND;
  const stored = value as Record<string, unknown>;
  const pick = (key: keyof Brand) => (typeof stored[key] === "string" ? stored[key] : DEFAULT_BRAND[key]);
  return {
    background: pick("background"),
    textColor: pick("textColor"),
    linkColor: pick("linkColor"),
    buttonColor: pick("buttonColor"),
    buttonTextColor: pick("buttonTextColor"),
    font: pick("font"),
    logoUrl: pick("logoUrl"),
    logoAlt: pick("logoAlt"),
  };
}

/** A stored design; null for a plain-text campaign. Throws when the stored text is not a design. */
export function readDesign(stored: string): CampaignDesign | null {
  if (stored === "") return null;
  const value = JSON.parse(stored) as Record<string, unknown>;
  const { format, preheader, content, text, fromName, replyTo, brand } = value;
  if (typeof format !== "string" || !isTemplateFormat(format)) throw new Error("The campaign's design has no format");
  const readable = format === "blocks" ? draftBlocks(content) : typeof content === "string" ? content : null;
  if (readable === null) throw new Error("The campaign's design cannot be read");
  return {
    format,
    preheader: typeof preheader === "string" ? preheader : "",
    content: readable,
    text: typeof text === "string" ? text : null,
    fromName: typeof fromName === "string" ? fromName : "",
    replyTo: typeof replyTo === "string" ? replyTo : "",
    brand: brandOf(brand),
  };
}

/** A stored design's format without reading the whole design (designJson writes it first); "text" for none. */
export function designFormat(stored: string): TemplateFormat | "text" {
  if (stored === "") return "text";
  const format = /^\{"format":"([a-z]+)"/.exec(stored)?.[1] ?? "";
  return isTemplateFormat(format) ? format : "html";
}
