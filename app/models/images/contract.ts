// What the images domain offers (the door: ./store.server.ts): a tenant's uploaded images listed,
// read (bytes and all, for the public address), kept (once per content), the designs that still
// name one, and deleted. The rules (what is an image, how large) are the service's:
// app/services/images.server.ts.
import type { ImageFields, ImageListRow, ImageRow, ImageUses } from "./rows";

export type ImagesStore = {
  /** The tenant's images, newest first, without their bytes. */
  listImages(userId: string): Promise<ImageListRow[]>;
  countImages(userId: string): Promise<number>;
  /** One of the tenant's images without its bytes, or undefined. */
  findImage(userId: string, id: string): Promise<ImageListRow | undefined>;
  /** One of the tenant's images with its bytes (for its public address), or undefined. */
  findImageFile(userId: string, id: string): Promise<ImageRow | undefined>;
  /**
   * Keeps the image, or answers the one the tenant already has with the same bytes (`created`
   * false): uploading a file twice keeps it once.
   */
  keepImage(userId: string, id: string, fields: ImageFields): Promise<{ row: ImageListRow; created: boolean }>;
  /** The tenant's templates (content or draft) and campaigns (design) that hold `text` (the image's address), at most `limit` of each. */
  usesOf(userId: string, text: string, limit: number): Promise<ImageUses>;
  /** Deletes the image; false when the tenant has no such image. */
  deleteImage(userId: string, id: string): Promise<boolean>;
};
