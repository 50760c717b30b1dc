// Revenue per campaign (app/models/attribution/): the row types and what is the same on both
// engines. The rules are in ./contract.ts; the queries in ./sqlite.server.ts and ./postgres.server.ts.
import type { CampaignRow } from "~/models/campaigns/rows";

/** Which first touch starts the window: the first human click, or (weaker) the first human open. */
export type AttributionTouch = "clicked" | "opened";

/** Orders attributed and their revenue (order totals, in paise). */
export type AttributionRow = { orders: number; revenuePaise: number };

/** A campaign's attributed orders and revenue (the clicks rule), keyed by campaign. */
export type CampaignAttributionRow = AttributionRow & { campaignId: string };

/** A campaign row of the list sorted by revenue, with its figures (the clicks rule). */
export type CampaignRevenueRow = CampaignRow & { attributedOrders: number; attributedRevenuePaise: number };

/** The place in the list sorted by revenue to go on after. */
export type RevenueCursor = { revenuePaise: number; id: string };

/** The delivery row's column of a touch's time. */
export const TOUCH_COLUMN: Record<AttributionTouch, string> = { clicked: `"clickedAt"`, opened: `"openedAt"` };
