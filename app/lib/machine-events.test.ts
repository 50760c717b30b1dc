import { describe, expect, it } from "vitest";
import { isAppleAddress, machineClick, machineOpen } from "~/lib/machine-events";

const CHROME =
  "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36";
const APPLE_MAIL = "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko)";

describe("machine opens and clicks", () => {
  it("a person's mail client or browser is a person", () => {
    for (const userAgent of [CHROME, APPLE_MAIL, "Mozilla/5.0 (Windows NT 10.0; Microsoft Outlook 16.0.17928)"]) {
      expect(machineOpen({ method: "GET", userAgent, ip: "203.0.113.9" })).toBeNull();
      expect(machineClick({ method: "GET", userAgent, ip: "203.0.113.9" })).toBeNull();
    }
  });

  it("Gmail's and Yahoo's image proxies fetch the pixel when a person opens the message: a person's open", () => {
    for (const userAgent of [
      "Mozilla/5.0 (Windows NT 5.1; rv:11.0) Gecko Firefox/11.0 (via ggpht.com GoogleImageProxy)",
      "YahooMailProxy; https://help.yahoo.com/kb/yahoo-mail-proxy-SLN28749.html",
    ]) {
      expect(machineOpen({ method: "GET", userAgent, ip: "66.102.8.1" })).toBeNull();
      expect(machineOpen({ method: "HEAD", userAgent, ip: "66.102.8.1" })).toBe("head");
    }
  });

  it("HEAD, a bot's user agent or none at all is a machine", () => {
    expect(machineOpen({ method: "HEAD", userAgent: CHROME, ip: null })).toBe("head");
    expect(machineClick({ method: "HEAD", userAgent: CHROME, ip: null })).toBe("head");
    for (const userAgent of [
      "Googlebot/2.1 (+http://www.google.com/bot.html)",
      "python-requests/2.31",
      "Mozilla/5.0 (compatible; Barracuda Sentinel (EE))",
      "",
      null,
    ]) {
      expect(machineOpen({ method: "GET", userAgent, ip: "203.0.113.9" })).toBe("bot");
      expect(machineClick({ method: "GET", userAgent, ip: "203.0.113.9" })).toBe("bot");
    }
  });

  it("Apple's privacy proxy: the bare Mozilla/5.0, or an address in 17.0.0.0/8, is a machine open", () => {
    expect(machineOpen({ method: "GET", userAgent: "Mozilla/5.0", ip: "104.28.1.2" })).toBe("apple-proxy");
    expect(machineOpen({ method: "GET", userAgent: APPLE_MAIL, ip: "17.58.1.2" })).toBe("apple-proxy");
    expect(machineOpen({ method: "GET", userAgent: APPLE_MAIL, ip: "::ffff:17.58.1.2" })).toBe("apple-proxy");
    expect(isAppleAddress("170.1.2.3")).toBe(false);
    expect(isAppleAddress("117.1.2.3")).toBe(false);
    // A person on Apple's network who clicks is a person.
    expect(machineClick({ method: "GET", userAgent: APPLE_MAIL, ip: "17.58.1.2" })).toBeNull();
  });
});
