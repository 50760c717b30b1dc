// A list page's place in its address (?sort=, ?page=, ?cursor=…), read with the page's own schema:
// an address that is not one of ours is refused with a 400 that says what is wrong, as plain text.
import type { z } from "zod";

export function listAddress<S extends z.ZodType>(schema: S, params: URLSearchParams): z.output<S> {
  const parsed = schema.safeParse(Object.fromEntries(params));
  if (!parsed.success)
    throw new Response(parsed.error.issues[0]?.message ?? "Invalid address", {
      status: 400,
      headers: { "Content-Type": "text/plain; charset=utf-8" },
    });
  return parsed.data;
}
