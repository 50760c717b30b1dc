// Merge tags: the Liquid placeholders of a template's subject, preheader, HTML and text
// (docs/decisions/0043-templates-and-merge-tags.md), with LiquidJS as the engine. Isomorphic: the
// editor checks what is typed with the same rules the server applies when it saves and launches.
//
// What cannot go wrong, by construction:
// - Values are HTML-escaped in HTML (`outputEscape`), written as they are in the text part, and a
//   value that reaches a one-line place (the subject, the preheader) is made one line.
// - A template reads nothing but the values it is given: no files (`include`, `render`, `layout`
//   are refused when the template is parsed), no own properties of the prototype
//   (`ownPropertyOnly`), no filters that do not exist (`strictFilters`).
// - A render has limits: time, memory (the length of the strings it makes) and the size of what it
//   parses; a template over them is refused with a message, at save time when its loops are
//   bounded by the template itself, at send time otherwise (the render fails for that recipient).
// - A tag naming something the product does not have (`{{ customer.shoe_size }}` with no such
//   field) is found by `mergeTagProblems()`, with its line and column, before anything is saved.
//
// `{NAME}` and `{UNSUBSCRIBE_URL}`, the tags of the first messages, are read as
// `{{ customer.name }}` and `{{ unsubscribe_url }}`.
import { analyzeSync, Liquid, Output, type Template, TypeGuards } from "liquidjs";
import { BUILT_IN_FIELDS } from "~/lib/custom-fields";

/** The most characters one template text (its HTML, its Markdown, its blocks' JSON) may hold. */
export const MAX_TEMPLATE_CHARS = 500_000;
/** The most milliseconds one render may take. */
export const RENDER_LIMIT_MS = 100;
/** The most characters of strings one render may make (loops that build text stop here). */
export const RENDER_MEMORY_LIMIT = 5_000_000;

/** The customer's values read from the customer's own record, by their tag name. */
const CUSTOMER_COLUMNS = [
  "name",
  "first_name",
  "last_name",
  "email",
  "phone",
  "address",
  "company",
  "total_spend",
  "visits",
] as const;
export const CUSTOMER_COLUMN_TAGS: ReadonlySet<string> = new Set(CUSTOMER_COLUMNS);
/** The customer's values every tenant has, by their tag name: the record's and the built-in fields. */
export const CUSTOMER_TAGS = [...CUSTOMER_COLUMNS, ...BUILT_IN_FIELDS.map((f) => f.name)] as const;
/** The last order's values (`last_order` is empty for a customer without orders). */
export const LAST_ORDER_TAGS = ["amount", "total", "date", "status"] as const;
/** The sender's values. */
export const SHOP_TAGS = ["name", "address"] as const;
/** The links every message has. */
export const LINK_TAGS = ["unsubscribe_url", "view_in_browser_url"] as const;

/** What a tag can name: the roots with their members, and the plain values. */
export type KnownTags = { customer: ReadonlySet<string>; last_order: ReadonlySet<string>; shop: ReadonlySet<string> };

/** The tags a tenant's templates may use: the built-in ones and one per field the tenant defined. */
export function knownMergeTags(customFieldNames: readonly string[]): KnownTags {
  return {
    customer: new Set([...CUSTOMER_TAGS, ...customFieldNames]),
    last_order: new Set(LAST_ORDER_TAGS),
    shop: new Set(SHOP_TAGS),
  };
}

/** One recipient's values, as the tags read them. */
export type MergeValues = {
  customer: Record<string, string | number | boolean | null>;
  last_order: Record<string, string | number | boolean | null> | null;
  shop: { name: string; address: string };
  unsubscribe_url: string;
  view_in_browser_url: string;
  /** A sent message's tracked links and open pixel (the slots a tracked template has; no tag of the author's). */
  tracked_links?: string[];
  tracked_open?: string;
};

/**
 * A problem of a template's tags: what, and where (the part, the line and column); `syntax` when
 * the text does not parse (saving is refused), `unknown` when a tag names nothing the product has
 * (launching is refused).
 */
export type MergeTagProblem = { kind: "syntax" | "unknown"; message: string; where: string };

const FILE_TAGS = ["include", "render", "layout"] as const;
const FILE_MESSAGE = "Templates cannot include other files";
const RAW_MESSAGE = "{% raw %} is not allowed: its text would reach the message without being escaped";

