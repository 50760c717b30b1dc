// Whose rows of a campaign its CSV export takes (docs/rules.md#campaign-exports), for the detail
// page's form, its route, the CLI and the model that reads them.

export const CAMPAIGN_PEOPLE = ["recipients", "openers", "clickers", "bouncers", "unsubscribers"] as const;
export type CampaignPeople = (typeof CAMPAIGN_PEOPLE)[number];

/** How the choice reads on the detail page. */
export const CAMPAIGN_PEOPLE_LABELS: Record<CampaignPeople, string> = {
  recipients: "Recipients (sent)",
  openers: "Openers",
  clickers: "Clickers",
  bouncers: "Bouncers",
  unsubscribers: "Unsubscribers",
};

export const WHO_REFUSED = "who must be recipients, openers, clickers, bouncers or unsubscribers";

/** The export a `who` names (any case), or null for anything else. */
export function parseWho(value: string | null | undefined): CampaignPeople | null {
  const key = (value ?? "").trim().toLowerCase();
  return (CAMPAIGN_PEOPLE as readonly string[]).includes(key) ? (key as CampaignPeople) : null;
}
