// The public address of an uploaded image (/images/TOKEN.EXT): the tenant and the image, sealed
// (app/services/public-token.server.ts), so the address reveals neither and no one can make one
// for another image. Mail clients fetch it with no session, so the token is all that is checked.
import { getEnv } from "~/env.server";
import { isId } from "~/lib/id";
import type { ImageExtension } from "~/lib/images";
import { openToken, sealToken } from "~/services/public-token.server";

export type ImageTarget = { userId: string; imageId: string };

const ID_BYTES = 12;

export function imageToken(target: ImageTarget): string {
  const payload = Buffer.allocUnsafe(2 * ID_BYTES);
  payload.write(target.userId, 0, ID_BYTES, "hex");
  payload.write(target.imageId, ID_BYTES, ID_BYTES, "hex");
  return sealToken("image", payload);
}

/** What a token names, or null when it is not one this server made. */
export function readImageToken(token: string): ImageTarget | null {
  const payload = openToken("image", token);
  if (!payload || payload.length !== 2 * ID_BYTES) return null;
  const userId = payload.subarray(0, ID_BYTES).toString("hex");
  const imageId = payload.subarray(ID_BYTES).toString("hex");
  return isId(userId) && isId(imageId) ? { userId, imageId } : null;
}

/** The image's public address: PUBLIC_URL/images/TOKEN.EXT (the extension for mail clients that look at it). */
export function imageUrl(target: ImageTarget, extension: ImageExtension): string {
  return `${getEnv().publicUrl}/images/${imageToken(target)}.${extension}`;
}
