// The check of a template before it is sent (docs/decisions/0043-templates-and-merge-tags.md):
// what a marketer should fix, read off the message as a recipient would get it. Each problem says
// what and where. The editor shows them beside the preview; a launch refuses a template with any
// (the tags that name nothing above all: they would be empty in every message).
import { Parser } from "htmlparser2";
import type { MergeTagProblem } from "~/lib/merge-tags";
import { GMAIL_CLIP_BYTES } from "~/lib/templates";

export type TemplateProblem = { message: string; where: string };

/** Hosts kept for examples (RFC 2606): a link or image there is one the author has yet to change. */
const EXAMPLE_HOST = /(^|\.)example\.(com|net|org|in)$/i;

type Found = { images: { src: string; alt: string | undefined }[]; links: string[] };

function scan(html: string): Found {
  const found: Found = { images: [], links: [] };
  const parser = new Parser(
    {
      onopentag(name, attributes) {
        if (name === "img") found.images.push({ src: attributes.src ?? "", alt: attributes.alt });
        if (name === "a" && attributes.href !== undefined) found.links.push(attributes.href);
      },
    },
    { decodeEntities: true },
  );
  parser.write(html);
  parser.end();
  return found;
}

const hostOf = (url: string) => {
  try {
    return new URL(url).hostname;
  } catch {
    return "";
  }
};

/** The message's problems, given its HTML and text as the preview renders them, the tag problems and the sender's postal address. */
export function templateProblems(message: {
  html: string;
  text: string;
  tagProblems: readonly MergeTagProblem[];
  postalAddress: string;
  /** The example links the preview puts in (they are the recipient's own when sent). */
  exampleLinks: readonly string[];
  /** The example unsubscribe link among them: both parts must carry it. */
  unsubscribeUrl: string;
}): TemplateProblem[] {
  const problems: TemplateProblem[] = message.tagProblems.map(({ message: text, where }) => ({ message: text, where }));
  const { images, links } = scan(message.html);
  images.forEach((image, i) => {
    const where = `Image ${i + 1}${image.src ? ` (${image.src.slice(0, 80)})` : ""}`;
    if (!image.alt?.trim()) {
      problems.push({
        where,
        message: "It has no alt text: say what it shows, for those who see the message without images",
      });
    }
    if (EXAMPLE_HOST.test(hostOf(image.src))) problems.push({ where, message: "It is an example image: put your own" });
  });
  const seen = new Set<string>();
  for (const href of links) {
    if (seen.has(href) || message.exampleLinks.includes(href)) continue;
    seen.add(href);
    const where = `Link ${href.slice(0, 80)}`;
    if (/^(mailto|tel):/i.test(href)) continue;
    if (!/^https?:\/\/[^\s/]+/i.test(href)) {
      problems.push({ where, message: "It is not an absolute http(s) address: it would not open from a mail client" });
    } else if (EXAMPLE_HOST.test(hostOf(href))) {
      problems.push({ where, message: "It is an example address: put your own" });
    }
  }
  const bytes = new TextEncoder().encode(message.html).length;
  if (bytes > GMAIL_CLIP_BYTES) {
    problems.push({
      where: "Message",
      message: `It is ${Math.ceil(bytes / 1024)} KB: Gmail shows the first 102 KB and hides the rest behind a link`,
    });
  }
  if (!message.text.trim()) problems.push({ where: "Text part", message: "It is empty" });
  // The link is added unless the author placed it; placed where it never shows (a comment, a
  // branch never taken), it is missing all the same.
  for (const [where, part] of [
    ["Message", message.html],
    ["Text part", message.text],
  ] as const) {
    if (!part.includes(message.unsubscribeUrl)) {
      problems.push({ where, message: "It has no unsubscribe link: put {{ unsubscribe_url }} where it shows" });
    }
  }
  if (!message.postalAddress.trim()) {
    problems.push({
      where: "Footer",
      message:
        "No postal address: many countries' laws require the sender's; set MAIL_POSTAL_ADDRESS and restart the server",
    });
  }
  return problems;
}
