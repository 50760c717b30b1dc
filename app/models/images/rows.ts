// A tenant's uploaded images as stored (Image; docs/decisions/0043-templates-and-merge-tags.md).
import type { Prisma } from "~/generated/prisma/client";

/** One Image row with its bytes. */
export type ImageRow = Prisma.ImageGetPayload<object>;

/** An image in the list: everything but its bytes. */
export type ImageListRow = Omit<ImageRow, "bytes">;

/** What an upload stores. */
export type ImageFields = Pick<ImageRow, "name" | "contentType" | "size" | "width" | "height" | "bytes" | "sha256">;

/** Where an image is still used: the names of the templates and campaigns whose design names it. */
export type ImageUses = { templates: string[]; campaigns: string[] };
