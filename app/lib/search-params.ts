/**
 * The address of `path` with the current query changed: a null or empty value removes the key.
 * Lists and dialogs keep their state (search, filter, page, ?delete=…) in the address this way.
 */
export function withSearchParams(params: URLSearchParams, changes: Record<string, string | null>, path = ""): string {
  const next = new URLSearchParams(params);
  for (const [key, value] of Object.entries(changes)) {
    if (value === null || value === "") next.delete(key);
    else next.set(key, value);
  }
  const query = next.toString();
  return query ? `${path}?${query}` : path || "?";
}
