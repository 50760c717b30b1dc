import type { z } from "zod";

/** Validates CLI options with zod; a failure becomes an Error whose message names what to fix. */
export function parseCliInput<T extends z.ZodType>(schema: T, input: unknown): z.infer<T> {
  const result = schema.safeParse(input);
  if (!result.success) {
    throw new Error(result.error.issues.map((i) => i.message).join("; "));
  }
  return result.data;
}
