// Merge tags through a markup compiler: MJML and the HTML cleaner would escape or drop the quotes
// and braces of `{{ customer.first_name | default: "there" }}`, so every tag becomes a marker made
// of letters and digits first, and the marker becomes the tag again in the compiled HTML. The
// markers carry a nonce the template does not contain, so no text of the author's is ever taken
// for one.
import { randomBytes } from "node:crypto";
import { withLegacyTags } from "~/lib/merge-tags";

const TAG = /\{\{[\s\S]*?\}\}|\{%[\s\S]*?%\}/g;

export type TagMarkers = {
  /** The text with each merge tag replaced by its marker. */
  mark(text: string): string;
  /** The compiled text with each marker replaced by its tag. */
  restore(text: string): string;
};

export function tagMarkers(): TagMarkers {
  const nonce = `mt${randomBytes(6).toString("hex")}`;
  const tags: string[] = [];
  const marker = new RegExp(`${nonce}n(\\d+)x`, "g");
  return {
    mark: (text) =>
      withLegacyTags(text).replace(TAG, (tag) => {
        tags.push(tag);
        return `${nonce}n${tags.length - 1}x`;
      }),
    restore: (text) => text.replace(marker, (_m, i: string) => tags[Number(i)] ?? ""),
  };
}
