// The plain-text part of a template's message, derived from its design (docs/decisions/0043-templates-and-merge-tags.md):
// what a mail client without HTML shows, and what spam filters compare with the HTML. Links are
// written out after their words; images say their alt text; the footer is the same as the HTML's.
// The texts given here hold merge-tag markers (./tag-markers.server.ts), restored by the caller.
import { convert } from "html-to-text";
import { type Block, type ColumnBlock, SOCIAL_LABELS } from "~/lib/template-blocks";
import { FOOTER_LINK, FOOTER_QUESTION } from "./blocks-mjml.server";

/** The text part's footer, the HTML footer's words (merge tags: filled per recipient). */
export const TEXT_FOOTER =
  `\n\n—\nSent by {{ shop.name }}{% if shop.address != blank %}, {{ shop.address }}{% endif %}.\n` +
  `${FOOTER_QUESTION} ${FOOTER_LINK}: {{ unsubscribe_url }}\n`;

/** HTML as running text: paragraphs by blank lines, links as "words [address]", lists with bullets. */
export function htmlAsText(html: string): string {
  return convert(html, {
    wordwrap: false,
    selectors: [
      { selector: "a", options: { hideLinkHrefIfSameAsText: true, linkBrackets: ["[", "]"] } },
      { selector: "img", format: "skip" },
      { selector: "h1", options: { uppercase: false } },
      { selector: "h2", options: { uppercase: false } },
      { selector: "h3", options: { uppercase: false } },
      { selector: "table", format: "block" },
      { selector: "tr", format: "block" },
      { selector: "td", format: "block" },
      { selector: "div.preheader", format: "skip" },
      { selector: "title", format: "skip" },
    ],
  }).trim();
}

function columnBlockText(block: ColumnBlock): string {
  switch (block.type) {
    case "heading":
      return block.text;
    case "text":
      return htmlAsText(block.html);
    case "image":
      return block.alt ? (block.href ? `${block.alt} [${block.href}]` : block.alt) : "";
    case "button":
      return `${block.label}: ${block.href}`;
    case "divider":
      return "———";
    case "spacer":
      return "";
  }
}

function blockText(block: Block): string {
  switch (block.type) {
    case "social":
      return block.links.map((link) => `${SOCIAL_LABELS[link.network]}: ${link.url}`).join("\n");
    case "footer":
      return block.text;
    case "columns":
      return block.columns.map((column) => column.map(columnBlockText).filter(Boolean).join("\n\n")).join("\n\n");
    default:
      return columnBlockText(block);
  }
}

/** A blocks template's text part (without the footer, which the caller adds). */
export function blocksText(blocks: readonly Block[]): string {
  return blocks
    .map(blockText)
    .map((text) => text.trim())
    .filter(Boolean)
    .join("\n\n");
}
