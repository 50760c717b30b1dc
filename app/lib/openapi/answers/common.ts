// The pieces every /api answer schema is built of (./people.ts, ./segments.ts, ./campaigns.ts):
// times, ids, counts, the error body and the plain successes, and a customer as every answer that
// names one says it.
import { z } from "zod";
import type { ApiErrorCode } from "~/lib/api.server";

export const isoTime = z.string().meta({ description: "An ISO 8601 time (UTC)", format: "date-time" });
export const id = z.string().meta({ description: "A 24-character lowercase hexadecimal id" });
export const count = z.number().int().min(0);

/** Every code of an /api error (ApiErrorCode in app/lib/api.server.ts). */
export const API_ERROR_CODES = [
  "bad_request",
  "unauthorized",
  "forbidden",
  "not_found",
  "method_not_allowed",
  "conflict",
  "payload_too_large",
  "unprocessable",
  "rate_limited",
  "internal",
  "unavailable",
] as const satisfies readonly ApiErrorCode[];

/** The body of every /api failure (errorResponse() in app/lib/api.server.ts). */
export const ApiErrorSchema = z
  .strictObject({
    error: z.strictObject({
      code: z.enum(API_ERROR_CODES),
      message: z.string(),
      fields: z
        .record(z.string(), z.string())
        .optional()
        .meta({ description: "For a refused input: the first message of each field, keyed by its dotted path" }),
    }),
  })
  .meta({ description: "An /api failure: a code that matches the status, and a message for people" });

export const SuccessSchema = z.strictObject({ success: z.literal(true) });
export const SuccessMessageSchema = z.strictObject({ success: z.literal(true), message: z.string() });

/** A customer as every answer that names one says it (CustomerContactDto). */
export const CustomerContactSchema = z.strictObject({
  _id: id,
  id,
  firstName: z.string(),
  lastName: z.string(),
  email: z.string(),
  phone: z.string(),
});

/** Whether two types are the same (the compile-time guards of each answers module use it). */
export type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
export type Out<T extends z.ZodType> = z.output<T>;
export const same = <A, B>(ok: Same<A, B>) => ok;

// Compile-time guards: each line fails to type-check when the DTO and its schema differ (a field
// added, removed or retyped on either side).
export const COMMON_DTO_CHECKS = [same<(typeof API_ERROR_CODES)[number], ApiErrorCode>(true)];
