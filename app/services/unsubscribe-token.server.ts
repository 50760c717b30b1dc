// The per-recipient token of a campaign's unsubscribe link (/u/TOKEN): the tenant, the campaign and
// the address, sealed (app/services/public-token.server.ts), so the link reveals none of them and
// no one can make one for another address. The address travels in the token, so the link keeps
// working after the campaign or the customer is deleted.
import { getEnv } from "~/env.server";
import { isId } from "~/lib/id";
import { openToken, sealToken } from "~/services/public-token.server";

export type UnsubscribeTarget = { userId: string; campaignId: string; email: string };

const ID_BYTES = 12;

/** The token of one recipient of one campaign. */
export function unsubscribeToken(target: UnsubscribeTarget): string {
  return sealToken(
    "unsubscribe",
    Buffer.concat([
      Buffer.from(target.userId, "hex"),
      Buffer.from(target.campaignId, "hex"),
      Buffer.from(target.email.toLowerCase(), "utf8"),
    ]),
  );
}

/** What a token names, or null when it is not one this server made. */
export function readUnsubscribeToken(token: string): UnsubscribeTarget | null {
  const payload = openToken("unsubscribe", token);
  if (!payload || payload.length <= 2 * ID_BYTES) return null;
  const userId = payload.subarray(0, ID_BYTES).toString("hex");
  const campaignId = payload.subarray(ID_BYTES, 2 * ID_BYTES).toString("hex");
  const email = payload.subarray(2 * ID_BYTES).toString("utf8");
  if (!isId(userId) || !isId(campaignId)) return null;
  return { userId, campaignId, email };
}

/** The public address of a recipient's unsubscribe page (PUBLIC_URL/u/TOKEN). */
export function unsubscribeUrl(target: UnsubscribeTarget): string {
  return `${getEnv().publicUrl}/u/${unsubscribeToken(target)}`;
}
