import { describe, expect, it } from "vitest";
import {
  compileMergeParts,
  knownMergeTags,
  MAX_TEMPLATE_CHARS,
  MergeTagError,
  mergeTagProblems,
  type MergeValues,
  withLegacyTags,
} from "~/lib/merge-tags";

const known = knownMergeTags(["shoe_size"]);
const values = (customer: MergeValues["customer"], shop = { name: "Chai Co", address: "" }): MergeValues => ({
  customer,
  last_order: null,
  shop,
  unsubscribe_url: "https://crm.example.in/u/t?a=1&b=2",
  view_in_browser_url: "https://crm.example.in/v/t",
});
const fill = (source: string, kind: "html" | "text", v: MergeValues) =>
  compileMergeParts([{ source, kind, where: "Message" }]).fill(v)[0];

describe("merge tags", () => {
  it("fills a customer's values with a fallback for an empty one", () => {
    const source = 'Hi {{ customer.first_name | default: "there" }}!';
    expect(fill(source, "text", values({ first_name: "Asha" }))).toBe("Hi Asha!");
    expect(fill(source, "text", values({ first_name: "" }))).toBe("Hi there!");
    expect(fill(source, "text", values({}))).toBe("Hi there!");
  });

  it("escapes values in HTML and leaves them as they are in text", () => {
    const v = values({ first_name: `<b>"Asha" & co</b>` });
    expect(fill("<p>{{ customer.first_name }}</p>", "html", v)).toBe(
      "<p>&lt;b&gt;&#34;Asha&#34; &amp; co&lt;/b&gt;</p>",
    );
    expect(fill("{{ customer.first_name }}", "text", v)).toBe(`<b>"Asha" & co</b>`);
    expect(fill('<a href="{{ unsubscribe_url }}">x</a>', "html", v)).toBe(
      '<a href="https://crm.example.in/u/t?a=1&amp;b=2">x</a>',
    );
  });

  it("fills a simple output exactly as a LiquidJS render does", () => {
    // An assign anywhere makes LiquidJS fill every output: the reference for the fast path.
    const rendered = (source: string, kind: "html" | "text", v: MergeValues) => [
      fill(source, kind, v),
      fill(`{% assign unused = 1 %}${source}`, kind, v),
    ];
    const sources = [
      "{{ customer.x }}",
      '{{ customer.x | default: "d&<" }}',
      "{{customer.x|default:'e'}}",
      "{{ last_order.total }}",
      "{{ last_order.total | default: 0 }}",
      "{{ tracked_links[1] }}",
      "{{ customer.toString }}",
      "{{ customer.x.size }}",
    ];
    const odd: unknown[] = [`<b>"A" & 'c'</b>`, "", null, undefined, 0, false, true, 1.5, -0, ["a", 2, null], { a: 1 }];
    for (const x of odd) {
      const v = {
        ...values({ x } as MergeValues["customer"]),
        tracked_links: ["https://a.example/?q=1&r=2", String(x)],
      };
      for (const source of sources) {
        for (const kind of ["html", "text"] as const) {
          const [fast, liquid] = rendered(source, kind, v);
          expect(fast, `${source} (${kind}) of ${JSON.stringify(x)}`).toBe(liquid);
        }
      }
    }
    // An initial, a literal, a value set inside a block: what LiquidJS writes.
    const asha = values({ first_name: "Asha" });
    expect(fill("{{ customer.first_name[0] }}.{{ customer.first_name.length }}", "text", asha)).toBe("A.4");
    expect(fill("{{ true }}", "text", asha)).toBe("true");
    const nested =
      '{% if customer.first_name != blank %}{% assign hi = customer.first_name %}{% else %}{% assign hi = "there" %}{% endif %}Hi {{ hi }}';
    expect(fill(nested, "text", asha)).toBe("Hi Asha");
    expect(fill(nested, "text", values({}))).toBe("Hi there");
    const withOrder = { ...values({}), last_order: { total: 672 } };
    expect(rendered("{{ last_order.total }}", "text", withOrder)).toEqual(["672", "672"]);
  });

  it("reads the first messages' {NAME} and {UNSUBSCRIBE_URL}", () => {
    expect(withLegacyTags("Hi {NAME}, {UNSUBSCRIBE_URL} {{NAME}}")).toBe(
      "Hi {{ customer.name }}, {{ unsubscribe_url }} {{NAME}}",
    );
    expect(fill("Hi {NAME}: {UNSUBSCRIBE_URL}", "text", values({ name: "Asha Rao" }))).toBe(
      "Hi Asha Rao: https://crm.example.in/u/t?a=1&b=2",
    );
  });

  it("fills several parts together, each distinct tag once, the shop's once per sender", () => {
    const parts = compileMergeParts([
      { source: "Hello {{ customer.first_name }}", kind: "text", where: "Subject" },
      {
        source: "<h1>{{ customer.first_name }}</h1>{% if shop.address != blank %}<p>{{ shop.address }}</p>{% endif %}",
        kind: "html",
        where: "Message",
      },
      { source: "{{ customer.first_name }} from {{ shop.name }}", kind: "text", where: "Text part" },
    ]);
    const shop = { name: "Chai Co", address: "1 MG Road" };
    expect(parts.fill(values({ first_name: "Asha" }, shop))).toEqual([
      "Hello Asha",
      "<h1>Asha</h1><p>1 MG Road</p>",
      "Asha from Chai Co",
    ]);
    expect(parts.fill(values({ first_name: "Ravi" }, shop))).toEqual([
      "Hello Ravi",
      "<h1>Ravi</h1><p>1 MG Road</p>",
      "Ravi from Chai Co",
    ]);
    // Another sender's values are read again, not taken from the first.
    expect(parts.fill(values({ first_name: "Ravi" }, { name: "Tea Co", address: "" }))[1]).toBe("<h1>Ravi</h1>");
  });

  it("keeps an assign for the tags after it", () => {
    const source = '{% assign greeting = "Namaste" %}{{ greeting }}, {{ shop.name }}';
    expect(fill(source, "text", values({}))).toBe("Namaste, Chai Co");
  });

  it("names a tag that does not exist, with its line and column", () => {
    expect(mergeTagProblems("Hi\n  {{ customer.shoe_size }} {{ customer.hat }}", "Message", known)).toEqual([
      { kind: "unknown", message: 'There is no merge tag "customer.hat"', where: "Message, line 2, column 31" },
    ]);
    expect(mergeTagProblems("{{ order.total }}", "Subject", known)).toEqual([
      { kind: "unknown", message: 'There is no merge tag "order.total"', where: "Subject, line 1, column 4" },
    ]);
    expect(
      mergeTagProblems("{% assign x = 1 %}{{ x }}{% for i in (1..3) %}{{ i }}{% endfor %}", "Message", known),
    ).toEqual([]);
  });

  it("names an unclosed tag, an unknown filter and a file include", () => {
    expect(mergeTagProblems("Hi {{ customer.first_name", "Subject", known)[0].message).toMatch(
      /^The tag \{\{ customer\.first_name is not closed \(line 1, column 4\)$/,
    );
    expect(mergeTagProblems("{% if x %}", "Message", known)[0].message).toMatch(/is not closed/);
    expect(mergeTagProblems("{{ customer.name | shout }}", "Message", known)[0].message).toMatch(
      /^There is no filter named shout/,
    );
    expect(mergeTagProblems('{% include "/etc/passwd" %}', "Message", known)[0].message).toMatch(
      /^Templates cannot include other files/,
    );
    expect(() => compileMergeParts([{ source: '{% render "x" %}', kind: "html", where: "Message" }])).toThrow(
      MergeTagError,
    );
  });

  it("refuses a template that is too long, and stops a render that makes too much text", () => {
    expect(mergeTagProblems("x".repeat(MAX_TEMPLATE_CHARS + 1), "Message", known)[0].message).toMatch(/longer than/);
    const loop = '{% assign a = "xxxxxxxxxx" %}{% for i in (1..30) %}{% assign a = a | append: a %}{% endfor %}{{ a }}';
    expect(() => fill(loop, "text", values({}))).toThrow(/too much text/);
  });

  it("reads no property a value does not own", () => {
    expect(fill("{{ customer.constructor }}|{{ customer.__proto__ }}", "text", values({ first_name: "A" }))).toBe("|");
  });
});

describe("what a template cannot do", () => {
  it("never prints a value unescaped in HTML: the raw filter escapes, the raw tag is refused", () => {
    const v = values({ first_name: "<img src=x onerror=alert(1)>" });
    expect(fill("{{ customer.first_name | raw }}", "html", v)).toBe("&lt;img src=x onerror=alert(1)&gt;");
    expect(mergeTagProblems("{% raw %}<script>{% endraw %}", "Message", known)[0].message).toMatch(
      /^\{% raw %\} is not allowed/,
    );
    expect(() => compileMergeParts([{ source: "{% raw %}x{% endraw %}", kind: "html", where: "Message" }])).toThrow(
      MergeTagError,
    );
  });

  it("fills an output again after an assign changes what it reads", () => {
    const source = '{% assign g = "a" %}{{ g }},{% assign g = "b" %}{{ g }}';
    expect(fill(source, "text", values({}))).toBe("a,b");
  });

  it("names a bare root, which would print an object", () => {
    expect(mergeTagProblems("{{ customer }}", "Subject", known)[0].message).toBe('There is no merge tag "customer"');
  });
});