function engine(escape: boolean): Liquid {
  const liquid = new Liquid({
    ...(escape ? { outputEscape: "escape" as const } : {}),
    strictFilters: true,
    ownPropertyOnly: true,
    parseLimit: MAX_TEMPLATE_CHARS * 2,
    renderLimit: RENDER_LIMIT_MS,
    memoryLimit: RENDER_MEMORY_LIMIT,
    // No file system: a tag that reads one is refused when parsed (below), and this makes sure.
    relativeReference: false,
    fs: {
      exists: async () => false,
      existsSync: () => false,
      readFile: async () => Promise.reject(new Error(FILE_MESSAGE)),
      readFileSync: () => {
        throw new Error(FILE_MESSAGE);
      },
      resolve: (_root: string, file: string) => file,
      sep: "/",
    },
  });
  for (const [tag, message] of [...FILE_TAGS.map((t) => [t, FILE_MESSAGE] as const), ["raw", RAW_MESSAGE] as const]) {
    liquid.registerTag(tag, {
      parse() {
        throw new Error(message);
      },
      render() {
        return "";
      },
    });
  }
  // The built-in `raw` filter marks a value as safe HTML; here it is a plain filter, so the value
  // is escaped like any other (a customer's name cannot become markup).
  liquid.registerFilter("raw", (value: unknown) => value);
  return liquid;
}

/** The engine of HTML (values escaped) and the one of plain text (values as they are). */
const HTML_ENGINE = engine(true);
const TEXT_ENGINE = engine(false);

/** The first messages' tags as Liquid: `{NAME}` and `{UNSUBSCRIBE_URL}` (not inside `{{ }}`). */
export function withLegacyTags(source: string): string {
  return source
    .replace(/(?<!\{)\{NAME\}(?!\})/g, "{{ customer.name }}")
    .replace(/(?<!\{)\{UNSUBSCRIBE_URL\}(?!\})/g, "{{ unsubscribe_url }}");
}

/** One text to fill: its source, whether it is HTML (values escaped) or text, and its name in a problem. */
export type MergePart = { source: string; kind: "html" | "text"; where: string };

/**
 * Texts parsed once and filled together per recipient. Speed: a message's parts (subject, HTML,
 * text) are mostly static; LiquidJS's cost is per render call and per tag, so each kind's tags are
 * rendered in one call, each distinct output tag once (the first name in the title, the preheader
 * and the heading is one), and the static text between them is only joined.
 */
export type MergeParts = { fill(values: MergeValues): string[] };

/**
 * A part as static strings and what goes between them: a tag's result in a LiquidJS render (its
 * index; ~index for a render of the shop's tags), or a simple output computed without LiquidJS.
 */
type PartPlan = { statics: string[]; slots: (number | FastOutput)[]; kind: "html" | "text" };

/** `{{ a.b.c }}`, `{{ a[0] }}` or `{{ a.b | default: "text" }}`, read as LiquidJS reads it, without a render. */
type FastOutput = (values: MergeValues) => string;

