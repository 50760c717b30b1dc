// A template made into a message (docs/decisions/0043-templates-and-merge-tags.md): compiled once
// (blocks and Markdown through MJML into responsive HTML, HTML as the author wrote it, every text
// parsed for its merge tags), then filled per recipient, which is only LiquidJS putting values
// into parsed templates. What the preview shows and what is sent come from these two functions.
import { marked } from "marked";
import { type EmailTracking, escapeHtml, MAX_TRACKED_LINK_CHARS } from "~/lib/email-body";
import { compileMergeParts, MergeTagError, type MergeParts, type MergeValues } from "~/lib/merge-tags";
import type { Block } from "~/lib/template-blocks";
import type { Brand } from "~/lib/template-brand";
import type { TemplateFormat } from "~/lib/templates";
import { toOneLine } from "~/schemas/text";
import { blocksMjml, htmlMjml } from "./blocks-mjml.server";
import { tagMarkers } from "./tag-markers.server";
import { blocksText, htmlAsText, TEXT_FOOTER } from "./text-part.server";

/**
 * MJML, loaded when a design is first compiled: importing it costs seconds of CPU (about 2 s on the
 * 2-core machines), which every process that never compiles a design (a CLI command, a server
 * that sends only plain text, each test file) would otherwise pay at start.
 */
let mjml: Promise<typeof import("mjml").default> | null = null;
const loadMjml = () => (mjml ??= import("mjml").then((module) => module.default));

/** What a template is made of, as stored. */
export type TemplateSource = {
  format: TemplateFormat;
  subject: string;
  preheader: string;
  /** Blocks (already checked), or the HTML or Markdown text. */
  content: readonly Block[] | string;
  /** The text part as the author edited it, or null to derive it from the design. */
  text: string | null;
};

export type CompiledTemplate = {
  /** The subject, the HTML and the text, filled together. */
  parts: MergeParts;
  /** The compiled HTML and text with their merge tags, before any recipient's values. */
  htmlSource: string;
  textSource: string;
  /**
   * With tracking: the HTML's links in the order of their numbers (a click token's `link`), as
   * written (merge tags in place), and those tags parsed when any has one.
   */
  links: { sources: string[]; parts: MergeParts | null } | null;
};

export type RenderedMessage = { subject: string; html: string; text: string };

/** A template that cannot be compiled: what and where. */
export class TemplateCompileError extends Error {
  constructor(
    message: string,
    readonly where: string,
  ) {
    super(message);
  }
}

const PREHEADER_STYLE =
  "display:none;max-height:0;max-width:0;overflow:hidden;opacity:0;mso-hide:all;font-size:1px;line-height:1px;";
const UNSUBSCRIBE_TAG = /\{\{-?\s*unsubscribe_url\b|\{UNSUBSCRIBE_URL\}/;

/** The author's HTML with the preheader hidden at the top of the body and the footer when the unsubscribe link is missing. */
function authoredHtml(html: string, preheader: string): string {
  let out = html;
  if (preheader) {
    const hidden = `<div class="preheader" style="${PREHEADER_STYLE}">${preheader}</div>`;
    out = /<body\b[^>]*>/i.test(out)
      ? out.replace(/<body\b[^>]*>/i, (body) => `${body}\n${hidden}`)
      : `${hidden}\n${out}`;
  }
  if (!UNSUBSCRIBE_TAG.test(html)) {
    const footer =
      `<p style="font-size:13px;color:#6b7280;text-align:center;">Sent by {{ shop.name }}{% if shop.address != blank %}, {{ shop.address }}{% endif %}. ` +
      `Don't want these e-mails any more? <a href="{{ unsubscribe_url }}" style="color:#6b7280;">Unsubscribe</a></p>`;
    out = /<\/body>/i.test(out) ? out.replace(/<\/body>/i, `${footer}\n</body>`) : `${out}\n${footer}`;
  }
  return out;
}

async function compileMjml(source: string): Promise<string> {
  // No web fonts: MJML would link Google Fonts for a font it knows (Roboto in the stack), a request
  // to a third party from every recipient's mail client.
  // No file is ever read (mj-include), whatever the markup says.
  try {
    const mjml2html = await loadMjml();
    const result = await mjml2html(source, {
      validationLevel: "soft",
      keepComments: false,
      fonts: {},
      ignoreIncludes: true,
    });
    return result.html;
  } catch (error) {
    throw new TemplateCompileError(
      `The design could not be made into e-mail HTML (${error instanceof Error ? error.message : String(error)})`,
      "Message",
    );
  }
}

/** The design's HTML and derived text, both with merge tags in place. */
async function designOf(source: TemplateSource, brand: Brand): Promise<{ html: string; text: string }> {
  const markers = tagMarkers();
  const preheader = markers.mark(source.preheader);
  const title = markers.mark(source.subject);
  if (source.format === "html") {
    const html = String(source.content);
    return {
      // The preheader is text: escaped like the blocks', its merge tags kept.
      html: authoredHtml(html, markers.restore(escapeHtml(preheader))),
      text: markers.restore(htmlAsText(markers.mark(html))) + TEXT_FOOTER,
    };
  }
  if (source.format === "markdown") {
    const markdown = markers.mark(String(source.content));
    const html = await marked.parse(markdown, { async: true, gfm: true });
    const mjml = htmlMjml(html, brand, title, preheader, markers.mark);
    return { html: markers.restore(await compileMjml(mjml)), text: markers.restore(markdown.trim()) + TEXT_FOOTER };
  }
  const blocks = (source.content as readonly Block[]).map((block) => markBlock(block, markers.mark));
  const mjml = blocksMjml(blocks, brand, title, preheader, markers.mark);
  return { html: markers.restore(await compileMjml(mjml)), text: markers.restore(blocksText(blocks)) + TEXT_FOOTER };
}

/** Every text of a block with its merge tags as markers. */
function markBlock<T>(value: T, mark: (text: string) => string): T {
  if (typeof value === "string") return mark(value) as T;
  if (Array.isArray(value)) return value.map((v: unknown) => markBlock(v, mark)) as T;
  if (value && typeof value === "object") {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, k === "type" ? v : markBlock(v, mark)])) as T;
  }
  return value;
}

