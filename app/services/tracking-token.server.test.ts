// Tracking tokens: an open or click token gives back exactly what was sealed in it, and nothing for
// a token altered in any character, sealed under another secret or for another purpose.
import { beforeEach, describe, expect, it } from "vitest";
import { resetEnvCache } from "~/env.server";
import { deliveryKey } from "~/lib/campaigns";
import { newId } from "~/lib/id";
import {
  clickTrackingToken,
  openTrackingToken,
  readClickToken,
  readOpenToken,
  trackingUrls,
} from "~/services/tracking-token.server";
import { readUnsubscribeToken, unsubscribeToken } from "~/services/unsubscribe-token.server";

beforeEach(() => {
  process.env.SESSION_SECRET = "tracking-test-secret-that-is-long-enough";
  process.env.PUBLIC_URL = "https://crm.example.com";
  resetEnvCache();
});

const message = (retries = 0) => ({ userId: newId(), campaignId: newId(), seq: 123_456_789_012, retries });
const altered = (token: string, at: number) =>
  `${token.slice(0, at)}${token[at] === "A" ? "B" : "A"}${token.slice(at + 1)}`;

describe("tracking tokens", () => {
  it("an open token names the tenant, the campaign and the message (its delivery key)", () => {
    const m = message(2);
    const token = openTrackingToken(m);
    expect(readOpenToken(token)).toEqual({ ...m, deliveryId: deliveryKey(m.campaignId, m.seq, 2) });
    expect(openTrackingToken(m)).toBe(token);
    expect(token.length).toBeLessThan(80);
    expect(Buffer.from(token, "base64url").toString("hex")).not.toContain(m.userId);
  });

  it("a click token names the message, the link's index and its address, revealing neither", () => {
    const m = message();
    const url = "https://shop.in/sale?utm=mail&x=ü";
    const token = clickTrackingToken(m, 3, url);
    expect(readClickToken(token)).toEqual({ ...m, deliveryId: deliveryKey(m.campaignId, m.seq, 0), link: 3, url });
    expect(Buffer.from(token, "base64url").toString("latin1")).not.toContain("shop.in");
    const urls = trackingUrls(m);
    expect(urls.openUrl).toBe(`https://crm.example.com/o/${openTrackingToken(m)}`);
    expect(urls.clickUrl(3, url)).toBe(`https://crm.example.com/c/${token}`);
  });

  it("open to nothing when any character is changed, added or removed", () => {
    const m = message();
    const open = openTrackingToken(m);
    const click = clickTrackingToken(m, 0, "https://shop.in/a");
    for (let i = 0; i < open.length; i++) expect(readOpenToken(altered(open, i))).toBeNull();
    for (let i = 0; i < click.length; i++) expect(readClickToken(altered(click, i))).toBeNull();
    for (const bad of [`${click}A`, click.slice(0, -1), `${click}=`, "", "not a token!", "A".repeat(20_000)]) {
      expect(readClickToken(bad)).toBeNull();
      expect(readOpenToken(bad)).toBeNull();
    }
  });

  it("refuse another purpose's token: open, click and unsubscribe are not interchangeable", () => {
    const m = message();
    const open = openTrackingToken(m);
    const click = clickTrackingToken(m, 0, "https://shop.in/a");
    const unsubscribe = unsubscribeToken({ userId: m.userId, campaignId: m.campaignId, email: "a@shop.in" });
    expect(readClickToken(open)).toBeNull();
    expect(readOpenToken(click)).toBeNull();
    expect(readOpenToken(unsubscribe)).toBeNull();
    expect(readClickToken(unsubscribe)).toBeNull();
    expect(readUnsubscribeToken(open)).toBeNull();
    expect(readUnsubscribeToken(click)).toBeNull();
  });

  it("open to nothing under another secret", () => {
    const m = message();
    const open = openTrackingToken(m);
    const click = clickTrackingToken(m, 1, "https://shop.in/b");
    process.env.SESSION_SECRET = "another-secret-that-is-also-long-enough-here";
    resetEnvCache();
    expect(readOpenToken(open)).toBeNull();
    expect(readClickToken(click)).toBeNull();
  });
});
