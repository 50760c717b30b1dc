import { describe, expect, it } from "vitest";
import type { MergeValues } from "~/lib/merge-tags";
import type { Block } from "~/lib/template-blocks";
import { DEFAULT_BRAND } from "~/lib/template-brand";
import { compileTemplate, renderTemplate, TemplateCompileError, type TemplateSource } from "./render.server";

const shop = { name: "Chai Co", address: "1 MG Road, Pune" };
const values = (first_name: string): MergeValues => ({
  customer: { first_name, name: `${first_name} Rao` },
  last_order: null,
  shop,
  unsubscribe_url: "https://crm.example.in/u/tok?x=1&y=2",
  view_in_browser_url: "https://crm.example.in/v/tok",
});
const blocks: Block[] = [
  { type: "heading", text: 'Hello {{ customer.first_name | default: "there" }}', level: 1, align: "left" },
  {
    type: "text",
    html: '<p>Our <b>sale</b> is on: <a href="https://shop.example.in/sale">see it</a>.</p><script>alert(1)</script>',
    align: "left",
  },
  { type: "image", src: "https://shop.example.in/logo.png", alt: "Chai Co", href: "", width: 200, align: "center" },
  {
    type: "columns",
    columns: [
      [{ type: "button", label: "Masala chai", href: "https://shop.example.in/masala", align: "center" }],
      [{ type: "button", label: "Green tea", href: "https://shop.example.in/green", align: "center" }],
    ],
  },
];
const source = (over: Partial<TemplateSource> = {}): TemplateSource => ({
  format: "blocks",
  subject: "{{ customer.first_name }}, our offer",
  preheader: "Only this week",
  content: blocks,
  text: null,
  ...over,
});

describe("a blocks template", () => {
  it("is responsive HTML with the recipient's values escaped, the footer and the preheader", async () => {
    const message = renderTemplate(await compileTemplate(source(), DEFAULT_BRAND), values("<Asha>"));
    expect(message.subject).toBe("<Asha>, our offer");
    expect(message.html).toContain('<meta name="viewport" content="width=device-width, initial-scale=1">');
    expect(message.html).toMatch(/max-width:\s*600px/);
    expect(message.html).toContain("Hello &lt;Asha&gt;");
    expect(message.html).not.toContain("<Asha>");
    expect(message.html).not.toContain("alert(1)");
    expect(message.html).toContain('alt="Chai Co"');
    expect(message.html).toContain("Only this week");
    expect(message.html).toContain("Sent by Chai Co, 1 MG Road, Pune.");
    expect(message.html).toContain('href="https://crm.example.in/u/tok?x=1&amp;y=2"');
    expect(message.html).toContain('href="https://shop.example.in/green"');
    // Nothing is fetched from a third party when it is opened: no web fonts.
    expect(message.html).not.toContain("fonts.googleapis.com");
  });

  it("has a text part derived from the design, with the links written out and the footer", async () => {
    const message = renderTemplate(await compileTemplate(source(), DEFAULT_BRAND), values("Asha"));
    expect(message.text).toBe(
      "Hello Asha\n\nOur sale is on: see it [https://shop.example.in/sale].\n\nChai Co\n\n" +
        "Masala chai: https://shop.example.in/masala\n\nGreen tea: https://shop.example.in/green\n\n—\n" +
        "Sent by Chai Co, 1 MG Road, Pune.\nDon't want these e-mails any more? Unsubscribe: https://crm.example.in/u/tok?x=1&y=2\n",
    );
  });

  it("takes the author's text part and keeps its unsubscribe link", async () => {
    const compiled = await compileTemplate(source({ text: "Hi {{ customer.first_name }}" }), DEFAULT_BRAND);
    expect(renderTemplate(compiled, values("Asha")).text).toMatch(
      /^Hi Asha\n\n—\nSent by Chai Co.*Unsubscribe: https:\/\/crm/s,
    );
  });

  it("makes the subject one line whatever a value holds", async () => {
    const compiled = await compileTemplate(source(), DEFAULT_BRAND);
    expect(renderTemplate(compiled, values("Asha\r\nBcc: x@y.in")).subject).toBe("Asha Bcc: x@y.in, our offer");
  });

  it("names the part of a tag that does not parse", async () => {
    const broken = source({ subject: "Hi {{ customer.first_name" });
    await expect(compileTemplate(broken, DEFAULT_BRAND)).rejects.toThrow(TemplateCompileError);
    await expect(compileTemplate(broken, DEFAULT_BRAND)).rejects.toMatchObject({ where: "Subject" });
  });
});

