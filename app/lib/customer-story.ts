// How the customer's story reads (the customer page's E-mail history card and
// GET /api/customers/{id}/story): what each entry says, its tone, and the paging cursor. Pure, for
// the browser and the server alike. The rules: docs/rules.md#customer-story.

/** What an entry says happened, from the customer's delivery rows, their events and the suppression list. */
export const STORY_KINDS = [
  "received",
  "waiting",
  "deferred",
  "failed",
  "not-sent",
  "bounced",
  "opened",
  "machine-opened",
  "clicked",
  "soft-bounced",
  "complained",
  "unsubscribed",
  "resubscribed",
  "suppressed",
] as const;
export type StoryKind = (typeof STORY_KINDS)[number];

/** One entry of the story (the /api answer's item). */
export type StoryEntry = {
  kind: StoryKind;
  /** ISO 8601 (UTC); the page shows it in the viewer's zone. */
  at: string;
  /** The campaign, null when there is none or it was deleted (its name is kept). */
  campaignId: string | null;
  campaignName: string;
  /** A bounce's or complaint's reason, why a message was not sent, a clicked link's address. */
  details: string;
  /** A click's link: its position among the message's links (1 is the first), and its address when known. */
  link: { number: number; url: string } | null;
  /** For "suppressed": why (hard-bounced, soft-bounced, complained or manual). */
  reason: string;
  /** The entry as one sentence ("Clicked a link in Diwali Dhamaka"). */
  text: string;
};

/** Entries a page of the customer page shows; /api takes `limit`. */
export const STORY_PAGE_SIZE = 25;

/** A card with nothing in it. */
export const STORY_EMPTY = "No e-mail events yet";
export const STORY_EMPTY_DETAIL = "What this customer is sent, opens and clicks, and any unsubscribe, will show here.";

/** A sentence around the campaign's name: the page links the name. */
export type StoryParts = { before: string; campaign: string; after: string; detail: string };

const capitalise = (text: string) => (text ? text.charAt(0).toUpperCase() + text.slice(1) : text);

/** A suppressed row's details say "Not sent: the address was …": the sentence says "was not sent" already. */
function whyNotSent(details: string): string {
  return capitalise(details.replace(/^Not sent:\s*/i, ""));
}

/** The sentence of an entry, its campaign's name apart, and the line under it. */
export function storyParts(
  entry: Pick<StoryEntry, "kind" | "campaignName" | "details" | "link" | "reason">,
): StoryParts {
  const c = entry.campaignName.trim();
  // Without a campaign (an unsubscribe or bounce of an address whose campaign is not known):
  // `alone`, else "a campaign" in its place.
  const line = (
    before: string,
    after = "",
    detail = "",
    alone = capitalise(`${before}a campaign${after}`),
  ): StoryParts => (c ? { before, campaign: c, after, detail } : { before: alone, campaign: "", after: "", detail });
  switch (entry.kind) {
    case "received":
      return line("Received ");
    case "waiting":
      return line("", " is waiting to be sent");
    case "deferred":
      return line("", " is delayed and will be tried again", entry.details);
    case "failed":
      return line("", " could not be sent", entry.details);
    case "not-sent":
      return line("", " was not sent", whyNotSent(entry.details));
    case "bounced":
      return line("", " bounced", entry.details || "The customer's mail server refused it");
    case "opened":
      return line("Opened ");
    case "machine-opened":
      return line(
        "",
        " was loaded automatically, not by the customer",
        "A mail privacy proxy (such as Apple Mail's) or a link checker fetched it; not counted as an open",
      );
    case "clicked":
      return line("Clicked a link in ", "", linkText(entry.link));
    case "soft-bounced":
      return line("", " soft-bounced", entry.details || "A temporary problem with the customer's mailbox");
    case "complained":
      return line("Marked ", " as spam", entry.details);
    case "unsubscribed":
      return line("Unsubscribed from ", "", "", "Unsubscribed");
    case "resubscribed":
      return { before: "Resubscribed", campaign: "", after: "", detail: "" };
    case "suppressed":
      switch (entry.reason) {
        case "hard-bounced":
          return line(
            "Put on the suppression list after the hard bounce of ",
            "",
            "",
            "Put on the suppression list after a hard bounce",
          );
        case "soft-bounced":
          return line(
            "Put on the suppression list after repeated soft bounces, the last on ",
            "",
            "",
            "Put on the suppression list after repeated soft bounces",
          );
        case "complained":
          return line(
            "Put on the suppression list after the spam complaint about ",
            "",
            "",
            "Put on the suppression list after a spam complaint",
          );
        default:
          return { before: "Suppressed by hand", campaign: "", after: "", detail: "" };
      }
  }
}

function linkText(link: StoryEntry["link"]): string {
  if (!link) return "";
  return link.url || `Link ${link.number}`;
}

/** The entry as one sentence. */
export function storyText(entry: Pick<StoryEntry, "kind" | "campaignName" | "details" | "link" | "reason">): string {
  const p = storyParts(entry);
  return `${p.before}${p.campaign}${p.after}`;
}

/** How an entry is coloured: it reached the customer, it went wrong, it is on the list, or a machine's. */
export type StoryTone = "good" | "bad" | "list" | "quiet";
export function storyTone(kind: StoryKind): StoryTone {
  switch (kind) {
    case "received":
    case "opened":
    case "clicked":
    case "resubscribed":
      return "good";
    case "failed":
    case "bounced":
    case "complained":
      return "bad";
    case "unsubscribed":
    case "suppressed":
    case "soft-bounced":
      return "list";
    default:
      return "quiet";
  }
}

const CURSOR = /^(\d{1,15})\.([1-5]-[0-9a-z-]{1,60})$/;

/** The cursor of the page after an entry: its time in milliseconds and its key. */
export const storyCursor = (at: number, key: string) => `${at}.${key}`;

/** A cursor this endpoint gave, or null. */
export function parseStoryCursor(cursor: string | null | undefined): { at: number; key: string } | null {
  const m = cursor ? CURSOR.exec(cursor) : null;
  return m ? { at: Number(m[1]), key: m[2] } : null;
}

/** What a cursor looks like (the /api schema's check). */
export const isStoryCursor = (cursor: string) => CURSOR.test(cursor);
