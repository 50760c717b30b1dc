// @engines sqlite postgres
// Opens and clicks end to end: a campaign sent through the real engine and the SMTP
// channel to a real SMTP server; each recipient's pixel and links, read from the messages as they
// arrived, are fetched through /o and /c as people, a link scanner within the scanner window, a
// HEAD, a bot and Apple's privacy proxy would; the queued receipts are applied as the delivery job
// applies them; the campaign's counters, the engagement card and the per-link table count people
// once and in total, machines apart. A campaign with tracking off sends its links untouched.
import { simpleParser } from "mailparser";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestUser, useTestConnection, useTestDatabase as setUpTestDatabase } from "../helpers/db";
import { makeRequest } from "../helpers/requests";
import { type SmtpCapture, startSmtpCapture } from "../helpers/smtp";

process.env.MAIL_FROM = "Shop <news@shop.example>";
process.env.PUBLIC_URL = "https://crm.example";
setUpTestDatabase();
// eslint-disable-next-line react-hooks/rules-of-hooks -- a test helper named use*, not a React hook
const connection = useTestConnection();

const { sqlRun } = await import("../helpers/sql");
const { deliveryKey } = await import("~/lib/campaigns");
const { deliveryReceipts } = await import("~/models/deliveries/receipts/store.server");
const { seedTenant } = await import("~/services/seed.server");
const { getCampaign } = await import("~/services/campaigns/views.server");
const { campaignEngagement, campaignLinks } = await import("~/services/campaign-engagement.server");
const { campaignRow, sendCampaignOverSmtp, sentRows } = await import("../helpers/campaign-send");
const openRoute = await import("~/routes/track-open");
const clickRoute = await import("~/routes/track-click");

type SentRow = import("../helpers/campaign-send").SentRow;

const CHROME =
  "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36";
const SALE = "https://shop.example/sale?utm_source=mail&x=1";
const STORES = "https://shop.example/stores";
const MESSAGE = `Hi {NAME},\n\nOur sale is on: ${SALE}\n\nFind a store: ${STORES} (or write to mailto:help@shop.example).`;

let smtp: SmtpCapture;
let tenantId: string;

beforeAll(async () => {
  tenantId = (await createTestUser("Tracking")).id;
  await seedTenant(tenantId, { customers: 4, orders: 0, seed: 25 });
  smtp = await startSmtpCapture();
}, 60_000);
afterAll(async () => {
  await smtp?.close();
});

const campaign = (id: string) => campaignRow(connection(), id);
type Row = SentRow;
const rowsOf = (id: string) => sentRows(connection(), id);
const send = (trackingEnabled: 0 | 1) =>
  sendCampaignOverSmtp(connection(), {
    userId: tenantId,
    smtpPort: smtp.port,
    name: "Diwali sale",
    message: MESSAGE,
    trackingEnabled,
  });

/** A recipient's message as it arrived: its text and HTML parts. */
async function received(id: string, row: Row) {
  const m = smtp.messages.find((c) => c.messageId === `<${deliveryKey(id, row.seq, row.retries)}@shop.example>`);
  if (!m) throw new Error(`No message reached the SMTP server for ${row.email}`);
  const parsed = await simpleParser(m.raw);
  return { text: parsed.text ?? "", html: typeof parsed.html === "string" ? parsed.html : "" };
}

/** Applies the inbox as the delivery job does, until it is empty (each hit here was its own batch). */
async function applyAll() {
  while ((await deliveryReceipts.applyQueuedReceipts(connection())).batches > 0);
}

type Visit = { method?: string; userAgent?: string; ip?: string };
const visit = (url: string, v: Visit = {}) => {
  const { pathname } = new URL(url);
  const [, kind, token] = pathname.split("/");
  const request = makeRequest(pathname, {
    method: v.method ?? "GET",
    headers: { "User-Agent": v.userAgent ?? CHROME },
  });
  const route = kind === "o" ? openRoute : clickRoute;
  return route.loader({ request, params: { token }, context: { clientIp: v.ip ?? "203.0.113.20" } });
};

