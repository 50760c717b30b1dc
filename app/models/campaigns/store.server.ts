// The campaigns domain's door: the functions of ./contract.ts, each running the configured
// engine's implementation (engineDoor in app/db/engine.server.ts). The only file other code
// imports the domain's functions from; types come from ./rows.
import { engineDoor } from "~/db/engine.server";
import type { CampaignsStore } from "~/models/campaigns/contract";
import { postgresCampaigns } from "~/models/campaigns/postgres.server";
import { sqliteCampaigns } from "~/models/campaigns/sqlite.server";

export const campaigns = engineDoor<CampaignsStore>({ sqlite: sqliteCampaigns, postgres: postgresCampaigns });

export type { CampaignPersonRow, CampaignRow, NewCampaign, SendingCampaign } from "~/models/campaigns/rows";
