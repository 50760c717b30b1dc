// The body of a campaign's e-mail, both parts from one template: a plain-text part and
// a small HTML document (paragraphs, clickable links, everything escaped, one column that reads on a
// phone), both ending in a footer that says once who sent it (the sender's name and postal address:
// no signature is added to the message, which signs off as its author wrote it) with an
// unsubscribe link. Pure: the wizard previews with it in the
// browser and the delivery engine renders every message with it on the server.
//
// Speed: a campaign's template is compiled once (split into paragraphs, escaped, links found); a
// recipient's message is only its escaped name and unsubscribe URL put between precomputed pieces.
// What is substituted is never read again, so a name such as "{UNSUBSCRIBE_URL}" stays plain text.
//
// Tracking (docs/decisions/0025-open-and-click-tracking.md): the message's http(s) links
// (`emailLinks()`, one index per distinct address in order of appearance) are slots too, and so is
// a pixel, the HTML footer's background. A recipient with `tracking` gets their signed click
// addresses in both parts' links (the HTML label stays the original address) and the 1×1 pixel;
// one without gets the links as written and no pixel. The unsubscribe link, mailto: and the pixel
// are never rewritten.
import { personalise } from "~/lib/campaigns";

/** Where the template places the recipient's unsubscribe link; without it the link is appended. */
export const UNSUBSCRIBE_PLACEHOLDER = "{UNSUBSCRIBE_URL}";
const NAME_PLACEHOLDER = "{NAME}";

export type EmailTemplate = {
  message: string;
  subject: string;
  senderName: string;
  /** The sender's postal address, said once in the footer with the name (MAIL_POSTAL_ADDRESS). */
  postalAddress?: string;
};
/** A recipient's tracking addresses: the pixel's, and each link's (its index and original address). */
export type EmailTracking = { openUrl: string; clickUrl: (link: number, url: string) => string };
export type EmailRecipient = { name: string; unsubscribeUrl: string; tracking?: EmailTracking };
export type EmailBody = { text: string; html: string };
/** The text part in its two pieces (the wizard shows the message and its footer apart). */
export type EmailParts = { textMessage: string; textFooter: string; html: string };

export const hasUnsubscribePlaceholder = (message: string) => message.includes(UNSUBSCRIBE_PLACEHOLDER);

// What the footers say.
const UNSUBSCRIBE_QUESTION = "Don't want these e-mails any more?";
const UNSUBSCRIBE_LINK_TEXT = "Unsubscribe";

// The layout: inline styles only (mail clients drop <style> blocks), tables for Outlook.
const FONT =
  "-apple-system,BlinkMacSystemFont,'Segoe UI',Roboto,'Noto Sans','Helvetica Neue',Arial,sans-serif," +
  "'Apple Color Emoji','Segoe UI Emoji','Noto Color Emoji'";
const P_STYLE = "margin:0 0 16px 0;";
const A_STYLE = "color:#2563eb;text-decoration:underline;word-break:break-all;";

const HTML_ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };
/** Text made safe in HTML content and in quoted attribute values. */
export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => HTML_ESCAPES[c]);
}

/** Line breaks, tabs and other control characters in a one-line value (a name, a subject) become one space. */
// eslint-disable-next-line no-control-regex -- control characters are exactly what is replaced
const oneLine = (value: string) => value.replace(/[\u0000-\u001f\u007f\u2028\u2029]+/g, " ");

