// The images a tenant uploads for their templates (docs/decisions/0043-templates-and-merge-tags.md):
// what is taken, and the words of a refusal. Isomorphic: the editor checks a file before it sends
// it, the server checks it again.

/** The largest image taken: Gmail and Outlook fetch every image of a message, on a phone's data too. */
export const MAX_IMAGE_BYTES = 1_000_000;
/** The most images a tenant keeps. */
export const MAX_IMAGES = 1_000;
/** The kinds every mail client shows (WebP and SVG are missing from Outlook, SVG can carry script). */
export const IMAGE_TYPES = { png: "image/png", jpg: "image/jpeg", gif: "image/gif" } as const;
export type ImageExtension = keyof typeof IMAGE_TYPES;
/** What a file input offers to pick. */
export const IMAGE_ACCEPT = Object.values(IMAGE_TYPES).join(",");

export const IMAGE_MESSAGES = {
  empty: "The file is empty. Choose a PNG, JPEG or GIF image.",
  notImage:
    "This file is not a PNG, JPEG or GIF image. Save it as one of those (mail clients show no other kind) and upload it again.",
  tooLarge: (bytes: number) =>
    `The image is ${formatBytes(bytes)}; an image may be at most ${formatBytes(MAX_IMAGE_BYTES)}. Make it smaller (about 1200 px wide is plenty for e-mail) and upload it again.`,
  tooMany: `You have ${MAX_IMAGES.toLocaleString("en-IN")} images, the most kept. Delete one you no longer use first.`,
} as const;

/** "1.3 MB", "250 KB", "900 bytes". */
export function formatBytes(bytes: number): string {
  if (bytes >= 1_000_000) return `${(bytes / 1_000_000).toFixed(1).replace(/\.0$/, "")} MB`;
  if (bytes >= 1_000) return `${Math.round(bytes / 1_000)} KB`;
  return `${bytes} bytes`;
}

/** The width inside the message's 600 px column, its padding taken off. */
const CONTENT_WIDTH = 552;
/** The width an image block gets from an upload: its own when narrower than the column, else 0 (the column's). */
export function blockWidthOf(width: number): number {
  return width > 0 && width < CONTENT_WIDTH ? Math.round(width) : 0;
}