const SIMPLE_OUTPUT =
  /^\{\{\s*([A-Za-z_]\w*(?:\.[A-Za-z_]\w*|\[\d+\])*)\s*(?:\|\s*default:\s*(?:"([^"\\]*)"|'([^'\\]*)'))?\s*\}\}$/;
/** Members LiquidJS reads in its own way (a string's or a list's size, first, last, length): left to it. */
const LIQUID_MEMBERS = new Set(["size", "first", "last", "length"]);
/** The roots of the values a message is filled with. */
const FAST_ROOTS = new Set([
  "customer",
  "last_order",
  "shop",
  "unsubscribe_url",
  "view_in_browser_url",
  "tracked_links",
  "tracked_open",
]);
/** LiquidJS's escape: the same five characters, the same entities. */
const ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&#34;", "'": "&#39;" };
const escapeOutput = (text: string) => text.replace(/[&<>"']/g, (c) => ESCAPES[c] ?? c);

/** Text as LiquidJS writes a value: nothing for nil, lists joined, the rest as strings. */
function liquidText(value: unknown): string {
  if (value === null || value === undefined) return "";
  if (Array.isArray(value)) return value.map(liquidText).join("");
  return String(value);
}

/**
 * A simple output as a function of the values, or null when the tag is not one: the path read
 * through own properties only (ownPropertyOnly), LiquidJS's `default` (for an empty text or list,
 * nil or false), its text, escaped in HTML as LiquidJS escapes. The same characters as a render
 * (a test compares them), at a fraction of its cost (docs/decisions/0043-templates-and-merge-tags.md).
 */
function fastOutput(template: Template, kind: "html" | "text"): FastOutput | null {
  if (!(template instanceof Output)) return null;
  const match = SIMPLE_OUTPUT.exec(template.token.getText());
  if (!match) return null;
  // `a.b[2].c` read as the segments a, b, 2, c.
  const path = match[1].split(/\.|\[(\d+)\]/).filter((segment) => segment !== undefined && segment !== "");
  // Only the values' own roots (not `true`, a literal); an index only of the tracked links (a
  // string's index is a character to LiquidJS); none of the members LiquidJS reads its own way.
  if (!FAST_ROOTS.has(path[0]) || path.some((segment) => LIQUID_MEMBERS.has(segment))) return null;
  if (path.some((segment, i) => /^\d+$/.test(segment) && !(i === 1 && path[0] === "tracked_links"))) return null;
  const fallback = match[2] ?? match[3];
  return (values) => {
    let value: unknown = values;
    for (const segment of path) {
      value =
        value !== null && typeof value === "object" && Object.hasOwn(value, segment)
          ? (value as Record<string, unknown>)[segment]
          : undefined;
    }
    if (fallback !== undefined) {
      const empty =
        typeof value === "string" || Array.isArray(value)
          ? value.length === 0
          : value === null || value === undefined || value === false;
      if (empty) value = fallback;
    }
    const text = liquidText(value);
    return kind === "html" ? escapeOutput(text) : text;
  };
}

/** A template that did not parse or did not render within its limits; the message says which and where. */
export class MergeTagError extends Error {
  constructor(
    readonly reason: string,
    readonly where = "",
  ) {
    super(where ? `${where}: ${reason}` : reason);
  }
}

/** Parses the parts (throws a MergeTagError naming the part and the place) and plans their filling. */
export function compileMergeParts(parts: readonly MergePart[]): MergeParts {
  // What separates the tags' results in one render: a marker no value or template holds.
  const marker = `\u0000${Math.random().toString(36).slice(2)}${Date.now().toString(36)}\u0000`;
  const separator = parseOrThrow(HTML_ENGINE, marker, "separator")[0];
  // Per kind: the tags filled per recipient, and those that read only the shop (filled once per sender).
  const lists = { html: [[], []] as Template[][], text: [[], []] as Template[][] };
  const seen = new Map<string, number>();
  const parsedParts = parts.map(({ source, kind, where }) =>
    parseOrThrow(kind === "html" ? HTML_ENGINE : TEXT_ENGINE, withLegacyTags(source), where),
  );
  // A tag that writes a value (assign, capture…), at the top or inside a block, makes the same
  // output differ by where it is: then every output is filled where it is written, by LiquidJS.
  const dedupe =
    !parsedParts.flat().some((t) => TypeGuards.isTagToken(t.token) && WRITING_TAGS.has(t.token.name)) &&
    !parts.some(({ source }) => WRITING_TAG_TEXT.test(source));
  const plans: PartPlan[] = parts.map(({ kind }, index) => {
    const parsed = parsedParts[index];
    const plan: PartPlan = { statics: [""], slots: [], kind };
    for (const template of parsed) {
      if (TypeGuards.isHTMLToken(template.token)) {
        plan.statics[plan.statics.length - 1] += template.token.getContent();
        continue;
      }
      // A tag that writes a value may be read by an output: then LiquidJS fills every one.
      const fast = dedupe ? fastOutput(template, kind) : null;
      if (fast) {
        plan.slots.push(fast);
        plan.statics.push("");
        continue;
      }
      const constant = readsOnlyTheShop(template) ? 1 : 0;
      // An output tag is the same wherever it is written; a block tag is its own.
      const key = dedupe && template instanceof Output ? `${kind}${constant}${template.token.getText()}` : undefined;
      let slot = key === undefined ? undefined : seen.get(key);
      if (slot === undefined) {
        slot = lists[kind][constant].push(template) - 1;
        if (key !== undefined) seen.set(key, slot);
      }
      plan.slots.push(constant === 1 ? ~slot : slot);
      plan.statics.push("");
    }
    return plan;
  });
  const joined = (list: Template[]) => list.flatMap((t, i) => (i === 0 ? [t] : [separator, t]));
  const renders = (Object.keys(lists) as ("html" | "text")[]).map((kind) => ({
    kind,
    engine: kind === "html" ? HTML_ENGINE : TEXT_ENGINE,
    perRecipient: joined(lists[kind][0]),
    perShop: joined(lists[kind][1]),
  }));
  let shop: MergeValues["shop"] | undefined;
  const shopResults = { html: [] as string[], text: [] as string[] };
  return {
    fill(values) {
      const results = { html: [] as string[], text: [] as string[] };
      for (const { kind, engine, perRecipient, perShop } of renders) {
        if (perRecipient.length > 0) results[kind] = renderOrThrow(engine, perRecipient, values).split(marker);
        if (shop !== values.shop && perShop.length > 0)
          shopResults[kind] = renderOrThrow(engine, perShop, values).split(marker);
      }
      shop = values.shop;
      return plans.map(({ statics, slots, kind }) => {
        let out = statics[0];
        for (let i = 0; i < slots.length; i++) {
          const slot = slots[i];
          out +=
            (typeof slot === "function" ? slot(values) : slot >= 0 ? results[kind][slot] : shopResults[kind][~slot]) +
            statics[i + 1];
        }
        return out;
      });
    },
  };
}

/** Tags that write a value for later tags: filled with them, per recipient, whatever they read. */
const WRITING_TAGS = new Set(["assign", "capture", "increment", "decrement", "cycle", "liquid"]);
/** A writing tag anywhere in a text, nested in a block included. */
const WRITING_TAG_TEXT = /\{%-?\s*(?:assign|capture|increment|decrement|cycle|liquid)\b/;

/** Whether a tag's result depends on the shop's values only (the same for every recipient of a sender). */
function readsOnlyTheShop(template: Template): boolean {
  if (TypeGuards.isTagToken(template.token) && WRITING_TAGS.has(template.token.name)) return false;
  const analysis = analyzeSync([template]);
  if (Object.keys(analysis.locals).length > 0) return false;
  return Object.keys(analysis.globals).every((root) => root === "shop");
}

function parseOrThrow(liquid: Liquid, source: string, where: string): Template[] {
  try {
    return liquid.parse(source);
  } catch (error) {
    throw new MergeTagError(describeLiquidError(error), where);
  }
}

function renderOrThrow(liquid: Liquid, templates: Template[], values: MergeValues): string {
  try {
    return liquid.renderSync(templates, values) as string;
  } catch (error) {
    throw new MergeTagError(describeLiquidError(error));
  }
}

/** LiquidJS's message without its own framing: "unclosed output at line 2, column 5" reads better. */
function describeLiquidError(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  const located = /^(.*?),\s*line:(\d+),\s*col:(\d+)/s.exec(text);
  const what = (located ? located[1] : text).trim();
  const plain = what
    .replace(/^output "(.*)" not closed$/s, (_m, tag: string) => `The tag ${short(tag)} is not closed`)
    .replace(/^tag "?(\{%.*?%\})"? not closed$/s, (_m, tag: string) => `The tag ${short(tag)} is not closed`)
    .replace(/^tag (\{%.*?%\}) not closed$/s, (_m, tag: string) => `The tag ${short(tag)} is not closed`)
    .replace(/^undefined filter: (.*)$/, "There is no filter named $1")
    .replace(/^memory alloc limit exceeded$/, "The template makes too much text (a loop without bound?)")
    .replace(/^template render limit exceeded$/, "The template takes too long to fill (a loop without bound?)")
    .replace(/^parse length limit exceeded$/, "The template is too long");
  return located ? `${plain} (line ${located[2]}, column ${located[3]})` : plain;
}

const short = (tag: string) => (tag.length > 40 ? `${tag.slice(0, 37)}…` : tag);

/** Values that are local to the template (assign, capture, for) are not tags of the product. */
function unknownTag(segments: readonly (string | number | unknown)[], known: KnownTags): string | undefined {
  const [root, member] = segments;
  const name = segments.filter((s) => typeof s === "string" || typeof s === "number").join(".");
  if (root === "unsubscribe_url" || root === "view_in_browser_url") {
    return segments.length === 1 ? undefined : name;
  }
  if (root === "customer" || root === "last_order" || root === "shop") {
    // A bare root prints an object, never what was meant.
    if (member === undefined) return name;
    return typeof member === "string" && known[root].has(member) ? undefined : name;
  }
  return name;
}

/**
 * Every problem of a template text's tags, in order: a syntax error (with where it is), or each
 * tag that names a value the product does not have. `part` names the text ("Subject", "Block 3
 * (Button)") in the answer's `where`.
 */
export function mergeTagProblems(source: string, part: string, known: KnownTags): MergeTagProblem[] {
  if (source.length > MAX_TEMPLATE_CHARS) {
    return [
      {
        kind: "syntax",
        message: `The template is longer than ${MAX_TEMPLATE_CHARS.toLocaleString("en-IN")} characters`,
        where: part,
      },
    ];
  }
  let parsed: Template[];
  try {
    parsed = TEXT_ENGINE.parse(withLegacyTags(source));
  } catch (error) {
    return [{ kind: "syntax", message: describeLiquidError(error), where: part }];
  }
  const problems: MergeTagProblem[] = [];
  const analysis = analyzeSync(parsed);
  for (const variables of Object.values(analysis.globals)) {
    for (const variable of variables) {
      const unknown = unknownTag(variable.segments, known);
      if (!unknown) continue;
      const { row, col } = variable.location;
      problems.push({
        kind: "unknown",
        message: `There is no merge tag "${unknown}"`,
        where: `${part}, line ${row}, column ${col}`,
      });
    }
  }
  return problems;
}