describe("an HTML or Markdown template", () => {
  it("keeps the author's HTML and adds the footer when it has no unsubscribe link", async () => {
    const html = "<!DOCTYPE html><html><body><p>Hi {{ customer.first_name }}</p></body></html>";
    const message = renderTemplate(
      await compileTemplate(source({ format: "html", content: html, preheader: "Psst" }), DEFAULT_BRAND),
      values("Asha"),
    );
    expect(message.html).toMatch(
      /^<!DOCTYPE html><html><body>\n<div class="preheader" style="display:none;[^"]*">Psst<\/div><p>Hi Asha<\/p><p[^>]*>Sent by Chai Co, 1 MG Road, Pune\. .*Unsubscribe<\/a><\/p>\n<\/body><\/html>$/s,
    );
    expect(message.text).toMatch(/^Hi Asha\n\n—\nSent by Chai Co/);
  });

  it("escapes the preheader it puts at the top of the author's HTML", async () => {
    const compiled = await compileTemplate(
      source({
        format: "html",
        content: "<body><p>x {{ unsubscribe_url }}</p></body>",
        preheader: "Tom & Jerry <3 {{ customer.first_name }}",
      }),
      DEFAULT_BRAND,
    );
    expect(renderTemplate(compiled, values("<A>")).html).toContain(">Tom &amp; Jerry &lt;3 &lt;A&gt;</div>");
  });

  it("does not add a second unsubscribe link where the author placed one", async () => {
    const html = '<p>Hi</p><a href="{UNSUBSCRIBE_URL}">Leave</a>';
    const message = renderTemplate(
      await compileTemplate(source({ format: "html", content: html, preheader: "" }), DEFAULT_BRAND),
      values("Asha"),
    );
    expect(message.html).toBe('<p>Hi</p><a href="https://crm.example.in/u/tok?x=1&amp;y=2">Leave</a>');
  });

  it("turns Markdown into the same responsive layout, tags kept", async () => {
    const markdown = "# Hi {{ customer.first_name }}\n\nOur **sale** is on: [see it](https://shop.example.in/sale).";
    const message = renderTemplate(
      await compileTemplate(source({ format: "markdown", content: markdown }), DEFAULT_BRAND),
      values("Asha_B"),
    );
    expect(message.html).toContain("<h1>Hi Asha_B</h1>");
    expect(message.html).toContain('<a href="https://shop.example.in/sale">see it</a>');
    expect(message.html).toContain('<meta name="viewport"');
    expect(message.text).toMatch(/^# Hi Asha_B\n\nOur \*\*sale\*\* is on/);
  });
});

describe("a template compiled with tracking", () => {
  const tracking = {
    openUrl: "https://crm.example.in/o/open",
    clickUrl: (n: number, url: string) => `https://crm.example.in/c/${n}?to=${encodeURIComponent(url)}`,
  };

  it("puts each link's tracked address and the open pixel in, the rest as the preview has it", async () => {
    const compiled = await compileTemplate(source(), DEFAULT_BRAND, { tracking: true });
    expect(compiled.links?.sources).toEqual([
      "https://shop.example.in/sale",
      "https://shop.example.in/masala",
      "https://shop.example.in/green",
    ]);
    const sent = renderTemplate(compiled, values("Asha"), tracking);
    expect(sent.html).toMatch(
      /<a href="https:\/\/crm\.example\.in\/c\/0\?to=https%3A%2F%2Fshop\.example\.in%2Fsale"[^>]*>see it<\/a>/,
    );
    expect(sent.html).toContain('<img src="https://crm.example.in/o/open" width="1" height="1" alt=""');
    const previewed = renderTemplate(await compileTemplate(source(), DEFAULT_BRAND), values("Asha"));
    const untracked = sent.html
      .replace(/https:\/\/crm\.example\.in\/c\/(\d)\?to=([^"]+)/g, (_m, _n, to: string) => decodeURIComponent(to))
      .replace(/<img src="https:\/\/crm\.example\.in\/o\/open"[^>]*>\n/, "");
    expect(untracked).toBe(previewed.html);
  });

  it("reads a link whose merge tag holds quotes whole, and fills it per recipient", async () => {
    const linked: Block[] = [
      {
        type: "button",
        label: "Your page",
        href: '{{ customer.page | default: "https://shop.example.in/?a=1&b=2" }}',
        align: "center",
      },
    ];
    const compiled = await compileTemplate(source({ content: linked }), DEFAULT_BRAND, { tracking: true });
    expect(compiled.links?.sources).toEqual(['{{ customer.page | default: "https://shop.example.in/?a=1&b=2" }}']);
    const fallback = renderTemplate(compiled, values("Asha"), tracking);
    expect(fallback.html).toContain(
      `href="https://crm.example.in/c/0?to=${encodeURIComponent("https://shop.example.in/?a=1&b=2")}"`,
    );
    const own = renderTemplate(compiled, { ...values("Asha"), customer: { page: "https://asha.example/" } }, tracking);
    expect(own.html).toContain(`href="https://crm.example.in/c/0?to=${encodeURIComponent("https://asha.example/")}"`);
  });
});
