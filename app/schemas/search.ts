// A search term from an address (?q=): any text but control characters (a NUL or an escape is never
// typed in a search box, and SQLite's FTS5 and the CSV export refuse them), at most 200 characters.
import { z } from "zod";
import { CONTROL_CHARACTERS } from "~/schemas/text";

export const SEARCH_CONTROL_CHARACTERS = "Search terms cannot contain control characters";

export const SearchTermSchema = z
  .string()
  .refine((value) => !CONTROL_CHARACTERS.test(value), SEARCH_CONTROL_CHARACTERS);

/** The `q` of a page's address, checked: a control character is a 400 the page's error boundary shows. */
export function pageSearchTerm(params: URLSearchParams): string | null {
  const q = params.get("q");
  if (q === null) return null;
  const checked = SearchTermSchema.safeParse(q);
  if (!checked.success)
    throw new Response(SEARCH_CONTROL_CHARACTERS, {
      status: 400,
      headers: { "Content-Type": "text/plain; charset=utf-8" },
    });
  return checked.data;
}