describe("a tracked campaign through the SMTP channel", () => {
  it("counts people once and in total, machines apart, and clicks by link", async () => {
    const id = await send(1);
    const rows = await rowsOf(id);
    expect(rows.map((r) => r.status)).toEqual(["delivered", "delivered", "delivered", "delivered"]);

    // Each message carries its own pixel and links, in both parts; mailto: stays as written.
    const mail = await Promise.all(rows.map((r) => received(id, r)));
    const tracked = mail.map(({ text, html }) => {
      const pixel = /background-image:url\((https:\/\/crm\.example\/o\/[A-Za-z0-9_-]+)\)/.exec(html)?.[1];
      const links = [...html.matchAll(/href="(https:\/\/crm\.example\/c\/[A-Za-z0-9_-]+)"/g)].map((m) => m[1]);
      expect(pixel).toBeDefined();
      expect(links).toHaveLength(2);
      for (const link of links) expect(text).toContain(link);
      expect(text).not.toContain(SALE);
      expect(html).toContain(`>${SALE.replace(/&/g, "&amp;")}</a>`);
      expect(text).toContain("mailto:help@shop.example");
      expect(html).toMatch(/href="https:\/\/crm\.example\/u\/[A-Za-z0-9_-]+"/);
      return { pixel: pixel!, sale: links[0], stores: links[1] };
    });
    expect(new Set(tracked.map((t) => t.pixel)).size).toBe(4);
    const [a, b, c, d] = tracked;

    // A link scanner follows D's sale link as soon as the message arrives.
    expect((await visit(d.sale, { userAgent: CHROME })).headers.get("Location")).toBe(SALE);
    await applyAll();
    // A minute later (the rows' delivery is moved back: the scanner window is 10 s), the people.
    await sqlRun(connection(), `UPDATE "Delivery" SET "updatedAt" = "updatedAt" - 60000 WHERE "campaignId" = ?`, [id]);

    await visit(a.pixel);
    expect((await visit(a.sale)).headers.get("Location")).toBe(SALE);
    await visit(a.sale);
    expect((await visit(a.stores)).headers.get("Location")).toBe(STORES);
    await visit(b.pixel);
    await visit(b.pixel, { userAgent: "Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15" });
    await visit(b.sale);
    // C reads mail in Apple Mail with Privacy Protection: only Apple's proxy fetched the pixel.
    await visit(c.pixel, { userAgent: "Mozilla/5.0", ip: "17.58.101.4" });
    // D: a HEAD on the pixel, a bot on the stores link, and an altered token that counts nothing.
    expect((await visit(d.pixel, { method: "HEAD" })).status).toBe(200);
    await visit(d.stores, { userAgent: "Mozilla/5.0 (compatible; Barracuda Sentinel (EE))" });
    await visit(d.stores, { userAgent: "python-requests/2.32" });
    const altered = d.sale.slice(0, -2) + (d.sale.endsWith("AA") ? "BB" : "AA");
    expect((await visit(altered)).status).toBe(404);

    await applyAll();
    expect(await campaign(id)).toMatchObject({
      openedCount: 2,
      clickedCount: 2,
      opensTotal: 3,
      clicksTotal: 4,
      machineOpenCount: 2,
      machineClickCount: 3,
    });

    const dto = await getCampaign(tenantId, id);
    expect(await campaignEngagement(tenantId, dto)).toEqual({
      trackingEnabled: true,
      uniqueOpens: 2,
      uniqueClicks: 2,
      openRate: 50,
      clickRate: 50,
      totalOpens: 3,
      totalClicks: 4,
      machineOpens: 2,
      machineClicks: 3,
      links: [
        { index: 0, url: SALE, clicks: 3, uniqueClicks: 2, machineClicks: 1 },
        { index: 1, url: STORES, clicks: 1, uniqueClicks: 1, machineClicks: 2 },
      ],
    });
    expect(await campaignLinks(tenantId, id)).toEqual((await campaignEngagement(tenantId, dto)).links);
    // Another tenant's campaign is not found.
    const other = (await createTestUser("Other")).id;
    await expect(campaignLinks(other, id)).rejects.toMatchObject({ status: 404 });
  }, 60_000);

  it("with tracking off, sends no pixel and leaves the links as written", async () => {
    const id = await send(0);
    for (const row of await rowsOf(id)) {
      const { text, html } = await received(id, row);
      expect(html).not.toContain("/o/");
      expect(html).not.toContain("/c/");
      expect(text).toContain(`Our sale is on: ${SALE}`);
      expect(html).toContain(`href="${SALE.replace(/&/g, "&amp;")}"`);
    }
    const engagement = await campaignEngagement(tenantId, await getCampaign(tenantId, id));
    expect(engagement).toMatchObject({ trackingEnabled: false, links: [] });
  }, 60_000);
});
