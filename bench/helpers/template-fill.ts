// What filling a template costs a message, beside what today's plain-text personalisation costs:
// both paths timed in this process on the same recipients, with everything a message gets per
// recipient (the unsubscribe link, the tracking links sealed; a template's view-in-browser link too).
// The template is a starter made of blocks (heading, text, button, two columns of products, footer),
// compiled once (MJML) as the delivery engine compiles a campaign's design; the per-message figure is
// the fill: LiquidJS putting one recipient's values into the parsed template.
import { compileEmailBody } from "../../app/lib/email-body.ts";
import { personalise } from "../../app/lib/campaigns.ts";
import { STARTER_TEMPLATES } from "../../app/lib/starter-templates.ts";
import { DEFAULT_BRAND } from "../../app/lib/template-brand.ts";
import { compileTemplate, renderTemplate } from "../../app/services/templates/render.server.ts";
import { trackingUrls } from "../../app/services/tracking-token.server.ts";
import { unsubscribeUrl } from "../../app/services/unsubscribe-token.server.ts";
import { viewInBrowserUrl } from "../../app/services/view-token.server.ts";

const round = (n: number) => Math.round(n * 100) / 100;
const USER = "0123456789abcdef01234567";
const CAMPAIGN = "89abcdef0123456789abcdef";
const FIRST = ["Asha", "Ravi", "Meera", "Kabir", "Diksha", "Arjun"];

/** CPU µs a message over `n` recipients (after a warm-up), of a function of the recipient's index. */
function perMessage(n: number, one: (i: number) => number): number {
  for (let i = 0; i < Math.min(2_000, n); i++) one(i);
  const before = process.cpuUsage();
  let bytes = 0;
  for (let i = 0; i < n; i++) bytes += one(i);
  const used = process.cpuUsage(before);
  if (bytes === 0) throw new Error("nothing was made");
  return (used.user + used.system) / n;
}

export async function templateFillFigures(n = 20_000) {
  const starter = STARTER_TEMPLATES.find((s) => s.id === "starter-offer");
  if (!starter) throw new Error("the Offer starter is gone");
  const compiled = await compileTemplate(
    { format: "blocks", subject: starter.subject, preheader: starter.preheader, content: starter.blocks, text: null },
    DEFAULT_BRAND,
    { tracking: true },
  );
  const message =
    "Hi {NAME},\n\nEverything in the shop is 10% off until Sunday: https://shop.example/offers\n\nSee you soon,\nThe Bench Shop team";
  const subject = "Hello {NAME}, our Diwali offers";
  const text = compileEmailBody({ message, subject, senderName: "Bench Shop", postalAddress: "" });
  const shop = { name: "Bench Shop", address: "12 MG Road, Pune" };
  const email = (i: number) => `customer${i}@example.com`;
  const links = (i: number) => ({
    unsubscribe: unsubscribeUrl({ userId: USER, campaignId: CAMPAIGN, email: email(i) }),
    tracking: trackingUrls({ userId: USER, campaignId: CAMPAIGN, seq: i + 1, retries: 0 }),
  });
  // The render alone: the signed links made once (each path seals the same kinds of token per
  // recipient, one per tracked link: timed apart below).
  const fixed = links(0);
  const sameTracking = {
    openUrl: fixed.tracking.openUrl,
    clickUrl: (n: number, url: string) => `${fixed.tracking.clickUrl(0, url)}${n}`,
  };
  const clicks = new Map<string, string>();
  const cachedTracking = {
    openUrl: fixed.tracking.openUrl,
    clickUrl: (n: number, url: string) => {
      const key = `${n} ${url}`;
      let made = clicks.get(key);
      if (made === undefined) clicks.set(key, (made = sameTracking.clickUrl(n, url)));
      return made;
    },
  };
  const viewUrl = viewInBrowserUrl({ userId: USER, campaignId: CAMPAIGN, seq: 1 });
  const textRender = (i: number, tracking: typeof cachedTracking, unsubscribe: string) => {
    const name = `${FIRST[i % FIRST.length]} Iyer`;
    const body = text({ name, unsubscribeUrl: unsubscribe, tracking });
    return personalise(subject, name).length + body.html.length + body.text.length;
  };
  let htmlBytes = 0;
  const templateRender = (i: number, tracking: typeof cachedTracking, unsubscribe: string, view: string) => {
    const first = FIRST[i % FIRST.length];
    const filled = renderTemplate(
      compiled,
      {
        customer: { name: `${first} Iyer`, first_name: first, last_name: "Iyer", email: email(i), visits: i % 9 },
        last_order: i % 3 === 0 ? null : { amount: 640, total: 672, date: "2026-11-20", status: "Completed" },
        shop,
        unsubscribe_url: unsubscribe,
        view_in_browser_url: view,
      },
      tracking,
    );
    htmlBytes = filled.html.length;
    return filled.subject.length + filled.html.length + filled.text.length;
  };
  const textUs = perMessage(n, (i) => textRender(i, cachedTracking, fixed.unsubscribe));
  const templateUs = perMessage(n, (i) => templateRender(i, cachedTracking, fixed.unsubscribe, viewUrl));
  // The whole per-recipient step, each token sealed for the recipient.
  const usesView = /view_in_browser_url/.test(compiled.htmlSource + compiled.textSource);
  const textWholeUs = perMessage(n, (i) => {
    const { unsubscribe, tracking } = links(i);
    return textRender(i, tracking, unsubscribe);
  });
  const templateWholeUs = perMessage(n, (i) => {
    const { unsubscribe, tracking } = links(i);
    const view = usesView ? viewInBrowserUrl({ userId: USER, campaignId: CAMPAIGN, seq: i + 1 }) : "";
    return templateRender(i, tracking, unsubscribe, view);
  });
  const sealUs = perMessage(n, (i) => fixed.tracking.clickUrl(i % 7, "https://shop.example/offers").length);
  const trackedLinks = compiled.links?.sources.length ?? 0;
  return {
    messages: n,
    textPersonaliseUsPerMessage: round(textUs),
    templateFillUsPerMessage: round(templateUs),
    addedUsPerMessage: round(templateUs - textUs),
    templateHtmlBytes: htmlBytes,
    withSignedLinks: {
      textUsPerMessage: round(textWholeUs),
      templateUsPerMessage: round(templateWholeUs),
      addedUsPerMessage: round(templateWholeUs - textWholeUs),
      sealUsPerToken: round(sealUs),
      tokensPerMessage: { text: 3, template: 2 + trackedLinks + (usesView ? 1 : 0) },
      what: "the same step with every token sealed for the recipient: one per tracked link in either path, so a message with more links seals more (the Offer starter has 3, the text message 1)",
    },
    what: "CPU µs a message (process.cpuUsage) of the per-recipient render: today's plain-text personalisation vs filling the Offer starter (blocks through MJML, compiled once), tracked, their signed links made once",
  };
}
