// @engines sqlite postgres
// Uploaded images and the brand, against a real database: an image uploaded to /api/images is served
// byte for byte at its sealed public address with a year's cache; the same file again is the same
// image; what is not a PNG, JPEG or GIF, or is over 1 MB, or comes as another type, is a 4xx that
// says what to do and stores nothing; another tenant's image is a 404 and a forged address serves
// nothing; an image a template shows is not deleted. The brand: defaults until set, a bad colour a
// 400 naming it, worn by the render (colours, logo, postal address), frozen into a campaign made
// from a template, with the template's own From name and Reply-To as the campaign's default. The
// Brand and images page saves the brand and uploads through a multipart form.
import { deflateSync } from "node:zlib";
import { beforeAll, describe, expect, it } from "vitest";
import { createTestUser, useTestDatabase } from "../helpers/db";
import { bearerFor, callRoute, cookieFor, flashOf, formRequest, ORIGIN, args } from "../helpers/requests";

// eslint-disable-next-line react-hooks/rules-of-hooks -- a test helper named use*, not a React hook
useTestDatabase();

import { readDesign } from "~/lib/campaign-design";
import { parseConditions } from "~/lib/segment-parse";
import { action as brandAction, loader as brandLoader } from "~/routes/api/brand";
import { action as campaignsAction } from "~/routes/api/campaigns";
import { action as imagesAction, loader as imagesLoader } from "~/routes/api/images";
import { action as imageAction, loader as imageLoader } from "~/routes/api/images-id";
import { action as templatesAction } from "~/routes/api/templates";
import { action as templateAction } from "~/routes/api/templates-id";
import { action as renderAction } from "~/routes/api/templates-id-render";
import { loader as fileLoader } from "~/routes/image-file";
import { action as pageAction, loader as pageLoader } from "~/routes/templates-brand";
import { findCampaign } from "~/services/campaigns/views.server";
import { createSegment } from "~/services/segments.server";

type Who = { id: string; bearer: string };
let alice: Who;
let bob: Who;

beforeAll(async () => {
  for (const name of ["Alice", "Bob"] as const) {
    const user = await createTestUser(`${name} images`);
    const who = { id: user.id, bearer: await bearerFor(user.id) };
    if (name === "Alice") alice = who;
    else bob = who;
  }
});

/** A real PNG of `width` × `height` pixels, one colour (its CRCs are not checked by readers of its size). */
function png(width: number, height: number, shade = 0): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    return Buffer.concat([length, Buffer.from(type), data, Buffer.alloc(4)]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.writeUInt8(8, 8); // bit depth
  header.writeUInt8(0, 9); // greyscale
  const rows = Buffer.alloc((width + 1) * height, shade);
  for (let y = 0; y < height; y++) rows[y * (width + 1)] = 0;
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk("IHDR", header),
    chunk("IDAT", deflateSync(rows)),
    chunk("IEND", Buffer.alloc(0)),
  ]);
}

/** A GIF's header and logical screen: what says it is a GIF of that size. */
function gif(width: number, height: number): Buffer {
  const bytes = Buffer.alloc(13);
  bytes.write("GIF89a", 0, "ascii");
  bytes.writeUInt16LE(width, 6);
  bytes.writeUInt16LE(height, 8);
  return Buffer.concat([bytes, Buffer.from([0x3b])]);
}

const auth = (who: Who) => ({ Authorization: `Bearer ${who.bearer}` });
const json = (who: Who, method: string, body?: unknown) => ({
  method,
  headers: { ...auth(who), "Content-Type": "application/json" },
  ...(body === undefined ? {} : { body: JSON.stringify(body) }),
});
const upload = (who: Who, bytes: Buffer, type = "image/png", name = "logo.png") =>
  callRoute(imagesAction, `/api/images?name=${encodeURIComponent(name)}`, {
    method: "POST",
    headers: { ...auth(who), "Content-Type": type },
    body: new Uint8Array(bytes),
  });
const list = (who: Who) => callRoute(imagesLoader, "/api/images", { headers: auth(who) });

