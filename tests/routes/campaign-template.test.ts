// @engines sqlite postgres
// A campaign made from a template, end to end on a real database: POST /api/campaigns with a
// templateId (no message) launches it with the template's subject; the delivery engine fills the
// frozen design for each recipient (their custom field, their last order, a fallback for an empty
// field) and an SMTP server on a loopback port receives it; the HTML received is the HTML the
// preview renders for that customer but for the signed links (tracked clicks, the open pixel,
// unsubscribe, view in browser); the view-in-browser link opens that recipient's copy; editing the
// template afterwards changes nothing the campaign sends or shows; the template cannot be deleted
// while the campaign sends; a template whose tags name nothing, or no template, is refused.
import { simpleParser } from "mailparser";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { customerInput } from "../helpers/customer-input";
import { createTestUser, useTestConnection, useTestDatabase } from "../helpers/db";
import { bearerFor, callRoute } from "../helpers/requests";
import { type SmtpCapture, startSmtpCapture } from "../helpers/smtp";

// eslint-disable-next-line react-hooks/rules-of-hooks -- a test helper named use*, not a React hook
useTestDatabase();
// eslint-disable-next-line react-hooks/rules-of-hooks -- a test helper named use*, not a React hook
const connection = useTestConnection();

import { parseConditions } from "~/lib/segment-parse";
import { action as campaignsAction } from "~/routes/api/campaigns";
import { loader as campaignLoader } from "~/routes/api/campaigns-id";
import { action as templatesAction } from "~/routes/api/templates";
import { action as templateAction } from "~/routes/api/templates-id";
import { action as renderAction } from "~/routes/api/templates-id-render";
import { action as testAction } from "~/routes/api/templates-id-test";
import { loader as viewLoader } from "~/routes/view-in-browser";
import { loader as clickLoader } from "~/routes/track-click";
import { campaignLinks } from "~/services/campaign-engagement.server";
import { resetEnvCache } from "~/env.server";
import { campaigns as campaignStore } from "~/models/campaigns/store.server";
import { createField } from "~/services/custom-fields.server";
import { createCustomer } from "~/services/customers.server";
import { createOrder } from "~/services/orders.server";
import { createDeliveryEngine } from "~/services/sending/engine.server";
import { smtpChannel } from "~/services/sending/smtp-channel.server";
import { createSegment } from "~/services/segments.server";

type Json = Record<string, unknown>;
let bearer: string;
let userId: string;
let segmentId: string;
let templateId: string;
let asha: { id: string; email: string };
let ravi: { id: string; email: string };
let smtp: SmtpCapture;

const send = (method: string, json?: unknown) => ({
  method,
  headers: { Authorization: `Bearer ${bearer}`, "Content-Type": "application/json" },
  ...(json === undefined ? {} : { body: JSON.stringify(json) }),
});

const DESIGN = [
  { type: "heading", text: 'Hello {{ customer.first_name | default: "there" }}', level: 1, align: "left" },
  {
    type: "text",
    html: '<p>Your tier: {{ customer.tier | default: "none yet" }}. Last order ₹{{ last_order.total | default: 0 }}.</p>',
    align: "left",
  },
  {
    type: "button",
    label: "See the offer",
    href: "https://shop.example/offer?who={{ customer.email }}",
    align: "center",
  },
  { type: "text", html: '<p><a href="{{ view_in_browser_url }}">View in your browser</a></p>', align: "left" },
  { type: "footer", text: "" },
];

beforeAll(async () => {
  const user = await createTestUser("Template sender");
  userId = user.id;
  bearer = await bearerFor(user.id);
  await createField(userId, { name: "tier", label: "Tier", type: "text" });
  const a = await createCustomer(userId, { ...customerInput({ firstName: "Asha" }), fields: { tier: "gold" } });
  const r = await createCustomer(userId, customerInput({ firstName: "Ravi" }));
  asha = { id: a.id, email: a.email };
  ravi = { id: r.id, email: r.email };
  await createOrder(userId, {
    customerId: asha.id,
    status: "Completed",
    notes: "",
    tax: 0,
    items: [{ name: "Chai", description: "", price: 320, quantity: 2 }],
  });
  const parsed = parseConditions({ visits: { $gte: 0 } });
  if (!parsed.ok) throw new Error(parsed.message);
  segmentId = (await createSegment(userId, { name: "Everyone", description: "", tree: parsed.tree })).id;
  const made = await callRoute(
    templatesAction,
    "/api/templates",
    send("POST", {
      name: "Tiered offer",
      subject: "{{ customer.first_name }}, an offer for you",
      preheader: "Only this week",
      format: "blocks",
      content: DESIGN,
    }),
  );
  expect(made.status).toBe(201);
  templateId = String(made.body.id);
  smtp = await startSmtpCapture();
});

