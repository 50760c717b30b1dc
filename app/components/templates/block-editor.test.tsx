// The block editor as the server renders it: the hidden input holds the blocks as JSON, each
// block's card shows its label and its fields, every label names a control of its own, the buttons
// that cannot act are disabled, and nothing but the hidden input posts with the form.
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { BlockEditor } from "~/components/templates/block-editor";
import { TEXT_LABEL } from "~/components/templates/block-fields";
import { BLOCK_TYPES, COLUMN_BLOCK_TYPES, newBlock } from "~/lib/block-editor-state";
import { BLOCK_LABELS, type Block, type BlockType } from "~/lib/template-blocks";

const render = (blocks: Block[]) =>
  renderToStaticMarkup(<BlockEditor name="content" initialBlocks={blocks} onChange={() => {}} />);

const decode = (s: string) =>
  s
    .replaceAll("&quot;", '"')
    .replaceAll("&#x27;", "'")
    .replaceAll("&lt;", "<")
    .replaceAll("&gt;", ">")
    .replaceAll("&amp;", "&");
const strip = (s: string) => decode(s.replace(/<[^>]*>/g, "")).trim();

/** Each label's text, with whether a control has the id its `for` names. */
function labels(html: string): { text: string; tied: boolean }[] {
  return [...html.matchAll(/<label[^>]*for="([^"]+)"[^>]*>(.*?)<\/label>/g)].map((m) => ({
    text: strip(m[2]),
    tied: new RegExp(`<(input|select|textarea)[^>]*id="${m[1].replace(/[:.]/g, "\\$&")}"`).test(html),
  }));
}
const labelTexts = (html: string) => labels(html).map((l) => l.text.replace(/\s*\*$/, ""));
/** The buttons: their name (aria-label or text) and whether they are disabled. */
const buttons = (html: string) =>
  [...html.matchAll(/<button([^>]*)>(.*?)<\/button>/g)].map((m) => ({
    name: /aria-label="([^"]+)"/.exec(m[1])?.[1] ?? strip(m[2]),
    disabled: /\sdisabled=""/.test(m[1]),
    type: /type="([^"]+)"/.exec(m[1])?.[1],
  }));
/** The values of the options of the select labelled `label`. */
function optionsOf(html: string, label: string): string[] {
  const id = new RegExp(`<label[^>]*for="([^"]+)"[^>]*>${label}`).exec(html)?.[1];
  const select = new RegExp(`<select[^>]*id="${id}"[^>]*>(.*?)</select>`).exec(html)?.[1] ?? "";
  return [...select.matchAll(/<option[^>]*value="([^"]*)"/g)].map((m) => m[1]);
}

const FIELDS: Record<Exclude<BlockType, "columns">, string[]> = {
  heading: ["Text", "Level", "Alignment"],
  text: [TEXT_LABEL, "Alignment"],
  image: ["Image address", "Upload an image", "Alt text", "Link (optional)", "Width (px)", "Alignment"],
  button: ["Label", "Link", "Alignment"],
  divider: [],
  spacer: ["Height (px)"],
  social: ["Network 1", "Address 1", "Alignment"],
  footer: ["Footer text"],
};

describe("the block editor", () => {
  it("posts the blocks as JSON in one hidden input, and nothing else", () => {
    const blocks: Block[] = [
      { type: "heading", text: 'Hello "you" & <friends>', level: 2, align: "center" },
      newBlock("columns"),
      newBlock("social"),
    ];
    const html = render(blocks);
    const hidden = [...html.matchAll(/<input type="hidden" name="content" value="([^"]*)"/g)];
    expect(hidden).toHaveLength(1);
    expect(JSON.parse(decode(hidden[0][1]))).toEqual(blocks);
    expect([...html.matchAll(/\sname="/g)]).toHaveLength(1);
    // A merge tag in an address must not stop the form: no type="url", no required.
    expect(html).not.toMatch(/type="url"|\srequired=""/);
    expect(buttons(html).every((b) => b.type === "button")).toBe(true);
  });

  it.each(Object.entries(FIELDS))("shows a %s block's label and its labelled fields", (type, fields) => {
    const block = newBlock(type as BlockType);
    const html = render([block]);
    expect(html).toContain(`${BLOCK_LABELS[block.type]}</h3>`);
    expect(labelTexts(html)).toEqual([...fields, "Add block"]);
    expect(labels(html).every((l) => l.tied)).toBe(true);
  });

  it("shows the text of each field", () => {
    const html = render([
      { type: "image", src: "https://x.test/a.png", alt: "A cat", href: "", width: 320, align: "right" },
      { type: "text", html: "<p>Hi <b>there</b></p>", align: "left" },
      { type: "social", links: [{ network: "instagram", url: "https://instagram.com/x" }], align: "center" },
    ]);
    expect(html).toContain('value="https://x.test/a.png"');
    expect(html).toContain('value="A cat"');
    expect(html).toContain('value="320"');
    expect(html).toContain(">&lt;p&gt;Hi &lt;b&gt;there&lt;/b&gt;&lt;/p&gt;</textarea>");
    expect(html).toMatch(/<option value="right" selected="">Right<\/option>/);
    expect(html).toMatch(/<option value="instagram" selected="">Instagram<\/option>/);
    expect(html).toContain('value="https://instagram.com/x"');
  });

  it("shows a columns block's columns, each with its blocks and its own picker of column types", () => {
    const html = render([
      {
        type: "columns",
        columns: [[newBlock("heading"), newBlock("button")], [], [newBlock("image")]],
      },
    ]);
    expect(labelTexts(html)).toEqual([
      "Number of columns",
      ...FIELDS.heading,
      ...FIELDS.button,
      "Add to column 1",
      "Add to column 2",
      ...FIELDS.image,
      "Add to column 3",
      "Add block",
    ]);
    expect(labels(html).every((l) => l.tied)).toBe(true);
    expect(html).toContain("Nothing in this column yet.");
    expect(optionsOf(html, "Add to column 1")).toEqual(COLUMN_BLOCK_TYPES);
    expect(optionsOf(html, "Add block")).toEqual(BLOCK_TYPES);
    expect(optionsOf(html, "Number of columns")).toEqual(["2", "3"]);
    expect(html).toMatch(/<option value="3" selected="">/);
    expect([...html.matchAll(/<h4[^>]*>.*?<\/h4>/g)].map((m) => strip(m[0]))).toEqual([
      "1. Heading",
      "2. Button",
      "1. Image",
    ]);
  });

  it("disables what cannot be done: Undo and Redo at first, moving past an edge, removing the last link", () => {
    const html = render([newBlock("heading"), newBlock("social"), newBlock("footer")]);
    const b = buttons(html);
    const state = (name: string) => b.filter((x) => x.name === name).map((x) => x.disabled);
    expect(state("Undo")).toEqual([true]);
    expect(state("Redo")).toEqual([true]);
    expect(state("Move up")).toEqual([true, false, false]);
    expect(state("Move down")).toEqual([false, false, true]);
    expect(state("Duplicate")).toEqual([false, false, false]);
    expect(state("Delete")).toEqual([false, false, false]);
    expect(state("Remove link 1")).toEqual([true]);
    expect(state("Add link")).toEqual([false]);
    expect(state("Add Heading")).toEqual([false]);
  });

  it("says when there are no blocks yet", () => {
    const html = render([]);
    expect(html).toContain("No blocks yet");
    expect(JSON.parse(decode(/name="content" value="([^"]*)"/.exec(html)?.[1] ?? ""))).toEqual([]);
  });
});
