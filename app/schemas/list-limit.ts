// The limit query parameter of an /api list (app/lib/list-limits.ts says the usual bounds): one
// schema, so every list refuses a bad limit with the same messages.
import { z } from "zod";
import { DEFAULT_LIST_LIMIT, MAX_LIST_LIMIT } from "~/lib/list-limits";

/** A whole number from 1 to `max`; `fallback` when the query has none. */
export function listLimitSchema(max = MAX_LIST_LIMIT, fallback = DEFAULT_LIST_LIMIT) {
  return z.coerce
    .number({ message: "limit must be a number" })
    .int("limit must be a whole number")
    .min(1, "limit must be at least 1")
    .max(max, `limit must be at most ${max}`)
    .default(fallback);
}
