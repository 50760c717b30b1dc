// The blocks a template of format "blocks" is made of (docs/decisions/0043-templates-and-merge-tags.md),
// isomorphic: the editor builds them, /api takes them, the server turns them into responsive HTML
// (app/services/templates/). Every text of a block may hold merge tags (~/lib/merge-tags).
import { z } from "zod";

/** Where a block's content sits across the message's width. */
export const ALIGNMENTS = ["left", "center", "right"] as const;
export const SOCIAL_NETWORKS = ["facebook", "instagram", "x", "linkedin", "youtube", "whatsapp", "website"] as const;
export type SocialNetwork = (typeof SOCIAL_NETWORKS)[number];
export const SOCIAL_LABELS: Record<SocialNetwork, string> = {
  facebook: "Facebook",
  instagram: "Instagram",
  x: "X",
  linkedin: "LinkedIn",
  youtube: "YouTube",
  whatsapp: "WhatsApp",
  website: "Website",
};

/** The most blocks a template holds (at the top level and inside columns together). */
export const MAX_BLOCKS = 200;
/** The most blocks one column of a columns block holds. */
export const MAX_COLUMN_BLOCKS = 20;
const MAX_SHORT = 500;
const MAX_RICH = 50_000;
const MAX_URL = 2_000;

const short = (what: string) =>
  z.string({ message: `${what} must be text` }).max(MAX_SHORT, `${what} must be at most ${MAX_SHORT} characters`);
/**
 * An address of a link or an image: http(s), mailto: or tel:, or a merge tag that gives one
 * (`{{ unsubscribe_url }}`); the check before launch names those that are not absolute.
 */
const url = (what: string) =>
  z
    .string({ message: `${what} must be text` })
    .trim()
    .max(MAX_URL, `${what} must be at most ${MAX_URL} characters`);

const align = z.enum(ALIGNMENTS, { message: `Alignment must be one of: ${ALIGNMENTS.join(", ")}` }).default("left");

export const HeadingBlockSchema = z.strictObject({
  type: z.literal("heading"),
  text: short("A heading").min(1, "A heading needs text"),
  level: z.union([z.literal(1), z.literal(2), z.literal(3)], { message: "A heading's level is 1, 2 or 3" }).default(1),
  align,
});
export const TextBlockSchema = z.strictObject({
  type: z.literal("text"),
  /** Rich text as HTML: paragraphs, bold, italic, links, lists (anything else is removed when rendered). */
  html: z
    .string({ message: "A text block must be text" })
    .max(MAX_RICH, `A text block must be at most ${MAX_RICH} characters`),
  align,
});
export const ImageBlockSchema = z.strictObject({
  type: z.literal("image"),
  src: url("An image's address").min(1, "An image needs an address"),
  alt: short("An image's alt text"),
  href: url("An image's link").default(""),
  /** Its width in pixels on a desktop screen (it shrinks on a phone); 0: the full width. */
  width: z.number({ message: "An image's width must be a number" }).int().min(0).max(600).default(0),
  align: align.default("center"),
});
export const ButtonBlockSchema = z.strictObject({
  type: z.literal("button"),
  label: short("A button's label").min(1, "A button needs a label"),
  href: url("A button's link").min(1, "A button needs a link"),
  align: align.default("center"),
});
export const DividerBlockSchema = z.strictObject({ type: z.literal("divider") });
export const SpacerBlockSchema = z.strictObject({
  type: z.literal("spacer"),
  height: z.number({ message: "A spacer's height must be a number" }).int().min(4).max(120).default(24),
});
export const SocialBlockSchema = z.strictObject({
  type: z.literal("social"),
  links: z
    .array(
      z.strictObject({
        network: z.enum(SOCIAL_NETWORKS, { message: `A network is one of: ${SOCIAL_NETWORKS.join(", ")}` }),
        url: url("A social link").min(1, "A social link needs an address"),
      }),
    )
    .min(1, "A social block needs a link")
    .max(10, "A social block holds at most 10 links"),
  align: align.default("center"),
});
/** The footer: a line of the author's own, then always who sent it (name, postal address) and the unsubscribe link. */
export const FooterBlockSchema = z.strictObject({
  type: z.literal("footer"),
  text: short("The footer's text").default(""),
});

