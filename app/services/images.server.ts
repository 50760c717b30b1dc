// Images a tenant uploads for their templates (a logo, product photos): checked to be a PNG, JPEG
// or GIF of at most MAX_IMAGE_BYTES by what the bytes are, not what the name or the Content-Type
// says; kept in the database (every instance and the container serve them); served at a sealed
// public address with long cache headers (app/routes/image-file.ts). An image still named by a
// template or a campaign is not deleted: a sent message would lose it.
import { createHash } from "node:crypto";
import { imageSize } from "image-size";
import { ApiError, notFound } from "~/lib/api.server";
import { newId } from "~/lib/id";
import { IMAGE_MESSAGES, IMAGE_TYPES, type ImageExtension, MAX_IMAGE_BYTES, MAX_IMAGES } from "~/lib/images";
import type { ImageListRow } from "~/models/images/rows";
import { images } from "~/models/images/store.server";
import { toOneLine } from "~/schemas/text";
import { imageToken, imageUrl, readImageToken } from "~/services/image-token.server";

/** An image as /api/images gives it. */
export type ImageDto = {
  _id: string;
  id: string;
  name: string;
  contentType: string;
  /** Bytes. */
  size: number;
  width: number;
  height: number;
  /** Its public address, for an image block's `src` or an HTML template's `<img>`. */
  url: string;
  createdAt: string;
};

/** The widest or tallest image taken: larger ones are photos straight from a camera, too heavy for mail. */
const MAX_SIDE = 8_000;
const MAX_NAME = 200;

const EXTENSION_OF_TYPE = new Map<string, ImageExtension>(
  Object.entries(IMAGE_TYPES).map(([extension, type]) => [type, extension as ImageExtension]),
);

function extensionOf(contentType: string): ImageExtension {
  return EXTENSION_OF_TYPE.get(contentType) ?? "png";
}

function toDto(row: ImageListRow): ImageDto {
  return {
    _id: row.id,
    id: row.id,
    name: row.name,
    contentType: row.contentType,
    size: row.size,
    width: row.width,
    height: row.height,
    url: imageUrl({ userId: row.userId, imageId: row.id }, extensionOf(row.contentType)),
    createdAt: row.createdAt.toISOString(),
  };
}

/** What the bytes are: a PNG, JPEG or GIF with its size in pixels, or a 4xx saying what is wrong. */
export function readImage(bytes: Buffer): { extension: ImageExtension; width: number; height: number } {
  if (bytes.length === 0) throw new ApiError("unprocessable", IMAGE_MESSAGES.empty);
  if (bytes.length > MAX_IMAGE_BYTES) throw new ApiError("payload_too_large", IMAGE_MESSAGES.tooLarge(bytes.length));
  let found: { type?: string; width?: number; height?: number };
  try {
    found = imageSize(bytes);
  } catch {
    throw new ApiError("unprocessable", IMAGE_MESSAGES.notImage);
  }
  const extension = found.type === "jpg" || found.type === "png" || found.type === "gif" ? found.type : null;
  const width = found.width ?? 0;
  const height = found.height ?? 0;
  if (!extension || width < 1 || height < 1) throw new ApiError("unprocessable", IMAGE_MESSAGES.notImage);
  if (width > MAX_SIDE || height > MAX_SIDE)
    throw new ApiError(
      "unprocessable",
      `The image is ${width} × ${height} pixels; at most ${MAX_SIDE} on a side is taken. Make it smaller (about 1200 px wide is plenty for e-mail) and upload it again.`,
    );
  return { extension, width, height };
}

/** A file's name as the list shows it: one line, at most 200 characters, "image.EXT" when none. */
function nameOf(name: string, extension: ImageExtension): string {
  const clean = toOneLine(name.replace(/^.*[\\/]/, "")).slice(0, MAX_NAME);
  return clean || `image.${extension}`;
}

/** Keeps an uploaded image (once: the same bytes again answer the image already kept). */
export async function uploadImage(
  userId: string,
  bytes: Buffer,
  name: string,
): Promise<{ image: ImageDto; created: boolean }> {
  const { extension, width, height } = readImage(bytes);
  const sha256 = createHash("sha256").update(bytes).digest("hex");
  if ((await images.countImages(userId)) >= MAX_IMAGES) throw new ApiError("conflict", IMAGE_MESSAGES.tooMany);
  const { row, created } = await images.keepImage(userId, newId(), {
    name: nameOf(name, extension),
    contentType: IMAGE_TYPES[extension],
    size: bytes.length,
    width,
    height,
    bytes: new Uint8Array(bytes),
    sha256,
  });
  return { image: toDto(row), created };
}

/** The tenant's images, newest first. */
export async function listImages(userId: string): Promise<ImageDto[]> {
  return (await images.listImages(userId)).map(toDto);
}

export async function getImage(userId: string, id: string): Promise<ImageDto> {
  const row = await images.findImage(userId, id);
  if (!row) throw notFound("Image");
  return toDto(row);
}

const named = (what: string, names: string[]) =>
  `${what}${names.length > 1 ? "s" : ""} ${names.map((n) => `"${n}"`).join(", ")}`;

/**
 * Deletes the image, unless a template or a campaign still names it (409 naming them): a campaign's
 * messages are in inboxes and keep fetching it, so an image a campaign sent is kept.
 */
export async function deleteImage(userId: string, id: string): Promise<void> {
  const row = await images.findImage(userId, id);
  if (!row) throw notFound("Image");
  const uses = await images.usesOf(userId, imageToken({ userId, imageId: id }), 3);
  if (uses.campaigns.length)
    throw new ApiError(
      "conflict",
      `This image is in ${named("campaign", uses.campaigns)}${uses.templates.length ? ` and ${named("template", uses.templates)}` : ""}: it is kept, so the messages sent keep showing it.`,
    );
  if (uses.templates.length)
    throw new ApiError(
      "conflict",
      `This image is used by ${named("template", uses.templates)}. Take it out of ${uses.templates.length > 1 ? "them" : "it"} first, then delete it.`,
    );
  await images.deleteImage(userId, id);
}

/** An image for its public address: the bytes and their type, or null (unknown token, another extension, deleted). */
export async function publicImage(
  token: string,
  extension: string,
): Promise<{ bytes: Uint8Array; contentType: string; etag: string } | null> {
  const target = readImageToken(token);
  if (!target) return null;
  const row = await images.findImageFile(target.userId, target.imageId);
  if (!row || extensionOf(row.contentType) !== extension) return null;
  return { bytes: row.bytes, contentType: row.contentType, etag: `"${row.sha256}"` };
}