/** The public address's path and what it serves, as a mail client fetches it (no session). */
async function fetchImage(url: string, headers: Record<string, string> = {}) {
  const { pathname } = new URL(url);
  const file = pathname.replace(/^\/images\//, "");
  const response = (await fileLoader({
    request: new Request(`http://localhost${pathname}`, { headers }),
    params: { file },
    context: {},
  })) as Response;
  return { response, bytes: Buffer.from(await response.arrayBuffer()) };
}

describe("/api/images", () => {
  it("keeps an uploaded PNG and serves it byte for byte at its public address, cached for a year", async () => {
    const bytes = png(300, 120);
    const made = await upload(alice, bytes);
    expect(made.status).toBe(201);
    expect(made.body).toMatchObject({
      name: "logo.png",
      contentType: "image/png",
      size: bytes.length,
      width: 300,
      height: 120,
    });
    const url = String(made.body.url);
    expect(url).toMatch(/^http:\/\/localhost:\d+\/images\/[A-Za-z0-9_-]+\.png$/);
    expect(url).not.toContain(alice.id);
    const { response, bytes: served } = await fetchImage(url);
    expect(response.status).toBe(200);
    expect(served.equals(bytes)).toBe(true);
    expect(response.headers.get("Content-Type")).toBe("image/png");
    expect(response.headers.get("Cache-Control")).toBe("public, max-age=31536000, immutable");
    expect(response.headers.get("X-Content-Type-Options")).toBe("nosniff");
    const again = await fetchImage(url, { "If-None-Match": String(response.headers.get("ETag")) });
    expect(again.response.status).toBe(304);

    // The same file again is the image already kept.
    const same = await upload(alice, bytes, "image/png", "logo again.png");
    expect(same.status).toBe(200);
    expect(same.body.id).toBe(made.body.id);
    const one = await callRoute(imageLoader, `/api/images/${made.body.id}`, {
      headers: auth(alice),
      params: { id: String(made.body.id) },
    });
    expect(one.body.url).toBe(url);
  });

  it("takes a GIF by what its bytes are, whatever type it was sent as", async () => {
    const made = await upload(alice, gif(40, 20), "application/octet-stream", "spacer.gif");
    expect(made.status).toBe(201);
    expect(made.body).toMatchObject({ contentType: "image/gif", width: 40, height: 20 });
    expect(String(made.body.url)).toMatch(/\.gif$/);
  });

  it("refuses what is not a PNG, JPEG or GIF, an image over 1 MB and another content type, storing nothing", async () => {
    const before = (await list(alice)).body.images as unknown[];
    const text = await upload(alice, Buffer.from("hello, not an image"), "image/png", "note.png");
    expect(text.status).toBe(422);
    expect(text.body.error?.message).toBe(
      "This file is not a PNG, JPEG or GIF image. Save it as one of those (mail clients show no other kind) and upload it again.",
    );
    const svg = await upload(
      alice,
      Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"/>'),
      "image/svg+xml",
    );
    expect(svg.status).toBe(422);
    const empty = await upload(alice, Buffer.alloc(0));
    expect(empty.status).toBe(422);
    expect(empty.body.error?.message).toBe("The file is empty. Choose a PNG, JPEG or GIF image.");
    const big = Buffer.concat([png(10, 10), Buffer.alloc(1_000_001)]);
    const tooLarge = await upload(alice, big);
    expect(tooLarge.status).toBe(413);
    expect(tooLarge.body.error?.message).toMatch(/^The image is 1 MB; an image may be at most 1 MB\. Make it smaller/);
    const csv = await upload(alice, png(5, 5), "text/csv");
    expect(csv.status).toBe(400);
    expect((await list(alice)).body.images).toHaveLength(before.length);
  });

  it("keeps each tenant's images their own, and a forged or altered address serves nothing", async () => {
    const made = await upload(alice, png(64, 64, 200), "image/png", "photo.png");
    const id = String(made.body.id);
    expect((await callRoute(imageLoader, `/api/images/${id}`, { headers: auth(bob), params: { id } })).status).toBe(
      404,
    );
    const bobDelete = await callRoute(imageAction, `/api/images/${id}`, {
      method: "DELETE",
      headers: auth(bob),
      params: { id },
    });
    expect(bobDelete.status).toBe(404);
    expect((await list(bob)).body.images).toEqual([]);
    const url = String(made.body.url);
    expect((await fetchImage(url.replace(/\.png$/, ".gif"))).response.status).toBe(404);
    const token = /\/images\/([^.]+)\./.exec(url)?.[1] ?? "";
    const altered = `${token.slice(0, -2)}${token.endsWith("A") ? "BB" : "AA"}`;
    expect((await fetchImage(url.replace(token, altered))).response.status).toBe(404);
    expect((await fetchImage("http://localhost/images/not-a-token.png")).response.status).toBe(404);
  });

  it("does not delete an image a template shows, and deletes it once the template is gone", async () => {
    const made = await upload(alice, png(120, 80, 90), "image/png", "product.png");
    const id = String(made.body.id);
    const template = await callRoute(
      templatesAction,
      "/api/templates",
      json(alice, "POST", {
        name: "Product",
        subject: "New in",
        format: "blocks",
        content: [{ type: "image", src: made.body.url, alt: "A product", align: "center" }],
      }),
    );
    expect(template.status).toBe(201);
    const refused = await callRoute(imageAction, `/api/images/${id}`, {
      method: "DELETE",
      headers: auth(alice),
      params: { id },
    });
    expect(refused.status).toBe(409);
    expect(refused.body.error?.message).toBe(
      'This image is used by template "Product". Take it out of it first, then delete it.',
    );
    expect((await fetchImage(String(made.body.url))).response.status).toBe(200);
    const templateId = String(template.body.id);
    await callRoute(templateAction, `/api/templates/${templateId}`, {
      ...json(alice, "DELETE"),
      params: { id: templateId },
    });
    const deleted = await callRoute(imageAction, `/api/images/${id}`, {
      method: "DELETE",
      headers: auth(alice),
      params: { id },
    });
    expect(deleted.status).toBe(200);
    expect((await fetchImage(String(made.body.url))).response.status).toBe(404);
  });
});

describe("/api/brand", () => {
  it("is the defaults until set, refuses a colour that is not one (400 naming it), and is worn by every render", async () => {
    const first = await callRoute(brandLoader, "/api/brand", { headers: auth(bob) });
    expect(first.body).toMatchObject({ buttonColor: "#2563eb", font: "system", logoUrl: "", updatedAt: null });
    const bad = await callRoute(brandAction, "/api/brand", json(bob, "PUT", { buttonColor: "teal" }));
    expect(bad.status).toBe(400);
    expect(bad.body.error?.fields?.buttonColor).toBe("The button colour must be a colour like #1f2937");
    const logo = await upload(bob, png(200, 60, 30), "image/png", "bob-logo.png");
    const saved = await callRoute(
      brandAction,
      "/api/brand",
      json(bob, "PUT", {
        buttonColor: "#0F766E",
        font: "georgia",
        logoUrl: logo.body.url,
        logoAlt: "Bob's Bakes",
        postalAddress: "4 Park Street, Kolkata 700016",
      }),
    );
    expect(saved.status).toBe(200);
    expect(saved.body).toMatchObject({ buttonColor: "#0f766e", font: "georgia", textColor: "#1f2937" });
    const template = await callRoute(
      templatesAction,
      "/api/templates",
      json(bob, "POST", {
        name: "Bakes",
        subject: "Fresh today",
        format: "blocks",
        content: [{ type: "button", label: "Order", href: "https://bakes.example/order", align: "center" }],
      }),
    );
    const id = String(template.body.id);
    const rendered = await callRoute(renderAction, `/api/templates/${id}/render`, {
      ...json(bob, "POST", { sample: { customer: {}, last_order: null } }),
      params: { id },
    });
    const html = String(rendered.body.html);
    expect(html).toContain("#0f766e");
    expect(html).toContain(String(logo.body.url));
    expect(html).toMatch(/alt="Bob(&#39;|&#x27;|')s Bakes"/);
    expect(html).toContain("Georgia");
    expect(html).toContain("4 Park Street, Kolkata 700016");
  });

  it("is frozen into a campaign made from a template, whose own From name and Reply-To are the campaign's default", async () => {
    await callRoute(brandAction, "/api/brand", json(alice, "PUT", { buttonColor: "#b91c1c" }));
    const template = await callRoute(
      templatesAction,
      "/api/templates",
      json(alice, "POST", {
        name: "Sale",
        subject: "Sale on",
        format: "blocks",
        fromName: "Alice at the Shop",
        replyTo: "Help@Shop.example",
        content: [{ type: "button", label: "Shop", href: "https://shop.example/sale", align: "center" }],
      }),
    );
    expect(template.body).toMatchObject({ fromName: "Alice at the Shop", replyTo: "help@shop.example" });
    const parsed = parseConditions({ visits: { $gte: 0 } });
    if (!parsed.ok) throw new Error(parsed.message);
    const segment = await createSegment(alice.id, { name: "All", description: "", tree: parsed.tree });
    const made = await callRoute(
      campaignsAction,
      "/api/campaigns",
      json(alice, "POST", { name: "Sale draft", segmentId: segment.id, templateId: template.body.id, status: "Draft" }),
    );
    expect(made.status).toBe(201);
    const campaignId = String((made.body.campaign as { id?: string } | undefined)?.id ?? made.body.id);
    await callRoute(brandAction, "/api/brand", json(alice, "PUT", { buttonColor: "#111111" }));
    const stored = await findCampaign(alice.id, campaignId);
    const design = readDesign(stored?.design ?? "");
    expect(design?.brand.buttonColor).toBe("#b91c1c");
    expect(design).toMatchObject({ fromName: "Alice at the Shop", replyTo: "help@shop.example" });
  });
});

describe("/templates/brand", () => {
  it("saves the brand from its form, and uploads an image through its multipart form", async () => {
    const cookie = await cookieFor(bob.id);
    const refused = (await pageAction(
      args(formRequest("/templates/brand", { intent: "brand", background: "#fff" }, { cookie })),
    )) as Response | { status?: string; error?: Record<string, string[]> };
    const reply = refused instanceof Response ? await refused.json() : refused;
    expect(JSON.stringify(reply)).toContain("The background colour must be a colour like #1f2937");

    const saved = (await pageAction(
      args(formRequest("/templates/brand", { intent: "brand", background: "#fafaf9", font: "verdana" }, { cookie })),
    )) as Response;
    expect(saved.status).toBe(302);
    expect((await flashOf(saved))?.message).toBe("Brand saved: every template wears it");
    const brand = await callRoute(brandLoader, "/api/brand", { headers: auth(bob) });
    expect(brand.body).toMatchObject({ background: "#fafaf9", font: "verdana", logoUrl: "" });

    const form = new FormData();
    form.set("file", new Blob([new Uint8Array(png(48, 48, 10))], { type: "image/png" }), "badge.png");
    const uploaded = (await pageAction(
      args(
        new Request(`${ORIGIN}/templates/brand`, {
          method: "POST",
          body: form,
          headers: { Cookie: cookie, Origin: ORIGIN },
        }),
      ),
    )) as Response;
    expect((await flashOf(uploaded))?.message).toBe("Uploaded badge.png");
    const notImage = new FormData();
    notImage.set("file", new Blob(["name,email"], { type: "text/csv" }), "list.csv");
    const refusedUpload = (await pageAction(
      args(
        new Request(`${ORIGIN}/templates/brand`, {
          method: "POST",
          body: notImage,
          headers: { Cookie: cookie, Origin: ORIGIN },
        }),
      ),
    )) as Response;
    expect(await flashOf(refusedUpload)).toMatchObject({ type: "error" });
    const page = (await pageLoader(
      args(new Request(`${ORIGIN}/templates/brand`, { headers: { Cookie: cookie } })),
    )) as {
      images: { name: string }[];
    };
    expect(page.images.map((i) => i.name)).toContain("badge.png");
    expect(page.images.map((i) => i.name)).not.toContain("list.csv");
  });
});