/** Where a sent message's tracking goes: each tracked link's address, and the open pixel's. */
const TRACKED_LINK = (n: number) => `{{ tracked_links[${n}] }}`;
const PIXEL = `<img src="{{ tracked_open }}" width="1" height="1" alt="" style="display:block;width:1px;height:1px;border:0;">`;
const LINK_TAGS_HREF = /^(\{\{-?\s*(unsubscribe_url|view_in_browser_url)\b|\{UNSUBSCRIBE_URL\})/;

const HREF = /(<a\b[^>]*?\shref=)"((?:\{\{[\s\S]*?\}\}|\{%[\s\S]*?%\}|[^"])*)"/gi;
const ENTITIES: Record<string, string> = { "&amp;": "&", "&quot;": '"', "&lt;": "<", "&gt;": ">" };
/** An attribute's text: the named entities HTML writes in one, and numeric ones (&#39;, &#x26;). */
const decoded = (attribute: string) =>
  attribute.replace(/&(?:amp|quot|lt|gt|#(\d{1,7})|#x([0-9a-f]{1,6}));/gi, (e, dec?: string, hex?: string) => {
    const code = dec !== undefined ? Number(dec) : hex !== undefined ? parseInt(hex, 16) : NaN;
    if (Number.isNaN(code)) return ENTITIES[e.toLowerCase()] ?? e;
    return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : e;
  });

/**
 * The HTML with a slot for each link that is tracked (an http(s) address, or one a merge tag
 * writes; not the unsubscribe or view-in-browser link, nor mailto:) and for the open pixel at the
 * end of the body; the links, as written, numbered in order of first appearance.
 */
function withTrackingSlots(html: string): { html: string; links: string[] } {
  const links: string[] = [];
  // A merge tag inside the address may hold quotes of its own (`default: "…"`): a tag is read whole.
  const slotted = html.replace(HREF, (whole, start: string, raw: string) => {
    const href = decoded(raw).trim();
    if (LINK_TAGS_HREF.test(href) || !(/^https?:\/\//i.test(href) || href.startsWith("{{"))) return whole;
    let n = links.indexOf(href);
    if (n < 0) n = links.push(href) - 1;
    return `${start}"${TRACKED_LINK(n)}"`;
  });
  const withPixel = /<\/body>/i.test(slotted)
    ? slotted.replace(/<\/body>/i, `${PIXEL}\n</body>`)
    : `${slotted}\n${PIXEL}`;
  return { html: withPixel, links };
}

/**
 * Compiles a template once; throws TemplateCompileError naming the part that does not parse. With
 * `tracking`, as a campaign that tracks sends it: its links and the open pixel are slots that
 * renderTemplate fills with the recipient's tracking addresses (the rest is byte for byte what the
 * preview shows).
 */
export async function compileTemplate(
  source: TemplateSource,
  brand: Brand,
  { tracking = false }: { tracking?: boolean } = {},
): Promise<CompiledTemplate> {
  const design = await designOf(source, brand);
  const textSource = source.text === null ? design.text : withTextFooter(source.text);
  const tracked = tracking ? withTrackingSlots(design.html) : null;
  try {
    const parts = compileMergeParts([
      { source: source.subject, kind: "text", where: "Subject" },
      { source: tracked?.html ?? design.html, kind: "html", where: "Message" },
      { source: textSource, kind: "text", where: "Text part" },
    ]);
    const links = tracked
      ? {
          sources: tracked.links,
          parts: tracked.links.some((l) => l.includes("{"))
            ? compileMergeParts(tracked.links.map((l) => ({ source: l, kind: "text" as const, where: "Link" })))
            : null,
        }
      : null;
    return { parts, htmlSource: design.html, textSource, links };
  } catch (error) {
    if (error instanceof MergeTagError) throw new TemplateCompileError(error.reason, error.where);
    throw error;
  }
}

/** An edited text part keeps the unsubscribe link: the footer is added when it lacks one. */
const withTextFooter = (text: string) => (UNSUBSCRIBE_TAG.test(text) ? text : text.trimEnd() + TEXT_FOOTER);

/**
 * One recipient's message; throws MergeTagError when a render passes its limits. A template
 * compiled with tracking gets the recipient's tracked links and open pixel from `tracking` (its
 * links as they are without it).
 */
export function renderTemplate(
  compiled: CompiledTemplate,
  values: MergeValues,
  tracking?: EmailTracking,
): RenderedMessage {
  const links = compiled.links;
  let filled = values;
  if (links) {
    const urls = links.parts ? links.parts.fill(values) : links.sources;
    filled = {
      ...values,
      tracked_links: urls.map((url, n) =>
        tracking && TRACKABLE.test(url) && url.length <= MAX_TRACKED_LINK_CHARS ? tracking.clickUrl(n, url) : url,
      ),
      tracked_open: tracking?.openUrl ?? "",
    };
  }
  const [subject, html, text] = compiled.parts.fill(filled);
  return { subject: toOneLine(subject), html, text };
}

const TRACKABLE = /^https?:\/\/[^\s<>"]+$/i;
