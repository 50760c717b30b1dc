// The templates every tenant starts with (docs/decisions/0043-templates-and-merge-tags.md): made of
// blocks, written for a shop that sells to its customers in India, listed beside the tenant's own.
// They cannot be changed; a marketer duplicates one and edits her copy. Their addresses are
// example.com's, which the check before launch names until she puts her own.
import type { Block, ColumnBlock } from "~/lib/template-blocks";

export type StarterTemplate = {
  id: string;
  name: string;
  subject: string;
  preheader: string;
  blocks: Block[];
};

const SHOP = "https://shop.example.com";

const greeting = (text: string): Block => ({
  type: "heading",
  text: `${text}, {{ customer.first_name | default: "there" }}`,
  level: 1,
  align: "left",
});
const paragraph = (html: string): Block => ({ type: "text", html, align: "left" });
const button = (label: string, href: string): Block => ({ type: "button", label, href, align: "center" });
const product = (name: string, price: string, path: string): ColumnBlock[] => [
  { type: "image", src: `${SHOP}/images/${path}.jpg`, alt: name, href: `${SHOP}/${path}`, width: 0, align: "center" },
  { type: "heading", text: name, level: 3, align: "center" },
  { type: "text", html: `<p>${price}</p>`, align: "center" },
  { type: "button", label: "Shop now", href: `${SHOP}/${path}`, align: "center" },
];
const footer: Block = { type: "footer", text: "You get this because you shop with us." };

export const STARTER_TEMPLATES: readonly StarterTemplate[] = [
  {
    id: "starter-newsletter",
    name: "Newsletter",
    subject: "What's new this month at {{ shop.name }}",
    preheader: "New arrivals, a story from our workshop, and what our customers loved",
    blocks: [
      greeting("Hello"),
      paragraph(
        "<p>Here is what happened at the shop this month: new arrivals, a story from our workshop, and the pieces our customers loved most.</p>",
      ),
      { type: "divider" },
      { type: "heading", text: "New this month", level: 2, align: "left" },
      {
        type: "columns",
        columns: [
          product("Block-printed cushion cover", "₹899", "cushion"),
          product("Handwoven throw", "₹2,499", "throw"),
        ],
      },
      { type: "divider" },
      { type: "heading", text: "From our workshop", level: 2, align: "left" },
      paragraph(
        '<p>Every cover is printed by hand in Sanganer with carved wooden blocks. <a href="' +
          SHOP +
          '/story">Read how it is made</a>.</p>',
      ),
      button("Visit the shop", SHOP),
      {
        type: "social",
        links: [
          { network: "instagram", url: "https://instagram.com/example" },
          { network: "website", url: SHOP },
        ],
        align: "center",
      },
      footer,
    ],
  },
  {
    id: "starter-offer",
    name: "Offer",
    subject: '{{ customer.first_name | default: "A gift" }}, 20% off everything until Sunday',
    preheader: "Use code THANKYOU20 at checkout",
    blocks: [
      greeting("A thank-you"),
      paragraph(
        "<p>For one week, everything in the shop is <strong>20% off</strong> with the code <strong>THANKYOU20</strong> at checkout. The offer ends on Sunday at midnight.</p>",
      ),
      button("Shop the offer", `${SHOP}/offer`),
      {
        type: "columns",
        columns: [product("Masala chai, 250 g", "₹320", "chai"), product("Brass tea strainer", "₹450", "strainer")],
      },
      paragraph("<p>Questions? Reply to this e-mail and we will help.</p>"),
      footer,
    ],
  },
  {
    id: "starter-welcome",
    name: "Welcome",
    subject: 'Welcome to {{ shop.name }}, {{ customer.first_name | default: "friend" }}',
    preheader: "Here is what to expect from us",
    blocks: [
      greeting("Welcome"),
      paragraph(
        "<p>Thank you for joining us. Here is what to expect:</p><ul><li>New arrivals, once a month</li><li>Offers for customers first</li><li>No more than two e-mails a month</li></ul>",
      ),
      button("Browse the shop", SHOP),
      paragraph("<p>Reply to this e-mail any time: a person reads every answer.</p>"),
      footer,
    ],
  },
  {
    id: "starter-order-follow-up",
    name: "Order follow-up",
    subject: 'How is your order, {{ customer.first_name | default: "there" }}?',
    preheader: "Tell us what you think in one click",
    blocks: [
      greeting("Thank you"),
      paragraph(
        "<p>Your order of {% if last_order.total %}₹{{ last_order.total }}{% else %}last month{% endif %} should be with you by now. We would love to know what you think of it.</p>",
      ),
      button("Write a review", `${SHOP}/review`),
      paragraph("<p>Something not right? Reply to this e-mail and we will put it right.</p>"),
      footer,
    ],
  },
];

export const isStarterTemplateId = (id: string) => id.startsWith("starter-");