afterAll(async () => {
  await smtp?.close();
});

/** Sends what is queued through the SMTP channel until `count` messages have arrived. */
async function sendQueued(count: number) {
  const channel = smtpChannel({ url: `smtp://127.0.0.1:${smtp.port}` });
  const engine = createDeliveryEngine({
    connection: connection(),
    channel,
    settings: { batchSize: 10, concurrency: 1, idleMs: 20, receiptWaitMs: 60_000 },
  });
  const running = engine.run();
  for (let i = 0; i < 400 && smtp.messages.length < count; i++) await new Promise((r) => setTimeout(r, 25));
  await engine.stop();
  await running;
  await channel.close();
}

/** The HTML with every signed address of ours (and the open pixel) put as a mark. */
const withoutSignedLinks = (html: string) =>
  html
    .replace(/<img src="[^"]*\/o\/[^"]*"[^>]*>\n?/g, "")
    .replace(/https?:\/\/[^"\s<]*\/(?:c|u|v)\/[A-Za-z0-9_-]+/g, "SIGNED");

describe("Send a test", () => {
  /** The settings the channel is built from, as the server reads them; restored after. */
  const setEnv = (changes: Record<string, string | undefined>) => {
    const before: Record<string, string | undefined> = {};
    for (const [name, value] of Object.entries(changes)) {
      before[name] = process.env[name];
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
    resetEnvCache();
    return () => setEnv(before);
  };
  const test = (json: unknown) =>
    callRoute(testAction, `/api/templates/${templateId}/test`, { ...send("POST", json), params: { id: templateId } });

  it("sends the template marked [Test] through the SMTP channel to each address, counted nowhere", async () => {
    const restore = setEnv({
      DELIVERY_CHANNEL: "smtp",
      SMTP_URL: `smtp://127.0.0.1:${smtp.port}`,
      MAIL_FROM: "Shop <news@shop.example>",
      PUBLIC_URL: process.env.PUBLIC_URL ?? "http://localhost:3000",
    });
    try {
      const before = smtp.messages.length;
      const answer = await test({ to: ["me@shop.example", "Colleague@Shop.example"], customerId: asha.id });
      expect(answer.status, JSON.stringify(answer.body)).toBe(200);
      expect(answer.body.sent).toEqual([
        { to: "me@shop.example", status: "accepted", details: expect.any(String) },
        { to: "colleague@shop.example", status: "accepted", details: expect.any(String) },
      ]);
      const received = smtp.messages.slice(before);
      expect(received.map((m) => m.to).sort()).toEqual(["colleague@shop.example", "me@shop.example"]);
      const mail = await simpleParser(received[0].raw);
      expect(mail.subject).toBe("[Test] Asha, an offer for you");
      expect(String(mail.html)).toContain("Your tier: gold.");
      // No campaign, no delivery row.
      expect((await campaignStore.campaignTotalsOf(userId)).campaigns).toBe(0);
    } finally {
      restore();
      // The campaign's tests below read only what the campaign sends.
      smtp.messages.length = 0;
    }
  });

  it("refuses more than five addresses, a malformed one, and another tenant's template", async () => {
    const six = Array.from({ length: 6 }, (_, i) => `t${i}@shop.example`);
    const tooMany = await test({ to: six });
    expect(tooMany.status).toBe(400);
    expect(JSON.stringify(tooMany.body)).toContain("A test goes to at most 5 addresses");
    expect((await test({ to: ["not an address"] })).status).toBe(400);
    expect((await test({})).status).toBe(400);
    const other = await createTestUser("Someone else");
    const theirs = await callRoute(testAction, `/api/templates/${templateId}/test`, {
      method: "POST",
      headers: { Authorization: `Bearer ${await bearerFor(other.id)}`, "Content-Type": "application/json" },
      body: JSON.stringify({ to: ["me@shop.example"] }),
      params: { id: templateId },
    });
    expect(theirs.status).toBe(404);
  });
});

describe("a campaign made from a template", () => {
  let campaignId: string;

  it("launches from POST /api/campaigns with a templateId and the template's subject", async () => {
    const launched = await callRoute(
      campaignsAction,
      "/api/campaigns",
      send("POST", {
        name: "Tier offer",
        segmentId,
        templateId,
        fromName: "Diwali desk",
        replyTo: "Care@Shop.example",
        preheader: "Ends on Sunday",
      }),
    );
    expect(launched.status, JSON.stringify(launched.body)).toBe(201);
    expect(launched.body).toMatchObject({
      subject: "{{ customer.first_name }}, an offer for you",
      templateId,
      format: "blocks",
      audienceSize: 2,
    });
    campaignId = String(launched.body.id);
  });

  it("sends each recipient the design filled with their values, the HTML the preview shows", async () => {
    await sendQueued(2);
    expect(smtp.messages).toHaveLength(2);
    const mailTo = async (email: string) => {
      const raw = smtp.messages.find((m) => m.to === email)?.raw;
      expect(raw, email).toBeDefined();
      return simpleParser(raw ?? "");
    };
    const toAsha = await mailTo(asha.email);
    expect(toAsha.subject).toBe("Asha, an offer for you");
    // The campaign's own From name, Reply-To and preheader; the address stays the sender's.
    expect(toAsha.from?.value[0]?.name).toBe("Diwali desk");
    expect(toAsha.replyTo?.value[0]?.address).toBe("care@shop.example");
    const html = String(toAsha.html);
    expect(html).toContain("Hello Asha");
    expect(html).toContain("Your tier: gold. Last order ₹640.");
    expect(html).toContain('<meta name="viewport"');
    // The button's address is tracked: a click link of ours, not the shop's address.
    expect(html).not.toContain("https://shop.example/offer");
    expect(html).toMatch(/href="http:\/\/[^"]+\/c\/[A-Za-z0-9_-]+"/);
    expect(html).toMatch(/<img src="[^"]+\/o\/[A-Za-z0-9_-]+"/);
    expect(toAsha.text).toContain("Hello Asha");
    expect(smtp.messages.find((m) => m.to === asha.email)?.raw).toMatch(/^List-Unsubscribe: <http[^>]+\/u\//m);

    const toRavi = await mailTo(ravi.email);
    expect(String(toRavi.html)).toContain("Your tier: none yet. Last order ₹0.");

    // What the preview renders for Asha is what she received, but for the signed addresses.
    const preview = await callRoute(renderAction, `/api/templates/${templateId}/render`, {
      ...send("POST", { customerId: asha.id }),
      params: { id: templateId },
    });
    expect(preview.status).toBe(200);
    const previewed = withoutSignedLinks(String(preview.body.html).replace("Only this week", "Ends on Sunday")).replace(
      /https:\/\/shop\.example\/offer\?who=[^"]+/g,
      "SIGNED",
    );
    expect(withoutSignedLinks(html)).toBe(previewed.replace(/http:\/\/[^"\s<]*\/(?:u|v)\/example/g, "SIGNED"));
  });

  it("tracks the button's link as written, and a click goes to the recipient's own address", async () => {
    const raw = smtp.messages.find((m) => m.to === asha.email)?.raw ?? "";
    const html = String((await simpleParser(raw)).html);
    const click = /href="(http[^"]*\/c\/([A-Za-z0-9_-]+))"/.exec(html);
    expect(click).not.toBeNull();
    const answer = await clickLoader({
      request: new Request(click?.[1] ?? "", { headers: { "User-Agent": "Mozilla/5.0 (X11; Linux x86_64)" } }),
      params: { token: click?.[2] ?? "" },
      context: {},
    } as never);
    expect(answer.status).toBe(302);
    expect(answer.headers.get("Location")).toBe(`https://shop.example/offer?who=${asha.email}`);
    // The campaign's links, numbered as its messages were: the button's as the design writes it.
    expect((await campaignLinks(userId, campaignId)).map((l) => l.url)).toEqual([
      "https://shop.example/offer?who={{ customer.email }}",
    ]);
  });

  it("opens a recipient's copy from the view-in-browser link, and nothing from a forged one", async () => {
    const raw = smtp.messages.find((m) => m.to === asha.email)?.raw ?? "";
    const html = String((await simpleParser(raw)).html);
    const link = /href="(http[^"]*\/v\/([A-Za-z0-9_-]+))"/.exec(html);
    expect(link).not.toBeNull();
    const token = link?.[2] ?? "";
    const page = await viewLoader({
      request: new Request(link?.[1] ?? ""),
      params: { token },
      context: {},
    } as never);
    expect(page.status).toBe(200);
    expect(page.headers.get("Content-Security-Policy")).toContain("sandbox");
    const body = await page.text();
    expect(body).toContain("Hello Asha");
    expect(body).toContain("Your tier: gold.");
    const forged = await viewLoader({
      request: new Request("http://localhost/v/x"),
      params: { token: `${token.slice(0, -2)}AA` },
      context: {},
    } as never);
    expect(forged.status).toBe(404);
  });

  it("keeps its own copy: editing the template changes nothing it shows, and the template cannot be deleted while it sends", async () => {
    const saved = await callRoute(templateAction, `/api/templates/${templateId}`, {
      ...send("PUT", {
        name: "Tiered offer",
        subject: "Changed subject",
        format: "blocks",
        content: [
          { type: "heading", text: "Changed", level: 1, align: "left" },
          { type: "footer", text: "" },
        ],
      }),
      params: { id: templateId },
    });
    expect(saved.status).toBe(200);
    const campaign = await callRoute(campaignLoader, `/api/campaigns/${campaignId}`, {
      headers: send("GET").headers,
      params: { id: campaignId },
    });
    const shown = campaign.body.campaign as Json;
    expect(shown.subject).toBe("{{ customer.first_name }}, an offer for you");
    expect(String(shown.message)).toContain("Hello {{ customer.first_name");
    // Its detail page shows the design it sent, not the template's new one.
    const { campaignDesignPreview } = await import("~/services/campaigns/design-preview.server");
    const design = await campaignDesignPreview(userId, campaignId);
    expect(design?.html).toContain("Hello there");
    expect(design?.html).not.toContain("Changed");

    // Paused, it may go on: the template stays.
    const { setCampaignStatus } = await import("~/models/campaigns/store.server").then((m) => ({
      setCampaignStatus: m.campaigns.setCampaignStatus,
    }));
    await setCampaignStatus(userId, campaignId, "Paused", ["Active", "Completed"]);
    const refused = await callRoute(templateAction, `/api/templates/${templateId}`, {
      ...send("DELETE"),
      params: { id: templateId },
    });
    expect(refused.status).toBe(409);
    expect(refused.body.error).toMatchObject({
      message: expect.stringContaining('the campaign "Tier offer", made from it, is sending or paused'),
    });
  });

  it("refuses a template whose tags name nothing, naming where, and an unknown template", async () => {
    const made = await callRoute(
      templatesAction,
      "/api/templates",
      send("POST", {
        name: "Shoe sizes",
        subject: "Hi",
        format: "markdown",
        content: "Your size: {{ customer.shoe_size }}",
      }),
    );
    expect(made.status).toBe(201);
    const refused = await callRoute(
      campaignsAction,
      "/api/campaigns",
      send("POST", { name: "Sizes", segmentId, templateId: made.body.id }),
    );
    expect(refused.status).toBe(422);
    expect(refused.body.error).toMatchObject({
      message:
        'The template "Shoe sizes" cannot be sent: Markdown, line 1, column 15: There is no merge tag "customer.shoe_size"',
    });

    const unknown = await callRoute(
      campaignsAction,
      "/api/campaigns",
      send("POST", { name: "Nothing", segmentId, templateId: "0123456789abcdef01234567" }),
    );
    expect(unknown.status).toBe(404);
    const badReply = await callRoute(
      campaignsAction,
      "/api/campaigns",
      send("POST", { name: "Bad", segmentId, templateId, replyTo: "not an address" }),
    );
    expect(badReply.status).toBe(400);
    expect(JSON.stringify(badReply.body)).toContain("Reply-To must be an e-mail address");
    const neither = await callRoute(campaignsAction, "/api/campaigns", send("POST", { name: "Empty", segmentId }));
    expect(neither.status).toBe(400);
    expect(JSON.stringify(neither.body)).toContain("Message content is required");
  });
});
