// A blocks template as MJML (https://mjml.io), the markup that MJML turns into e-mail HTML that
// reads on a phone and in Outlook (docs/decisions/0043-templates-and-merge-tags.md). Merge tags
// are already markers here (./tag-markers.server.ts): every text is escaped as MJML wants it, and
// the markers pass through untouched.
//
// Rich text is cleaned to what mail clients show alike (paragraphs, bold, italic, underline,
// links, lists, line breaks); the social links are words, not icons from a third party's server.
import sanitizeHtml from "sanitize-html";
import { escapeHtml } from "~/lib/email-body";
import { type Block, type ColumnBlock, SOCIAL_LABELS } from "~/lib/template-blocks";
import type { Brand } from "~/lib/template-brand";

/** The footer's fixed words, the same as a plain campaign's. */
export const FOOTER_QUESTION = "Don't want these e-mails any more?";
export const FOOTER_LINK = "Unsubscribe";

const RICH_TEXT: sanitizeHtml.IOptions = {
  allowedTags: ["p", "br", "strong", "b", "em", "i", "u", "s", "a", "ul", "ol", "li", "span"],
  allowedAttributes: { a: ["href", "title"] },
  allowedSchemes: ["http", "https", "mailto", "tel"],
  // A marker of a merge tag is a relative address to the cleaner; it is put back after.
  allowProtocolRelative: false,
};

/** Rich text as the message carries it: cleaned, links in the brand's colour. */
export function cleanRichText(html: string, brand: Brand): string {
  return sanitizeHtml(html, {
    ...RICH_TEXT,
    transformTags: {
      a: (tagName, attribs) => ({
        tagName,
        attribs: { ...attribs, style: `color:${brand.linkColor};text-decoration:underline;` },
      }),
    },
    allowedAttributes: { a: ["href", "title", "style"] },
  });
}

const attr = (value: string) => escapeHtml(value);
const HEADING_SIZES = { 1: "28px", 2: "22px", 3: "18px" } as const;

function columnBlock(block: ColumnBlock, brand: Brand): string {
  switch (block.type) {
    case "heading":
      return (
        `<mj-text align="${block.align}" font-size="${HEADING_SIZES[block.level]}" font-weight="700" line-height="1.3" padding="8px 24px">` +
        `<h${block.level} style="margin:0;font-size:${HEADING_SIZES[block.level]};">${escapeHtml(block.text)}</h${block.level}></mj-text>`
      );
    case "text":
      return `<mj-text align="${block.align}" padding="8px 24px">${cleanRichText(block.html, brand)}</mj-text>`;
    case "image": {
      const width = block.width > 0 ? ` width="${block.width}px"` : "";
      const href = block.href ? ` href="${attr(block.href)}"` : "";
      return `<mj-image src="${attr(block.src)}" alt="${attr(block.alt)}"${href}${width} align="${block.align}" padding="8px 24px" />`;
    }
    case "button":
      return (
        `<mj-button href="${attr(block.href)}" align="${block.align}" background-color="${brand.buttonColor}" ` +
        `color="${brand.buttonTextColor}" border-radius="6px" font-weight="600" padding="12px 24px">${escapeHtml(block.label)}</mj-button>`
      );
    case "divider":
      return `<mj-divider border-width="1px" border-color="#e5e7eb" padding="12px 24px" />`;
    case "spacer":
      return `<mj-spacer height="${block.height}px" />`;
  }
}

function block(block: Block, brand: Brand): string {
  switch (block.type) {
    case "social": {
      const links = block.links
        .map(
          (link) =>
            `<a href="${attr(link.url)}" style="color:${brand.linkColor};text-decoration:underline;">${SOCIAL_LABELS[link.network]}</a>`,
        )
        .join(" &middot; ");
      return section(`<mj-column><mj-text align="${block.align}" padding="8px 24px">${links}</mj-text></mj-column>`);
    }
    case "footer":
      return footerSection(block.text);
    case "columns": {
      const columns = block.columns
        .map((column) => `<mj-column>${column.map((b) => columnBlock(b, brand)).join("")}</mj-column>`)
        .join("");
      return section(columns);
    }
    default:
      return section(`<mj-column>${columnBlock(block, brand)}</mj-column>`);
  }
}

const section = (inner: string) => `<mj-section background-color="#ffffff" padding="0">${inner}</mj-section>`;

/**
 * The footer: the author's line, then who sent it and the unsubscribe link, always (merge tags:
 * the shop's name and postal address come from the sender's settings at send time).
 */
function footerSection(text: string): string {
  const own = text.trim() ? `${escapeHtml(text)}<br>` : "";
  return (
    `<mj-section padding="16px 0"><mj-column><mj-text align="center" font-size="13px" color="#6b7280" padding="8px 24px">` +
    `${own}Sent by {{ shop.name }}{% if shop.address != blank %}, {{ shop.address }}{% endif %}. ` +
    `${FOOTER_QUESTION} <a href="{{ unsubscribe_url }}" style="color:#6b7280;text-decoration:underline;">${FOOTER_LINK}</a>` +
    `</mj-text></mj-column></mj-section>`
  );
}

/** The MJML document around the message's sections: the title, the preheader, the brand's logo on top, the footer. */
function mjmlDocument(sections: string, brand: Brand, title: string, preheader: string, footer: string): string {
  const logo = brand.logoUrl
    ? section(
        `<mj-column><mj-image src="${attr(brand.logoUrl)}" alt="${attr(brand.logoAlt)}" width="160px" align="center" padding="16px 24px" /></mj-column>`,
      )
    : "";
  return (
    `<mjml><mj-head><mj-title>${escapeHtml(title)}</mj-title>` +
    (preheader ? `<mj-preview>${escapeHtml(preheader)}</mj-preview>` : "") +
    `<mj-attributes><mj-all font-family="${attr(brand.font)}" /><mj-text font-size="16px" line-height="1.6" color="${brand.textColor}" /></mj-attributes>` +
    `</mj-head><mj-body width="600px" background-color="${brand.background}">` +
    `${logo}\n${sections}\n${footer}</mj-body></mjml>`
  );
}

/**
 * A blocks template as one MJML document: the blocks, and the footer at the end when the blocks
 * have none (a message always has one). `marks` turns the footer's own merge tags into markers,
 * as the blocks' texts already are.
 */
export function blocksMjml(
  blocks: readonly Block[],
  brand: Brand,
  title: string,
  preheader: string,
  marks: (text: string) => string,
): string {
  const hasFooter = blocks.some((b) => b.type === "footer");
  const body = blocks.map((b) => (b.type === "footer" ? marks(block(b, brand)) : block(b, brand))).join("\n");
  return mjmlDocument(body, brand, title, preheader, hasFooter ? "" : marks(footerSection("")));
}

/** A Markdown template's HTML (the author's own, not cleaned) in the same layout as blocks. */
export function htmlMjml(
  html: string,
  brand: Brand,
  title: string,
  preheader: string,
  marks: (text: string) => string,
): string {
  const body = section(`<mj-column><mj-text padding="8px 24px">${html}</mj-text></mj-column>`);
  return mjmlDocument(body, brand, title, preheader, marks(footerSection("")));
}