/** What a column of a columns block holds: the simple blocks. */
export const ColumnBlockSchema = z.discriminatedUnion(
  "type",
  [HeadingBlockSchema, TextBlockSchema, ImageBlockSchema, ButtonBlockSchema, DividerBlockSchema, SpacerBlockSchema],
  { message: "A column holds headings, text, images, buttons, dividers and spacers" },
);
export const ColumnsBlockSchema = z.strictObject({
  type: z.literal("columns"),
  columns: z
    .array(z.array(ColumnBlockSchema).max(MAX_COLUMN_BLOCKS, `A column holds at most ${MAX_COLUMN_BLOCKS} blocks`))
    .min(2, "A columns block has 2 or 3 columns")
    .max(3, "A columns block has 2 or 3 columns"),
});

export const BlockSchema = z.discriminatedUnion(
  "type",
  [
    HeadingBlockSchema,
    TextBlockSchema,
    ImageBlockSchema,
    ButtonBlockSchema,
    DividerBlockSchema,
    SpacerBlockSchema,
    SocialBlockSchema,
    FooterBlockSchema,
    ColumnsBlockSchema,
  ],
  { message: "Each block's type is one of: heading, text, image, button, divider, spacer, social, footer, columns" },
);

export const BlocksSchema = z
  .array(BlockSchema, { message: "A blocks template's content is a list of blocks" })
  .refine((blocks) => countBlocks(blocks) <= MAX_BLOCKS, `A template holds at most ${MAX_BLOCKS} blocks`);

export type Block = z.infer<typeof BlockSchema>;
export type ColumnBlock = z.infer<typeof ColumnBlockSchema>;
export type BlockType = Block["type"];

export const BLOCK_LABELS: Record<BlockType, string> = {
  heading: "Heading",
  text: "Text",
  image: "Image",
  button: "Button",
  divider: "Divider",
  spacer: "Spacer",
  social: "Social links",
  footer: "Footer",
  columns: "Columns",
};

function countBlocks(blocks: readonly Block[]): number {
  let n = 0;
  for (const block of blocks) n += 1 + (block.type === "columns" ? block.columns.flat().length : 0);
  return n;
}

/** A block's name as a problem's `where` says it: "Block 3 (Button)", "Block 2 (Columns), column 1, block 1 (Text)". */
export function blockPlace(index: number, block: { type: BlockType }, inside?: string): string {
  const here = `${inside ? "block" : "Block"} ${index + 1} (${BLOCK_LABELS[block.type]})`;
  return inside ? `${inside}, ${here}` : here;
}

/** Each text of a block that may hold merge tags, with the block's place and the text's name. */
export function blockTexts(blocks: readonly Block[]): { where: string; text: string }[] {
  const texts: { where: string; text: string }[] = [];
  const walk = (list: readonly (Block | ColumnBlock)[], inside?: string) => {
    list.forEach((block, i) => {
      const where = blockPlace(i, block, inside);
      const add = (name: string, text: string) => texts.push({ where: `${where}, ${name}`, text });
      switch (block.type) {
        case "heading":
          return add("text", block.text);
        case "text":
          return add("text", block.html);
        case "image":
          add("address", block.src);
          add("alt text", block.alt);
          return add("link", block.href);
        case "button":
          add("label", block.label);
          return add("link", block.href);
        case "social":
          return block.links.forEach((link, j) => add(`link ${j + 1}`, link.url));
        case "footer":
          return add("text", block.text);
        case "columns":
          return block.columns.forEach((column, c) => walk(column, `${where}, column ${c + 1}`));
        default:
          return undefined;
      }
    });
  };
  walk(blocks);
  return texts;
}

/** Issues of a value's rules (a label left empty, a number out of range), not of its shape. */
const VALUE_ISSUES = new Set(["too_small", "too_big", "invalid_format", "custom"]);

/**
 * Blocks as the editor autosaved them, which may break the rules (a button whose label is still
 * empty) but keep the shape the editor gave them: those blocks, or null when it is not blocks.
 */
export function draftBlocks(value: unknown): Block[] | null {
  const parsed = BlocksSchema.safeParse(value);
  if (parsed.success) return parsed.data;
  return parsed.error.issues.every((issue) => VALUE_ISSUES.has(issue.code)) ? (value as Block[]) : null;
}
