// Whether a Prisma call failed on a unique index (Prisma's P2002): a name or key another row holds
// already. The same code on both engines (db() is PostgreSQL's client there), so the models that
// turn it into their own error (a duplicate field name, a tag made at the same moment, an
// idempotency key taken) ask here.
import { Prisma } from "~/generated/prisma/client";

export function isUniqueViolation(error: unknown): boolean {
  return error instanceof Prisma.PrismaClientKnownRequestError && error.code === "P2002";
}
