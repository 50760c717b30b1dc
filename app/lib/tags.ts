// Tags on customers (docs/decisions/0041-custom-fields-and-tags.md), isomorphic: what a tag may be
// and how two spellings are the same tag. A tag is up to 50 characters of one line, compared
// without case ("VIP" and "vip" are one tag, shown as first written); the CSV's `tags` column
// holds several separated by `;`.

export const MAX_TAG_LENGTH = 50;
/** The most tags one request or CSV cell may set on a customer. */
export const MAX_TAGS_PER_CUSTOMER = 100;
export const TAG_SEPARATOR = ";";

/** A tag as written: trimmed, inner whitespace collapsed. */
export function normaliseTag(text: string): string {
  return text.trim().replace(/\s+/g, " ");
}

/** The key two spellings of a tag share. */
export function tagKey(name: string): string {
  return normaliseTag(name).toLowerCase();
}

/** Why a tag is refused, or null. */
export function tagProblem(raw: unknown): string | null {
  if (typeof raw !== "string") return "A tag must be text";
  const tag = normaliseTag(raw);
  if (tag === "") return "A tag must not be empty";
  if (tag.length > MAX_TAG_LENGTH) return `A tag must be at most ${MAX_TAG_LENGTH} characters`;
  if (tag.includes(TAG_SEPARATOR)) return `A tag must not contain "${TAG_SEPARATOR}"`;
  return null;
}

export type TagsResult = { ok: true; tags: string[] } | { ok: false; message: string };

/** A list of tags from /api or a form: each checked, spellings of one tag kept once (the first). */
export function readTags(raw: unknown): TagsResult {
  if (!Array.isArray(raw)) return { ok: false, message: "tags must be a list of strings" };
  if (raw.length > MAX_TAGS_PER_CUSTOMER) return { ok: false, message: `at most ${MAX_TAGS_PER_CUSTOMER} tags` };
  const seen = new Map<string, string>();
  for (const item of raw) {
    const problem = tagProblem(item);
    if (problem) return { ok: false, message: `${problem}: ${JSON.stringify(String(item).slice(0, 60))}` };
    const tag = normaliseTag(item as string);
    if (!seen.has(tagKey(tag))) seen.set(tagKey(tag), tag);
  }
  return { ok: true, tags: [...seen.values()] };
}

/** The tags of a CSV cell ("vip; trade fair 2026"). */
export function readTagCell(cell: string): TagsResult {
  const parts = cell
    .split(TAG_SEPARATOR)
    .map(normaliseTag)
    .filter((t) => t !== "");
  return readTags(parts);
}

/** Tags as a CSV cell. */
export function tagCell(tags: readonly string[]): string {
  return tags.join(`${TAG_SEPARATOR} `);
}
