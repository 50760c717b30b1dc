import { describe, expect, it } from "vitest";
import { templateProblems } from "./checks.server";

const UNSUBSCRIBE = ' <a href="https://crm.example.in/u/example">Unsubscribe</a>';
const check = (html: string, over: Partial<Parameters<typeof templateProblems>[0]> = {}) =>
  templateProblems({
    html: html + UNSUBSCRIBE,
    text: "Hello https://crm.example.in/u/example",
    tagProblems: [],
    postalAddress: "1 MG Road, Pune",
    exampleLinks: ["https://crm.example.in/u/example"],
    unsubscribeUrl: "https://crm.example.in/u/example",
    ...over,
  });

describe("the check before a template is sent", () => {
  it("names an unsubscribe link that does not show", () => {
    const problems = templateProblems({
      html: "<p>Hi</p><!-- https://crm.example.in/u/example -->".replace(
        "<!-- https://crm.example.in/u/example -->",
        "",
      ),
      text: "Hi",
      tagProblems: [],
      postalAddress: "Pune",
      exampleLinks: [],
      unsubscribeUrl: "https://crm.example.in/u/example",
    });
    expect(problems).toEqual([
      { where: "Message", message: "It has no unsubscribe link: put {{ unsubscribe_url }} where it shows" },
      { where: "Text part", message: "It has no unsubscribe link: put {{ unsubscribe_url }} where it shows" },
    ]);
  });

  it("finds nothing in a message without problems", () => {
    expect(
      check(
        '<p><img src="https://shop.in/logo.png" alt="Chai Co"> <a href="https://shop.in/sale">Sale</a> <a href="mailto:hi@shop.in">Write</a> <a href="https://crm.example.in/u/example">Unsubscribe</a></p>',
      ),
    ).toEqual([]);
  });

  it("names images without alt text and example images", () => {
    expect(check('<img src="https://shop.in/a.png"><img src="https://shop.example.com/b.jpg" alt="B">')).toEqual([
      {
        where: "Image 1 (https://shop.in/a.png)",
        message: "It has no alt text: say what it shows, for those who see the message without images",
      },
      { where: "Image 2 (https://shop.example.com/b.jpg)", message: "It is an example image: put your own" },
    ]);
  });

  it("names each link that is not absolute, once, and example addresses", () => {
    expect(
      check(
        '<a href="/offer">x</a><a href="/offer">y</a><a href="www.shop.in">z</a><a href="https://example.com/">e</a>',
      ),
    ).toEqual([
      { where: "Link /offer", message: "It is not an absolute http(s) address: it would not open from a mail client" },
      {
        where: "Link www.shop.in",
        message: "It is not an absolute http(s) address: it would not open from a mail client",
      },
      { where: "Link https://example.com/", message: "It is an example address: put your own" },
    ]);
  });

  it("warns past Gmail's 102 KB, of an empty text part and of no postal address, and keeps the tag problems first", () => {
    const problems = check(`<p>${"x".repeat(105 * 1024)}</p>`, {
      text: "",
      postalAddress: "",
      tagProblems: [
        { kind: "unknown", message: 'There is no merge tag "customer.hat"', where: "Subject, line 1, column 4" },
      ],
    });
    expect(problems.map((p) => p.where)).toEqual([
      "Subject, line 1, column 4",
      "Message",
      "Text part",
      "Text part",
      "Footer",
    ]);
    expect(problems[1].message).toBe("It is 106 KB: Gmail shows the first 102 KB and hides the rest behind a link");
    expect(problems[3].message).toMatch(/no unsubscribe link/);
    expect(problems[4].message).toMatch(/set MAIL_POSTAL_ADDRESS/);
  });
});
