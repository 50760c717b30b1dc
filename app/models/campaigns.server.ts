// The campaign as stored: the one declaration of its row, and the columns that read it whole.
import type { CampaignCounters } from "~/lib/campaigns";

/** One Campaign row as the models read it (dates as unixepoch milliseconds). */
export type CampaignRow = CampaignCounters & {
  id: string;
  userId: string;
  segmentId: string | null;
  segmentName: string;
  name: string;
  subject: string;
  description: string;
  message: string;
  status: string;
  statusDetail: string;
  sendErrors: number;
  launchedAt: number | null;
  completedAt: number | null;
  createdAt: number;
  updatedAt: number;
  firstSeq: number;
  lastSeq: number;
};

/** The columns of a whole CampaignRow, for SELECT and RETURNING. */
export const CAMPAIGN_COLUMNS = `"id", "userId", "segmentId", "segmentName", "name", "subject", "description", "message", "status",
  "statusDetail", "audienceSize", "pendingCount", "sentCount", "deliveredCount", "failedCount", "bouncedCount", "cancelledCount",
  "openedCount", "clickedCount", "sendErrors", "launchedAt", "completedAt", "createdAt", "updatedAt", "firstSeq", "lastSeq"`;
