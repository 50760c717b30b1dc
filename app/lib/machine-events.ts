// Which opens and clicks are machines rather than people (docs/rules.md#opens-and-clicks,
// docs/decisions/0025-open-and-click-tracking.md). A machine event is recorded and shown apart
// ("Machine opens"), never counted as a person:
//
// - a HEAD request: a link checker asks whether the address answers, a person's mail client GETs;
// - a known bot by its user agent (the `isbot` package, and a few mail security gateways), or no
//   user agent at all;
// - for opens, Apple Mail Privacy Protection's proxy: it fetches every image of a message when the
//   message arrives, whether or not anyone reads it. Its fetches say only "Mozilla/5.0" as their
//   user agent, and come from Apple's proxies (addresses in Apple's 17.0.0.0/8, or the egress
//   partners of iCloud Private Relay, which only the user agent tells apart).
//
// Gmail's and Yahoo's image proxies are people: they fetch the pixel when the message is opened.
//
// Link scanners that GET a link within seconds of delivery are told apart by time, when the
// receipt is applied (TRACKING_SCANNER_WINDOW_SECONDS).
import { isbot } from "isbot";

/** What a hit on /o or /c says about its caller. */
export type Hit = { method: string; userAgent: string | null; ip: string | null };

/** Why a hit is a machine's, or null for a person's. */
export type MachineReason = "head" | "bot" | "apple-proxy";

/**
 * Mail security gateways that follow links to check them and name themselves in a way isbot's list
 * does not know (seen: "Mozilla/5.0 (compatible; Barracuda Sentinel (EE))"). The others look like
 * browsers; the scanner window catches them.
 */
const SECURITY_SCANNERS = /\b(barracuda|mimecast|proofpoint)\b/i;

/**
 * Webmail image proxies that fetch the pixel when a person opens the message (Gmail's, Yahoo's): a
 * person's open, although isbot lists them (they are not browsers). They cache the image, so a
 * second open of one message may not reach us; the first does.
 */
const OPENED_THROUGH_PROXY = /GoogleImageProxy|YahooMailProxy/;

/** Apple Mail Privacy Protection's user agent: exactly this, with nothing after it. */
const APPLE_PROXY_USER_AGENT = "Mozilla/5.0";

/** An IPv4 address in Apple's 17.0.0.0/8 (plain, or IPv4-mapped IPv6 as Node reports it). */
export function isAppleAddress(ip: string | null): boolean {
  if (!ip) return false;
  const v4 = ip.startsWith("::ffff:") ? ip.slice(7) : ip;
  return /^17\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(v4);
}

/** Why a pixel fetch is a machine's (null: a person opened the message). */
export function machineOpen(hit: Hit): MachineReason | null {
  if (hit.method === "HEAD") return "head";
  const ua = (hit.userAgent ?? "").trim();
  if (ua === APPLE_PROXY_USER_AGENT || isAppleAddress(hit.ip)) return "apple-proxy";
  if (OPENED_THROUGH_PROXY.test(ua)) return null;
  if (isBotAgent(ua)) return "bot";
  return null;
}

const isBotAgent = (ua: string) => ua === "" || isbot(ua) || SECURITY_SCANNERS.test(ua);

/** Why a click is a machine's (null: a person, unless it comes within the scanner window of delivery). */
export function machineClick(hit: Hit): MachineReason | null {
  if (hit.method === "HEAD") return "head";
  const ua = (hit.userAgent ?? "").trim();
  if (isBotAgent(ua)) return "bot";
  return null;
}
