// Unsubscribe tokens: what a token names comes back only from a token this server sealed; a changed
// character, another secret or another purpose opens to nothing, and the token shows none of it.
import { beforeEach, describe, expect, it } from "vitest";
import { resetEnvCache } from "~/env.server";
import { newId } from "~/lib/id";
import { openToken, sealToken } from "~/services/public-token.server";
import { readUnsubscribeToken, unsubscribeToken, unsubscribeUrl } from "~/services/unsubscribe-token.server";

const SECRET = "unsubscribe-test-secret-that-is-long-enough";

beforeEach(() => {
  process.env.SESSION_SECRET = SECRET;
  process.env.PUBLIC_URL = "https://crm.example.com";
  resetEnvCache();
});

const target = () => ({ userId: newId(), campaignId: newId(), email: "asha.rao@example.in" });

describe("unsubscribe tokens", () => {
  it("name the tenant, the campaign and the address they were made for", () => {
    const t = target();
    expect(readUnsubscribeToken(unsubscribeToken(t))).toEqual(t);
    expect(unsubscribeToken(t)).toBe(unsubscribeToken(t));
    expect(unsubscribeUrl(t)).toBe(`https://crm.example.com/u/${unsubscribeToken(t)}`);
  });

  it("reveal neither the address nor the ids", () => {
    const t = target();
    const token = unsubscribeToken(t);
    const raw = Buffer.from(token, "base64url");
    expect(raw.toString("latin1")).not.toContain("asha");
    expect(raw.toString("hex")).not.toContain(t.userId);
    expect(raw.toString("hex")).not.toContain(t.campaignId);
    expect(token).not.toContain(t.userId);
  });

  it("open to nothing when any character is changed", () => {
    const token = unsubscribeToken(target());
    for (let i = 0; i < token.length; i++) {
      const c = token[i] === "A" ? "B" : "A";
      expect(readUnsubscribeToken(token.slice(0, i) + c + token.slice(i + 1))).toBeNull();
    }
    expect(readUnsubscribeToken(`${token}A`)).toBeNull();
    expect(readUnsubscribeToken(token.slice(0, -1))).toBeNull();
    expect(readUnsubscribeToken(`${token}=`)).toBeNull();
    expect(readUnsubscribeToken("")).toBeNull();
    expect(readUnsubscribeToken("not a token!")).toBeNull();
    expect(readUnsubscribeToken("A".repeat(5000))).toBeNull();
  });

  it("open to nothing under another secret", () => {
    const token = unsubscribeToken(target());
    process.env.SESSION_SECRET = "another-secret-that-is-also-long-enough-here";
    resetEnvCache();
    expect(readUnsubscribeToken(token)).toBeNull();
  });

  it("open to exactly the bytes sealed, and to nothing once the IV (the HMAC) changes", () => {
    const payload = Buffer.from("0123456789abcdef0123456789abcdef", "utf8");
    const sealed = sealToken("unsubscribe", payload);
    expect(openToken("unsubscribe", sealed)?.equals(payload)).toBe(true);
    const raw = Buffer.from(sealed, "base64url");
    raw[0] ^= 1;
    expect(openToken("unsubscribe", raw.toString("base64url"))).toBeNull();
  });
});
