// The per-recipient token of a message's "view in browser" link (/v/TOKEN): the tenant, the
// campaign and the recipient's delivery row, sealed (app/services/public-token.server.ts), so the
// link reveals none of them and no one can make one for another recipient.
import { getEnv } from "~/env.server";
import { isId } from "~/lib/id";
import { openToken, sealToken } from "~/services/public-token.server";

export type ViewTarget = { userId: string; campaignId: string; seq: number };

const ID_BYTES = 12;
const PAYLOAD_BYTES = 2 * ID_BYTES + 6;

export function viewToken(target: ViewTarget): string {
  const payload = Buffer.allocUnsafe(PAYLOAD_BYTES);
  payload.write(target.userId, 0, ID_BYTES, "hex");
  payload.write(target.campaignId, ID_BYTES, ID_BYTES, "hex");
  payload.writeUIntLE(target.seq, 2 * ID_BYTES, 6);
  return sealToken("view", payload);
}

/** What a token names, or null when it is not one this server made. */
export function readViewToken(token: string): ViewTarget | null {
  const payload = openToken("view", token);
  if (!payload || payload.length !== PAYLOAD_BYTES) return null;
  const userId = payload.subarray(0, ID_BYTES).toString("hex");
  const campaignId = payload.subarray(ID_BYTES, 2 * ID_BYTES).toString("hex");
  const seq = payload.readUIntLE(2 * ID_BYTES, 6);
  if (!isId(userId) || !isId(campaignId) || seq < 1) return null;
  return { userId, campaignId, seq };
}

/** The public address of a recipient's copy of the message (PUBLIC_URL/v/TOKEN). */
export function viewInBrowserUrl(target: ViewTarget): string {
  return `${getEnv().publicUrl}/v/${viewToken(target)}`;
}
