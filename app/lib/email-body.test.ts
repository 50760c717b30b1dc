import { describe, expect, it } from "vitest";
import { personalise, previewMessage } from "~/lib/campaigns";
import {
  compileEmailBody,
  compileEmailParts,
  emailLinks,
  escapeHtml,
  linkify,
  MAX_TRACKED_LINK_CHARS,
  UNSUBSCRIBE_PLACEHOLDER,
} from "~/lib/email-body";

const URL = "https://crm.example.in/u/AbC-123_x";
const SENDER = "Asha Traders";

const render = (
  message: string,
  name = "Asha Rao",
  opts: { subject?: string; senderName?: string; postalAddress?: string; url?: string } = {},
) =>
  compileEmailBody({
    message,
    subject: opts.subject ?? "Hello {NAME}",
    senderName: opts.senderName ?? SENDER,
    postalAddress: opts.postalAddress,
  })({
    name,
    unsubscribeUrl: opts.url ?? URL,
  });

/** The layout's own tags and attributes: whatever the input, no other may appear. */
const ALLOWED_TAGS = new Set([
  "!DOCTYPE",
  "html",
  "head",
  "meta",
  "title",
  "body",
  "table",
  "tr",
  "td",
  "p",
  "br",
  "a",
]);
const ALLOWED_ATTRIBUTES = new Set([
  "html",
  "charset",
  "name",
  "content",
  "style",
  "role",
  "width",
  "cellpadding",
  "cellspacing",
  "border",
  "align",
  "href",
]);
/** Every "<" of the HTML part opens one of the layout's tags, with quoted attributes of the layout only. */
function expectOnlyLayoutMarkup(html: string) {
  for (const [tag] of html.matchAll(/<[^>]*>?/g)) {
    const m = /^<\/?(!DOCTYPE|[a-z]+)((?:\s+[a-z-]+(?:="[^"<>]*")?)*)\s*>$/.exec(tag);
    expect(m, tag).not.toBeNull();
    expect(ALLOWED_TAGS).toContain(m![1]);
    for (const [, attribute, value] of m![2].matchAll(/([a-z-]+)(?:="([^"]*)")?/g)) {
      expect(ALLOWED_ATTRIBUTES).toContain(attribute);
      if (attribute === "href") expect(value).toMatch(/^https?:\/\//);
    }
  }
}
/** The links of the HTML part as [href, label], read strictly (an attribute broken out of would not match). */
function linksOf(html: string): [string, string][] {
  const anchors = [...html.matchAll(/<a\b[^>]*>/g)].map((m) => m[0]);
  const links = [...html.matchAll(/<a href="([^"<>]*)" style="[^"<>]*">([^<]*)<\/a>/g)].map(
    (m) => [m[1], m[2]] as [string, string],
  );
  expect(links).toHaveLength(anchors.length);
  return links;
}
function expectInert(html: string) {
  expectOnlyLayoutMarkup(html);
  linksOf(html);
}

describe("compileEmailBody: the text part", () => {
  it("personalises every {NAME} as personalise() does and appends the sender and the unsubscribe link", () => {
    const message = "Hi {NAME},\n\nYour code is $&-{NAME}.";
    const { text } = render(message, "Ma$&ya");
    expect(text).toBe(
      `${personalise(message, "Ma$&ya")}\n\n—\nSent by ${SENDER}.\nDon't want these e-mails any more? Unsubscribe: ${URL}`,
    );
  });

  it("puts the link where {UNSUBSCRIBE_URL} stands, and then adds no second one", () => {
    const { text } = render(`Hi {NAME}\nTo stop: ${UNSUBSCRIBE_PLACEHOLDER} (one click)`);
    expect(text).toBe(`Hi Asha Rao\nTo stop: ${URL} (one click)\n\n—\nSent by ${SENDER}.`);
    expect(text.split(URL)).toHaveLength(2);
  });

  it("places every {UNSUBSCRIBE_URL} the message has", () => {
    const { text } = render(`${UNSUBSCRIBE_PLACEHOLDER} and ${UNSUBSCRIBE_PLACEHOLDER}`);
    expect(text.split(URL)).toHaveLength(3);
  });

  it("gives 'Customer' for an empty or blank name, as personalise() does", () => {
    expect(render("Hi {NAME}", "   ").text).toMatch(/^Hi Customer\n/);
    expect(render("Hi {NAME}", "").text).toMatch(/^Hi Customer\n/);
  });

  it("never reads a substituted name or address as a placeholder", () => {
    const { text, html } = render("Hi {NAME}", `{UNSUBSCRIBE_URL} {NAME}`);
    expect(text).toMatch(/^Hi \{UNSUBSCRIBE_URL\} \{NAME\}\n/);
    expect(html).toContain("Hi {UNSUBSCRIBE_URL} {NAME}</p>");
    // Not placed by the name: the footer still carries the link.
    expect(text.endsWith(`Unsubscribe: ${URL}`)).toBe(true);
  });

  it("keeps non-ASCII text as it is (Hindi, emoji, accents)", () => {
    const message = "नमस्ते {NAME} 🎉\n\nदिवाली ऑफ़र: 20% छूट — café ✨";
    const { text, html } = render(message, "प्रिया शर्मा 🙂", { subject: "{NAME}, दिवाली 🪔", senderName: "शर्मा स्टोर्स" });
    expect(text.startsWith("नमस्ते प्रिया शर्मा 🙂 🎉\n\nदिवाली ऑफ़र: 20% छूट — café ✨\n\n—\nSent by शर्मा स्टोर्स.\n")).toBe(
      true,
    );
    expect(html).toContain("<title>प्रिया शर्मा 🙂, दिवाली 🪔</title>");
    expect(html).toContain("नमस्ते प्रिया शर्मा 🙂 🎉</p>");
    expect(html).toContain("दिवाली ऑफ़र: 20% छूट — café ✨</p>");
    expect(html).toContain("Sent by शर्मा स्टोर्स.");
  });

  it("turns line breaks in a name or the sender's name into a space: they never split a line", () => {
    const { text, html } = render("Hi {NAME}, welcome", "Asha\r\nRao\r", { senderName: "Shop\r\nBcc: x@y.in" });
    expect(text).toMatch(/^Hi Asha Rao, welcome\n\n—\nSent by Shop Bcc: x@y\.in\.\n/);
    expect(text).not.toContain("\r");
    expect(html).not.toContain("\r");
    expect(html).toContain("Hi Asha Rao, welcome</p>");
    expect(html).toContain("<title>Hello Asha Rao</title>");
  });

  it("reads the template's CRLF line ends as line breaks", () => {
    const { text, html } = render("One\r\nTwo\r\n\r\nThree");
    expect(text.startsWith("One\nTwo\n\nThree\n\n—")).toBe(true);
    expect(html).toContain("One<br>\nTwo</p>");
    expect(html).toContain(">Three</p>");
  });

  it("leaves the signature out when there is no sender's name", () => {
    expect(render("Hi", "A", { senderName: "  " }).text).toBe(
      `Hi\n\n—\nDon't want these e-mails any more? Unsubscribe: ${URL}`,
    );
    expect(render(`Hi ${UNSUBSCRIBE_PLACEHOLDER}`, "A", { senderName: "" }).text).toBe(`Hi ${URL}`);
  });

  it("names the sender once, in the footer, with the postal address; a message that signs off adds nothing to it", () => {
    const address = "12 MG Road, Bengaluru 560001";
    const message = `Hi {NAME}, our sale starts today.\n\nWarm regards,\n${SENDER}`;
    const { text, html } = render(message, "Ravi", { postalAddress: address });
    expect(text).toBe(
      `Hi Ravi, our sale starts today.\n\nWarm regards,\n${SENDER}\n\n—\nSent by ${SENDER}, ${address}.\nDon't want these e-mails any more? Unsubscribe: ${URL}`,
    );
    // Twice in each part: the message's own sign-off, and the footer's one "Sent by".
    expect(text.split(SENDER)).toHaveLength(3);
    expect(html.split(SENDER)).toHaveLength(3);
    expect(html).toContain(`Warm regards,<br>\n${SENDER}</p>`);
    expect(html).toContain(`Sent by ${SENDER}, ${address}. Don&#39;t want these e-mails any more?`);
    // A message that does not sign off: the name is in the footer only.
    const plain = render("Hi {NAME}", "Ravi", { postalAddress: `${address}\r\nIndia` });
    expect(plain.text.split(SENDER)).toHaveLength(2);
    expect(plain.html.split(SENDER)).toHaveLength(2);
    expect(plain.text).toContain(`Sent by ${SENDER}, ${address} India.`);
    // Without a name, the address alone.
    expect(render(`Hi ${UNSUBSCRIBE_PLACEHOLDER}`, "A", { senderName: "", postalAddress: address }).text).toBe(
      `Hi ${URL}\n\n—\nSent by ${address}.`,
    );
  });

  it("gives the message and the footer apart with compileEmailParts", () => {
    const parts = compileEmailParts({ message: "Hi {NAME}", subject: "S", senderName: SENDER })({
      name: "Ravi",
      unsubscribeUrl: URL,
    });
    expect(parts.textMessage).toBe("Hi Ravi");
    expect(parts.textFooter).toBe(`\n\n—\nSent by ${SENDER}.\nDon't want these e-mails any more? Unsubscribe: ${URL}`);
  });
});

describe("compileEmailParts for the wizard's preview (onlyFirstName)", () => {
  it("replaces only the first {NAME} of the message and of the subject, as previewMessage() does", () => {
    const preview = (message: string, name: string, subject = "For {NAME}, {NAME}") =>
      compileEmailParts(
        { message, subject, senderName: SENDER },
        { onlyFirstName: true },
      )({
        name,
        unsubscribeUrl: URL,
      });
    for (const [message, name] of [
      ["Hi {NAME}, {NAME} gets 10% off.\n\nBye {NAME}", "Ravi"],
      ["Hi {NAME}, your code: $&-$1 {NAME}", "Ma$&ya Rao$'s $1"],
      ["No placeholder here", "Ravi"],
      ["{NAME}{NAME}", "A{NAME}"],
    ]) {
      expect(preview(message, name).textMessage).toBe(previewMessage(message, name));
    }
    const { html } = preview("Hi {NAME}, {NAME} gets\n\nmore, {NAME}", "<Ravi>");
    expect(html).toContain("Hi &lt;Ravi&gt;, {NAME} gets</p>");
    expect(html).toContain("more, {NAME}</p>");
    expect(html).toContain("<title>For &lt;Ravi&gt;, {NAME}</title>");
  });
});

describe("compileEmailBody: the HTML part", () => {
  it("is a complete small document: doctype, charset, viewport, the subject as title, one column of at most 600px", () => {
    const { html } = render("Hi {NAME}", "Ravi", { subject: "Offer for {NAME}" });
    expect(html.startsWith("<!DOCTYPE html>\n<html>\n<head>\n")).toBe(true);
    expect(html).toContain('<meta charset="utf-8">');
    expect(html).toContain('<meta name="viewport" content="width=device-width, initial-scale=1">');
    expect(html).toContain("<title>Offer for Ravi</title>");
    expect(html).toContain("max-width:600px");
    expect(html).toContain("-apple-system");
    expect(html).not.toMatch(/<style|<link|class=/);
    expect(html.trimEnd().endsWith("</html>")).toBe(true);
  });

  it("makes paragraphs of blank-line-separated blocks and <br> of single line breaks", () => {
    const { html } = render("Hi {NAME},\nwelcome back.\n\n\n  \nOur sale:\nall week\n \nBye");
    const paragraphs = [...html.matchAll(/<p style="margin:0 0 16px 0;">([\s\S]*?)<\/p>/g)].map((m) => m[1]);
    expect(paragraphs).toEqual(["Hi Asha Rao,<br>\nwelcome back.", "Our sale:<br>\nall week", "Bye"]);
  });

  it("escapes a name meant to inject markup: it comes out as text", () => {
    for (const name of [
      "<script>alert(1)</script>",
      '"><img src=x onerror=alert(1)>',
      "' onmouseover='x",
      "&amp; &lt;",
    ]) {
      const { html } = render("Hi {NAME}, see https://shop.in/?a=1", name, { subject: "{NAME}" });
      expectInert(html);
      expect(html).toContain(`Hi ${escapeHtml(name)}, see`);
      expect(html).toContain(`<title>${escapeHtml(name)}</title>`);
    }
    const { html } = render("Hi {NAME}", "<script>");
    expect(html).toContain("Hi &lt;script&gt;</p>");
  });

  it("escapes the message, the subject and the sender's name", () => {
    const { html } = render('<b>Sale</b> & "more" <script>x()</script>\n\n<a href="javascript:alert(1)">win</a>', "A", {
      subject: "</title><script>",
      senderName: "<img src=x onerror=alert(1)>",
    });
    expectInert(html);
    expect(html).toContain("&lt;b&gt;Sale&lt;/b&gt; &amp; &quot;more&quot; &lt;script&gt;x()&lt;/script&gt;");
    expect(html).toContain("<title>&lt;/title&gt;&lt;script&gt;</title>");
    expect(html).toContain("Sent by &lt;img src=x onerror=alert(1)&gt;.");
    expect(linksOf(html).map(([href]) => href)).toEqual([URL]);
  });

  it("escapes the unsubscribe URL in its href and refuses one that is not a web address", () => {
    const url = "https://crm.example.in/u/x?a=1&b='2'";
    const { html } = render(`Stop: ${UNSUBSCRIBE_PLACEHOLDER}`, "A", { url });
    expectInert(html);
    const escaped = "https://crm.example.in/u/x?a=1&amp;b=&#39;2&#39;";
    expect(linksOf(html)).toEqual([[escaped, escaped]]);
    for (const bad of ["javascript:alert(1)", 'https://x.in/u/a" onclick="x', "/u/relative", ""]) {
      expect(() => render("Hi", "A", { url: bad })).toThrow(RangeError);
    }
  });

  it("puts the unsubscribe link in the footer, or where {UNSUBSCRIBE_URL} stands (then only there)", () => {
    const appended = render("Hi {NAME}").html;
    expect(linksOf(appended)).toEqual([[URL, "Unsubscribe"]]);
    expect(appended).toContain("Don&#39;t want these e-mails any more?");
    expect(appended).toContain("Sent by Asha Traders.");

    const placed = render(`Hi {NAME}\n\nTo stop these: ${UNSUBSCRIBE_PLACEHOLDER}.`).html;
    expect(linksOf(placed)).toEqual([[URL, URL]]);
    expect(placed).toContain(`To stop these: <a href="${URL}"`);
    expect(placed).not.toContain("Unsubscribe</a>");
    expect(placed).not.toContain(UNSUBSCRIBE_PLACEHOLDER);
  });
});

describe("linkify", () => {
  it("links bare http(s) addresses, without the punctuation that ends the sentence", () => {
    const cases: [string, string][] = [
      ["See https://shop.in/offer.", "https://shop.in/offer"],
      ["(https://shop.in/a)", "https://shop.in/a"],
      ["Go to https://shop.in/sale!", "https://shop.in/sale"],
      ["https://en.wikipedia.org/wiki/Diwali_(festival), nice", "https://en.wikipedia.org/wiki/Diwali_(festival)"],
      ['"http://shop.in/x?y=1"', "http://shop.in/x?y=1"],
      ["यहाँ देखें https://shop.in/hi।", "https://shop.in/hi"],
      ["HTTPS://SHOP.IN/Caps;", "HTTPS://SHOP.IN/Caps"],
    ];
    for (const [text, url] of cases) {
      expect(linksOf(linkify(text))).toEqual([[url, url]]);
    }
  });

  it("escapes & in a query string, in the href and the label", () => {
    const html = linkify("Shop: https://shop.in/s?q=a&b=c<d and more");
    expect(html).toBe(
      'Shop: <a href="https://shop.in/s?q=a&amp;b=c" style="color:#2563eb;text-decoration:underline;word-break:break-all;">https://shop.in/s?q=a&amp;b=c</a>&lt;d and more',
    );
  });

  it("links several addresses and leaves anything else as text", () => {
    const html = linkify("a https://a.in b http://b.in/x, c ftp://c.in d https:// e www.d.in fhttps://e.in");
    expect(linksOf(html)).toEqual([
      ["https://a.in", "https://a.in"],
      ["http://b.in/x", "http://b.in/x"],
    ]);
  });
});

describe("compileEmailBody: per recipient", () => {
  it("renders 10,000 recipients from one compiled template, each with its own name and link", () => {
    const message = "Hi {NAME},\n\nOur Diwali sale is on: https://shop.in/sale?utm=mail&x=1\n\nSee you soon!\n".repeat(
      3,
    );
    const renderFor = compileEmailBody({ message, subject: "Sale for {NAME}", senderName: SENDER });
    let total = 0;
    for (let i = 0; i < 10_000; i++) {
      const body = renderFor({ name: `Customer ${i} <x>`, unsubscribeUrl: `${URL}${i}` });
      total += body.text.length + body.html.length;
      if (i % 2_500 === 0) {
        expect(body.text).toContain(`Hi Customer ${i} <x>,`);
        expect(body.html).toContain(`Hi Customer ${i} &lt;x&gt;,`);
        expect(linksOf(body.html).at(-1)).toEqual([`${URL}${i}`, "Unsubscribe"]);
      }
    }
    expect(total).toBeGreaterThan(10_000 * message.length);
  });
});

describe("tracking", () => {
  const TRACK = "https://crm.example.in";
  const tracking = {
    openUrl: `${TRACK}/o/OPEN-token_1`,
    clickUrl: (link: number, url: string) => `${TRACK}/c/${link}-${url.length}?x=1&y=2`,
  };
  const tracked = (message: string, name = "Asha Rao") =>
    compileEmailBody({ message, subject: "Hi {NAME}", senderName: SENDER })({ name, unsubscribeUrl: URL, tracking });
  const PIXEL = `background-image:url(${TRACK}/o/OPEN-token_1);background-repeat:no-repeat;`;
  const FOOTER_CELL = '<tr><td align="center" style="';

  it("loads the pixel as the footer's background only when tracking is on: no <img> in the HTML", () => {
    const on = tracked("Hi {NAME}");
    expectOnlyLayoutMarkup(on.html);
    expect(on.html).toContain(`${FOOTER_CELL}${PIXEL}padding:16px 8px;`);
    expect(on.html.split("/o/")).toHaveLength(2);
    // No image element: a short message is not an image with little text (SpamAssassin's
    // HTML_IMAGE_ONLY_* rules count any <img>; app/services/sending/postfix-relay.server.test.ts
    // scores the message as it arrives).
    expect(on.html).not.toMatch(/<img/i);
    expect(on.text).not.toContain("/o/");
    const off = render("Hi {NAME}");
    expect(off.html).not.toContain("background-image");
    expect(off.html).toContain(`${FOOTER_CELL}padding:16px 8px;`);
  });

  it("percent-encodes what would end the pixel's url() or its attribute", () => {
    const { html } = compileEmailBody({ message: "Hi", subject: "S", senderName: SENDER })({
      name: "A",
      unsubscribeUrl: URL,
      tracking: { openUrl: `${TRACK}/o/a(b)'c"d e\\f`, clickUrl: () => `${TRACK}/c/a` },
    });
    expectOnlyLayoutMarkup(html);
    expect(html).toContain(`background-image:url(${TRACK}/o/a%28b%29%27c%22d%20e%5Cf);`);
  });

  it("rewrites every http(s) link in both parts, keeps the HTML label the original address, numbers addresses in order", () => {
    const message =
      "Sale: https://shop.in/sale?a=1&b=2.\n\nMore at http://b.in/x and again https://shop.in/sale?a=1&b=2, {NAME}.";
    expect(emailLinks(message)).toEqual(["https://shop.in/sale?a=1&b=2", "http://b.in/x"]);
    const { text, html } = tracked(message);
    const c0 = tracking.clickUrl(0, "https://shop.in/sale?a=1&b=2");
    const c1 = tracking.clickUrl(1, "http://b.in/x");
    expect(text).toContain(`Sale: ${c0}.\n\nMore at ${c1} and again ${c0}, Asha Rao.`);
    expect(linksOf(html)).toEqual([
      [escapeHtml(c0), "https://shop.in/sale?a=1&amp;b=2"],
      [escapeHtml(c1), "http://b.in/x"],
      [escapeHtml(c0), "https://shop.in/sale?a=1&amp;b=2"],
      [URL, "Unsubscribe"],
    ]);
    expectInert(html);
  });

  it("never rewrites the unsubscribe link, mailto: or the pixel, nor a link too long to carry", () => {
    const long = `https://shop.in/${"x".repeat(MAX_TRACKED_LINK_CHARS)}`;
    const message = `Write to mailto:help@shop.in or stop: ${UNSUBSCRIBE_PLACEHOLDER}\n\nLong: ${long}`;
    expect(emailLinks(message)).toEqual([]);
    const { text, html } = tracked(message);
    expect(text).toContain(`Write to mailto:help@shop.in or stop: ${URL}`);
    expect(text).toContain(`Long: ${long}`);
    expect(linksOf(html)).toEqual([
      [URL, URL],
      [long, long],
    ]);
    expect(html).toContain(PIXEL);
  });

  it("keeps the escaping: a name or message meant to inject markup stays text, tracked addresses are escaped", () => {
    const { html } = tracked('<b>x</b> "https://shop.in/?q=<script>" {NAME}', '"><img src=x onerror=alert(1)>');
    expectInert(html);
    expect(html).toContain("&lt;b&gt;x&lt;/b&gt; &quot;");
    expect(html).toContain(escapeHtml('"><img src=x onerror=alert(1)>'));
    expect(linksOf(html)[0]).toEqual([escapeHtml(tracking.clickUrl(0, "https://shop.in/?q=")), "https://shop.in/?q="]);
  });

  it("a message with no links gets the pixel and no click address", () => {
    let asked = 0;
    const body = compileEmailBody({ message: "Hello {NAME}, no links here.", subject: "S", senderName: SENDER })({
      name: "Ravi",
      unsubscribeUrl: URL,
      tracking: { openUrl: tracking.openUrl, clickUrl: (i, u) => (asked++, tracking.clickUrl(i, u)) },
    });
    expect(asked).toBe(0);
    expect(emailLinks("Hello {NAME}, no links here.")).toEqual([]);
    expect(linksOf(body.html)).toEqual([[URL, "Unsubscribe"]]);
    expect(body.html).toContain(PIXEL);
  });

  it("renders each recipient's own addresses from one compiled template", () => {
    const renderFor = compileEmailBody({ message: "Go https://shop.in/a", subject: "S", senderName: SENDER });
    const a = renderFor({
      name: "A",
      unsubscribeUrl: URL,
      tracking: { openUrl: `${TRACK}/o/a`, clickUrl: () => `${TRACK}/c/a` },
    });
    const b = renderFor({
      name: "B",
      unsubscribeUrl: URL,
      tracking: { openUrl: `${TRACK}/o/b`, clickUrl: () => `${TRACK}/c/b` },
    });
    const plain = renderFor({ name: "C", unsubscribeUrl: URL });
    expect(a.text).toContain(`Go ${TRACK}/c/a`);
    expect(b.html).toContain(`href="${TRACK}/c/b"`);
    expect(b.html).toContain(`url(${TRACK}/o/b)`);
    expect(plain.text).toContain("Go https://shop.in/a");
    expect(plain.html).not.toContain("/o/");
  });
});