// A bare web address: http(s):// and what follows up to whitespace, <, > or a quote.
const URL_PATTERN = /\bhttps?:\/\/[^\s<>"]+/gi;
// Punctuation that ends a sentence rather than the address ("see https://x.in/offer.").
const TRAILING = /[.,;:!?'*_~…।॥。、，！？»”’]+$/u;
const CLOSERS: Record<string, string> = { ")": "(", "]": "[", "}": "{" };

/** An address as found in running text, without the punctuation after it and unbalanced closing brackets. */
function trimUrl(found: string): string {
  let url = found;
  for (;;) {
    const before = url;
    url = url.replace(TRAILING, "");
    const last = url.at(-1) ?? "";
    const opener = CLOSERS[last];
    if (opener && url.split(opener).length < url.split(last).length) url = url.slice(0, -1);
    if (url === before) return url;
  }
}

/** Walks running text: `plain` gets the text between its bare http(s) addresses, `link` each address. */
function eachLink(text: string, plain: (part: string) => void, link: (url: string) => void) {
  let at = 0;
  for (const match of text.matchAll(URL_PATTERN)) {
    const url = trimUrl(match[0]);
    if (!/^https?:\/\/./i.test(url)) continue;
    if (match.index > at) plain(text.slice(at, match.index));
    link(url);
    at = match.index + url.length;
  }
  if (at < text.length) plain(text.slice(at));
}

/** Escaped HTML of running text with every bare http(s) address made a link. */
export function linkify(text: string): string {
  let html = "";
  eachLink(
    text,
    (part) => (html += escapeHtml(part)),
    (url) => (html += anchor(escapeHtml(url), escapeHtml(url))),
  );
  return html;
}

/** A link longer than this is left untracked (its token would be too long for some mail clients). */
export const MAX_TRACKED_LINK_CHARS = 2_000;

const anchor = (href: string, label: string) => `<a href="${href}" style="${A_STYLE}">${label}</a>`;

/** What a slot takes: the name, the unsubscribe URL, the pixel, or link i's address (LINK + i). */
type Slot = number;
const NAME = 0;
const UNSUBSCRIBE = 1;
const PIXEL = 2;
const LINK = 3;

/**
 * A text split at its slots: statics[i] comes before slots[i]; the last static ends it. Rendering
 * is string concatenation only, of the values indexed by the slots.
 */
class Pieces {
  readonly statics: string[] = [""];
  readonly slots: Slot[] = [];
  add(fixed: string) {
    this.statics[this.statics.length - 1] += fixed;
  }
  slot(slot: Slot) {
    this.slots.push(slot);
    this.statics.push("");
  }
  render(values: readonly string[]): string {
    const { statics, slots } = this;
    let out = statics[0];
    for (let i = 0; i < slots.length; i++) out += values[slots[i]] + statics[i + 1];
    return out;
  }
}

/** The message's trackable links, numbered in order of first appearance (one number per address). */
class Links {
  readonly urls: string[] = [];
  private readonly index = new Map<string, number>();
  /** The link's number, or -1 for one left untracked. */
  of(url: string): number {
    if (url.length > MAX_TRACKED_LINK_CHARS) return -1;
    let i = this.index.get(url);
    if (i === undefined) {
      i = this.urls.push(url) - 1;
      this.index.set(url, i);
    }
    return i;
  }
}

const PLACEHOLDERS = /\{NAME\}|\{UNSUBSCRIBE_URL\}/g;

/**
 * Which {NAME}s of one text take the name: all of them, or for the wizard's preview only the first
 * (the spec's rule; the others stay as typed). One object per text, shared by its paragraphs.
 */
type NameRule = { onlyFirst: boolean; seen: boolean };
const nameRule = (onlyFirst: boolean): NameRule => ({ onlyFirst, seen: false });

/** Walks a text's placeholders: `fixed` gets the text between them, `slot` each placeholder. */
function eachPlaceholder(text: string, names: NameRule, fixed: (part: string) => void, slot: (slot: Slot) => void) {
  let at = 0;
  for (const match of text.matchAll(PLACEHOLDERS)) {
    if (match.index > at) fixed(text.slice(at, match.index));
    if (match[0] !== NAME_PLACEHOLDER) slot(UNSUBSCRIBE);
    else if (names.onlyFirst && names.seen) fixed(NAME_PLACEHOLDER);
    else {
      names.seen = true;
      slot(NAME);
    }
    at = match.index + match[0].length;
  }
  if (at < text.length) fixed(text.slice(at));
}

/** The message's paragraphs: blocks between blank lines, each without the line breaks around it. */
function paragraphsOf(message: string): string[] {
  return message
    .split(/\n[ \t]*\n/)
    .map((block) => block.replace(/^\n+|\n+$/g, ""))
    .filter((block) => block.trim() !== "");
}

/** Who the message is from, as the footer says it: the name and, when known, the postal address. */
type SenderLine = { name: string; postalAddress: string };

/** "Sent by Name, postal address." ("" without a name or an address). */
function sentByLine({ name, postalAddress }: SenderLine): string {
  const who = [name, postalAddress].filter((part) => part !== "").join(", ");
  return who ? `Sent by ${who}.` : "";
}

function compileText(message: string, sender: SenderLine, placed: boolean, onlyFirstName: boolean, links: Links) {
  const body = new Pieces();
  eachPlaceholder(
    message,
    nameRule(onlyFirstName),
    (part) =>
      eachLink(
        part,
        (text) => body.add(text),
        (url) => {
          const i = links.of(url);
          if (i < 0) body.add(url);
          else body.slot(LINK + i);
        },
      ),
    (slot) => body.slot(slot),
  );
  const footer = new Pieces();
  // The footer says who sent the message, once; the message's own sign-off is the author's.
  const sentBy = sentByLine(sender);
  if (placed) {
    if (sentBy) footer.add(`\n\n—\n${sentBy}`);
  } else {
    footer.add(`\n\n—\n${sentBy ? `${sentBy}\n` : ""}${UNSUBSCRIBE_QUESTION} ${UNSUBSCRIBE_LINK_TEXT}: `);
    footer.slot(UNSUBSCRIBE);
  }
  return { body, footer };
}

function compileHtml(
  message: string,
  subject: string,
  sender: SenderLine,
  placed: boolean,
  onlyFirstName: boolean,
  links: Links,
): Pieces {
  const html = new Pieces();
  html.add(
    "<!DOCTYPE html>\n<html>\n<head>\n" +
      '<meta charset="utf-8">\n' +
      '<meta name="viewport" content="width=device-width, initial-scale=1">\n' +
      '<meta name="color-scheme" content="light">\n' +
      "<title>",
  );
  eachPlaceholder(
    subject,
    nameRule(onlyFirstName),
    (part) => html.add(escapeHtml(part)),
    (slot) => (slot === NAME ? html.slot(NAME) : html.add(escapeHtml(UNSUBSCRIBE_PLACEHOLDER))),
  );
  html.add(
    "</title>\n</head>\n" +
      '<body style="margin:0;padding:0;background-color:#f3f4f6;">\n' +
      '<table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0" style="background-color:#f3f4f6;">\n' +
      '<tr><td align="center" style="padding:24px 12px;">\n' +
      '<table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0" style="max-width:600px;width:100%;">\n' +
      `<tr><td style="background-color:#ffffff;border-radius:8px;padding:24px;font-family:${FONT};font-size:16px;line-height:1.6;color:#1f2937;word-wrap:break-word;overflow-wrap:break-word;">\n`,
  );
  const names = nameRule(onlyFirstName);
  for (const paragraph of paragraphsOf(message)) {
    html.add(`<p style="${P_STYLE}">`);
    eachPlaceholder(
      paragraph,
      names,
      (part) =>
        eachLink(
          part,
          (text) => html.add(escapeHtml(text).replace(/\n/g, "<br>\n")),
          (url) => {
            const i = links.of(url);
            const label = escapeHtml(url);
            if (i < 0) return html.add(anchor(label, label));
            // A tracked link reads as the address it goes to; only its href is the recipient's.
            html.add(`<a href="`);
            html.slot(LINK + i);
            html.add(`" style="${A_STYLE}">${label}</a>`);
          },
        ),
      (slot) => {
        if (slot === NAME) return html.slot(NAME);
        // The placed link reads as the address itself.
        html.add(`<a href="`);
        html.slot(UNSUBSCRIBE);
        html.add(`" style="${A_STYLE}">`);
        html.slot(UNSUBSCRIBE);
        html.add("</a>");
      },
    );
    html.add("</p>\n");
  }
  // The footer cell; with tracking, the open pixel is its background (empty without).
  html.add('</td></tr>\n<tr><td align="center" style="');
  html.slot(PIXEL);
  html.add(`padding:16px 8px;font-family:${FONT};font-size:13px;line-height:1.5;color:#6b7280;">\n`);
  const sentBy = sentByLine(sender);
  if (sentBy) html.add(escapeHtml(sentBy));
  if (!placed) {
    html.add(`${sentBy ? " " : ""}${escapeHtml(UNSUBSCRIBE_QUESTION)} <a href="`);
    html.slot(UNSUBSCRIBE);
    html.add(`" style="color:#6b7280;text-decoration:underline;">${UNSUBSCRIBE_LINK_TEXT}</a>`);
  }
  html.add("\n</td></tr>\n</table>\n</td></tr>\n</table>\n</body>\n</html>\n");
  return html;
}

/** The recipient's name as it goes in: one line, then {NAME}'s rule (trimmed; 'Customer' when empty). */
const nameOf = (name: string) => personalise(NAME_PLACEHOLDER, oneLine(name));

function checkedUrl(url: string): string {
  if (!/^https?:\/\/[^\s<>"]+$/i.test(url)) {
    throw new RangeError(`An unsubscribe link must be an http(s) address without spaces, not "${url}"`);
  }
  return url;
}

/**
 * A campaign's template compiled once; the function it returns renders one recipient's message in
 * both parts, with the text message and its footer apart (compileEmailBody joins them). The
 * wizard's preview asks for `onlyFirstName`: only the first {NAME} of the message and of the
 * subject becomes the name, as the spec's preview does.
 */
export function compileEmailParts(
  template: EmailTemplate,
  { onlyFirstName = false }: { onlyFirstName?: boolean } = {},
): (recipient: EmailRecipient) => EmailParts {
  const message = normalised(template.message);
  const sender = {
    name: oneLine(template.senderName).trim(),
    postalAddress: oneLine(template.postalAddress ?? "").trim(),
  };
  const placed = hasUnsubscribePlaceholder(message);
  const links = new Links();
  const text = compileText(message, sender, placed, onlyFirstName, links);
  const html = compileHtml(message, oneLine(template.subject), sender, placed, onlyFirstName, links);
  const urls = links.urls;
  // Without tracking, a link is its own address: the values are made once.
  const untrackedText = ["", "", "", ...urls];
  const untrackedHtml = ["", "", "", ...urls.map(escapeHtml)];
  return (recipient) => {
    const name = nameOf(recipient.name);
    const url = checkedUrl(recipient.unsubscribeUrl);
    const tracking = recipient.tracking;
    let textValues: string[];
    let htmlValues: string[];
    if (tracking) {
      textValues = [name, url, ""];
      htmlValues = [escapeHtml(name), escapeHtml(url), pixel(tracking.openUrl)];
      for (let i = 0; i < urls.length; i++) {
        const tracked = tracking.clickUrl(i, urls[i]);
        textValues.push(tracked);
        htmlValues.push(escapeHtml(tracked));
      }
    } else {
      textValues = untrackedText.slice();
      htmlValues = untrackedHtml.slice();
      textValues[NAME] = name;
      textValues[UNSUBSCRIBE] = url;
      htmlValues[NAME] = escapeHtml(name);
      htmlValues[UNSUBSCRIBE] = escapeHtml(url);
    }
    return {
      textMessage: text.body.render(textValues),
      textFooter: text.footer.render(textValues),
      html: html.render(htmlValues),
    };
  };
}

const normalised = (message: string) => message.replace(/\r\n?/g, "\n");

/**
 * The open pixel: the footer cell's background, a transparent 1×1 image drawn once in its corner,
 * loaded when the message's images are. A background and not an <img>: an <img> in a short
 * message's HTML reads to spam filters as a message that is an image with little text
 * (SpamAssassin's HTML_IMAGE_ONLY_* rules count any <img> against HTML under 3,200 bytes, which is
 * every short message here), and the pixel is no image of the content. Characters that would end
 * a CSS url() or the attribute are percent-encoded (the address is ours: none are expected).
 */
const pixel = (openUrl: string) =>
  `background-image:url(${escapeHtml(openUrl.replace(/[\s()'"\\]/g, (c) => `%${c.charCodeAt(0).toString(16).padStart(2, "0").toUpperCase()}`))});background-repeat:no-repeat;`;

/**
 * The message's tracked links in the order of their numbers (a click's `link` indexes this list):
 * each distinct http(s) address once, in order of first appearance; mailto: and the unsubscribe
 * link are not among them, nor an address longer than MAX_TRACKED_LINK_CHARS.
 */
export function emailLinks(message: string): string[] {
  const links = new Links();
  compileText(normalised(message), { name: "", postalAddress: "" }, true, false, links);
  return links.urls;
}

/**
 * `compileEmailBody({ message, subject, senderName })` compiles a campaign's template once;
 * the function it returns gives one recipient's text and HTML parts: every {NAME} is their name
 * (`personalise`'s rule), {UNSUBSCRIBE_URL} their unsubscribe link, and without that placeholder
 * a footer with the link ends both parts.
 */
export function compileEmailBody(template: EmailTemplate): (recipient: EmailRecipient) => EmailBody {
  const render = compileEmailParts(template);
  return (recipient) => {
    const parts = render(recipient);
    return { text: parts.textMessage + parts.textFooter, html: parts.html };
  };
}
